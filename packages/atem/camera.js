// @ts-check
/**
 * Camera control, where the switcher says it has it: Blackmagic cameras on its external
 * inputs, each numbered as its input is, driven through the switcher by Blackmagic's camera
 * control protocol (category, parameter, data type, values; absolute, or an offset from where
 * the camera is). Each write is the library's raw `CameraControlCommand`. atem-connection
 * 3.10.2 does not keep what the cameras report (`CCdP`) in its state; it hands each report on
 * as it comes, and the settings a panel toggles (stabilisation, colour bars, recording) and the
 * exposure a shutter step starts from are read from those. The rest is write-only: an order, a
 * step or a trigger.
 */
import { Commands, Enums } from 'atem-connection';
import { HubError } from 'patchbay-hub/connection';

const { CameraControlCommand, CameraControlDataType: Type } = Commands;

/** The protocol's categories and parameters (Blackmagic's "Camera Control" section). */
export const LENS = { category: 0, focus: 0, autoFocus: 1, fStop: 2, iris: 3, autoIris: 5, stabilisation: 6, zoomSpeed: 9 };
export const VIDEO = { category: 1, whiteBalance: 2, autoWhiteBalance: 3, exposure: 5, detail: 8, gain: 13, nd: 16 };
export const DISPLAY = { category: 4, colorBars: 4 };
export const MEDIA = { category: 10, transport: 1 };
export const COLOR = { category: 8, lift: 0, gamma: 1, gain: 2, offset: 3, contrast: 4, lumaMix: 5, hueSaturation: 6 };

const DETAIL = ['off', 'low', 'medium', 'high'];
/** The usual shutter speeds, 1/24 s to 1/2000 s, as exposures in µs, slowest first. */
const SPEEDS = [24, 25, 30, 48, 50, 60, 75, 90, 100, 120, 150, 180, 250, 360, 500, 725, 1000, 1450, 2000].map((d) => Math.round(1e6 / d));
/** Red, green, blue and luma, with what each colour correction is at rest and may reach. */
const BALANCES = [
  { name: 'lift', label: 'lift', parameter: COLOR.lift, rest: 0, minimum: -2, maximum: 2 },
  { name: 'gamma', label: 'gamma', parameter: COLOR.gamma, rest: 0, minimum: -4, maximum: 4 },
  { name: 'colorGain', label: 'colour gain', parameter: COLOR.gain, rest: 1, minimum: 0, maximum: 16 },
  { name: 'offset', label: 'offset', parameter: COLOR.offset, rest: 0, minimum: -8, maximum: 8 },
];
const CHANNELS = /** @type {const} */ (['red', 'green', 'blue', 'luma']);

/** @typedef {import('patchbay-hub/connection').Value} Value */

/** The numbers of a JSON object written, each a finite number or absent. @param {Value} v @returns {Record<string, unknown>} */
const fields = (v) => {
  try {
    const parsed = JSON.parse(String(v));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
};
/** @param {unknown} n */
const finite = (n) => typeof n === 'number' && Number.isFinite(n);

export class Cameras {
  #atem;
  #parameters;
  #write;
  /** @type {Set<number>} */
  #made = new Set();
  /** The settings read back, by `camera.category.parameter`: what reports each. @type {Map<string, (report: import('atem-connection').Commands.CameraControlPacket2) => void>} */
  #reports = new Map();

  /**
   * @param {Pick<import('atem-connection').Atem, 'sendCommand'>} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./steps.js').WriteOnly} write
   */
  constructor(atem, parameters, write) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#write = write;
  }

  /**
   * One command to camera `camera`: numbers as the type says (FLOAT is the protocol's fixed16, 5.11
   * bits: rounded to the nearest 1/2048; the rest whole),
   * or the booleans of a BOOL (none: an instant action).
   * @param {number} camera @param {number} category @param {number} parameter
   * @param {import('atem-connection').Commands.CameraControlDataType} type
   * @param {number[] | boolean[]} values @param {boolean} [relative]
   */
  send(camera, category, parameter, type, values, relative = false) {
    const bool = type === Type.BOOL;
    return this.#atem.sendCommand(
      new CameraControlCommand(camera, category, parameter, {
        type,
        boolData: bool ? /** @type {boolean[]} */ (values) : [],
        numberData: bool
          ? []
          : /** @type {number[]} */ (values).map((n) => (type === Type.FLOAT ? Math.round(n * 2048) / 2048 : Math.round(n))),
        bigintData: [],
        stringData: '',
        relative,
      }),
    );
  }

  /** What the cameras reported through the switcher (`CCdP`), among the commands it sent. @param {readonly unknown[]} commands */
  heard(commands) {
    for (const command of commands) {
      if (!(command instanceof Commands.CameraControlUpdateCommand)) continue;
      this.#reports.get(`${command.source}.${command.category}.${command.parameter}`)?.(command.properties);
    }
  }

  /** Each camera input's parameters, once the switcher said it has camera control. @param {import('atem-connection').AtemState} state */
  read(state) {
    if (!state.info.capabilities?.cameraControl) return;
    const cameras = Object.values(state.inputs)
      .filter((input) => input?.internalPortType === Enums.InternalPortType.External)
      .map((input) => /** @type {number} */ (input?.inputId));
    for (const camera of cameras) if (!this.#made.has(camera)) this.#camera(camera);
    if (cameras.length > 0 && !this.#parameters.has('camera/record')) this.#recordMany();
  }

  /** @param {number} n */
  #camera(n) {
    this.#made.add(n);
    const parameters = this.#parameters;
    const base = `camera/${n}`;
    const name = `Camera ${n}`;
    /** @param {number} category @param {number} parameter @param {import('atem-connection').Commands.CameraControlDataType} type @param {number[] | boolean[]} values @param {boolean} [relative] */
    const send = (category, parameter, type, values, relative) => this.send(n, category, parameter, type, values, relative);
    /** A range check, before anything is sent. @param {number} minimum @param {number} maximum */
    const within = (minimum, maximum) => ({
      refuse: (/** @type {Value} */ v) =>
        Number(v) >= minimum && Number(v) <= maximum ? undefined : `${String(v).slice(0, 20)} is not within ${minimum} to ${maximum}`,
    });
    /** A write-only number sent as one value. @param {string} id @param {string} label @param {number} category @param {number} parameter @param {import('atem-connection').Commands.CameraControlDataType} type @param {number} minimum @param {number} maximum @param {{ unit?: string, relative?: boolean, map?: (v: number) => number }} [how] */
    const number = (id, label, category, parameter, type, minimum, maximum, how = {}) =>
      parameters.order(
        `${base}/${id}`,
        {
          type: type === Type.FLOAT ? 'F' : 'I',
          meta: { label: `${name} ${label}`, minimum, maximum, ...(how.unit && { unit: how.unit }) },
        },
        (v) => send(category, parameter, type, [(how.map ?? ((x) => x))(Number(v))], how.relative),
        within(minimum, maximum),
      );

    number('focus', 'focus', LENS.category, LENS.focus, Type.FLOAT, 0, 1);
    number('focus/step', 'focus step', LENS.category, LENS.focus, Type.FLOAT, -1, 1, { relative: true });
    parameters.trigger(`${base}/autoFocus`, { label: `${name} auto focus` }, () => send(LENS.category, LENS.autoFocus, Type.BOOL, []));
    number('iris', 'iris', LENS.category, LENS.iris, Type.FLOAT, 0, 1);
    number('iris/fStop', 'iris f-stop', LENS.category, LENS.fStop, Type.FLOAT, -1, 16);
    number('iris/step', 'iris step', LENS.category, LENS.fStop, Type.FLOAT, -16, 16, { unit: 'stops', relative: true });
    parameters.trigger(`${base}/autoIris`, { label: `${name} auto iris` }, () => send(LENS.category, LENS.autoIris, Type.BOOL, []));
    /** A setting the camera reports: read-write, its value what the camera last said. @param {string} id @param {string} label @param {number} category @param {number} parameter @param {(v: boolean) => Promise<unknown>} command @param {(report: import('atem-connection').Commands.CameraControlPacket2) => boolean} read */
    const reported = (id, label, category, parameter, command, read) => {
      const made = parameters.commanded(`${base}/${id}`, { type: 'B', meta: { label: `${name} ${label}` } }, (v) => command(v === true));
      this.#reports.set(`${n}.${category}.${parameter}`, (report) => made.report(read(report)));
    };
    reported(
      'stabilisation',
      'image stabilisation',
      LENS.category,
      LENS.stabilisation,
      (on) => send(LENS.category, LENS.stabilisation, Type.BOOL, [on]),
      (r) => r.boolData[0] === true,
    );
    number('zoom/speed', 'zoom speed', LENS.category, LENS.zoomSpeed, Type.FLOAT, -1, 1);

    number('gain', 'gain', VIDEO.category, VIDEO.gain, Type.SINT8, -128, 127, { unit: 'dB' });
    number('gain/step', 'gain step', VIDEO.category, VIDEO.gain, Type.SINT8, -128, 127, { unit: 'dB', relative: true });
    const balance = {
      temperature: { type: /** @type {const} */ ('I'), label: 'Colour temperature', minimum: 2500, maximum: 10000, unit: 'K' },
      tint: { type: /** @type {const} */ ('I'), label: 'Tint', minimum: -50, maximum: 50 },
    };
    /** @param {Value} v @param {boolean} relative */
    const whiteBalance = (v, relative) => {
      const { temperature, tint } = fields(v);
      return send(
        VIDEO.category,
        VIDEO.whiteBalance,
        Type.SINT16,
        [finite(temperature) ? Number(temperature) : relative ? 0 : 5600, finite(tint) ? Number(tint) : 0],
        relative,
      );
    };
    parameters.order(`${base}/whiteBalance`, { type: 'S', meta: { label: `${name} white balance`, arguments: balance } }, (v) =>
      whiteBalance(v, false),
    );
    parameters.order(
      `${base}/whiteBalance/step`,
      {
        type: 'S',
        meta: {
          label: `${name} white balance step`,
          arguments: {
            temperature: { ...balance.temperature, minimum: -7500, maximum: 7500 },
            tint: { ...balance.tint, minimum: -100, maximum: 100 },
          },
        },
      },
      (v) => whiteBalance(v, true),
    );
    parameters.trigger(`${base}/autoWhiteBalance`, { label: `${name} auto white balance` }, () =>
      send(VIDEO.category, VIDEO.autoWhiteBalance, Type.BOOL, []),
    );
    const exposure = parameters.commanded(
      `${base}/exposure`,
      { type: 'I', meta: { label: `${name} exposure`, minimum: 1, maximum: 42000, unit: 'µs' } },
      (v) => send(VIDEO.category, VIDEO.exposure, Type.SINT32, [Number(v)]),
      within(1, 42000),
    );
    this.#reports.set(`${n}.${VIDEO.category}.${VIDEO.exposure}`, (r) => exposure.report(r.numberData[0] ?? 0));
    // To the next usual speed, faster (up) or slower (down), from the exposure the camera reported.
    parameters.order(
      `${base}/shutter/step`,
      {
        type: 'S',
        meta: {
          label: `${name} shutter step`,
          choices: [
            { value: 'up', label: 'Faster' },
            { value: 'down', label: 'Slower' },
          ],
        },
      },
      (v) => {
        const now = Number(exposure.value);
        if (exposure.value === undefined || exposure.value === null || !Number.isFinite(now))
          return Promise.reject(new HubError('PB_CONVERSION', `${base}/shutter/step: camera ${n} has not reported its exposure`));
        const next = v === 'up' ? SPEEDS.find((us) => us < now) : SPEEDS.findLast((us) => us > now);
        return send(VIDEO.category, VIDEO.exposure, Type.SINT32, [next ?? now]);
      },
      { refuse: (v) => (v === 'up' || v === 'down' ? undefined : `${String(v).slice(0, 20)} is not up or down`) },
    );
    number('shutter', 'shutter speed (1/x s)', VIDEO.category, VIDEO.exposure, Type.SINT32, 24, 2000, { map: (x) => 1e6 / x });
    parameters.order(
      `${base}/detail`,
      {
        type: 'S',
        meta: { label: `${name} detail`, choices: DETAIL.map((value) => ({ value, label: value[0]?.toUpperCase() + value.slice(1) })) },
      },
      (v) => send(VIDEO.category, VIDEO.detail, Type.SINT8, [DETAIL.indexOf(String(v))]),
      { refuse: (v) => (DETAIL.includes(String(v)) ? undefined : `${String(v).slice(0, 20)} is not one of ${DETAIL.join(', ')}`) },
    );
    number('nd', 'ND filter', VIDEO.category, VIDEO.nd, Type.FLOAT, 0, 15, { unit: 'stops' });

    reported(
      'colorBars',
      'colour bars',
      DISPLAY.category,
      DISPLAY.colorBars,
      (on) => send(DISPLAY.category, DISPLAY.colorBars, Type.SINT8, [on ? 30 : 0]),
      (r) => (r.numberData[0] ?? 0) > 0,
    );
    reported(
      'record',
      'recording',
      MEDIA.category,
      MEDIA.transport,
      (on) => this.#record(n, on),
      (r) => r.numberData[0] === 2,
    );

    for (const { name: id, label, parameter, rest, minimum, maximum } of BALANCES) {
      const args = Object.fromEntries(
        CHANNELS.map((c) => [
          c,
          { type: /** @type {const} */ ('F'), label: c[0]?.toUpperCase() + c.slice(1), minimum, maximum, optional: true },
        ]),
      );
      parameters.order(`${base}/${id}`, { type: 'S', meta: { label: `${name} ${label}`, arguments: args } }, (v) => {
        const f = fields(v);
        return send(
          COLOR.category,
          parameter,
          Type.FLOAT,
          CHANNELS.map((c) => (finite(f[c]) ? Number(f[c]) : rest)),
        );
      });
    }
    const unit = { type: /** @type {const} */ ('F'), minimum: 0, maximum: 1, optional: true };
    parameters.order(
      `${base}/contrast`,
      {
        type: 'S',
        meta: {
          label: `${name} contrast`,
          arguments: { pivot: { ...unit, label: 'Pivot' }, adjust: { ...unit, maximum: 2, label: 'Contrast' } },
        },
      },
      (v) => {
        const { pivot, adjust } = fields(v);
        return send(COLOR.category, COLOR.contrast, Type.FLOAT, [finite(pivot) ? Number(pivot) : 0.5, finite(adjust) ? Number(adjust) : 1]);
      },
    );
    number('lumaMix', 'luma mix', COLOR.category, COLOR.lumaMix, Type.FLOAT, 0, 1);
    parameters.order(
      `${base}/hueSaturation`,
      {
        type: 'S',
        meta: {
          label: `${name} hue and saturation`,
          arguments: { hue: { ...unit, minimum: -1, label: 'Hue' }, saturation: { ...unit, maximum: 2, label: 'Saturation' } },
        },
      },
      (v) => {
        const { hue, saturation } = fields(v);
        return send(COLOR.category, COLOR.hueSaturation, Type.FLOAT, [
          finite(hue) ? Number(hue) : 0,
          finite(saturation) ? Number(saturation) : 1,
        ]);
      },
    );
  }

  /** Recording (transport mode 2) or stopped (0), as the camera's media transport. @param {number} camera @param {boolean} on */
  #record(camera, on) {
    return this.send(camera, MEDIA.category, MEDIA.transport, Type.SINT8, [on ? 2 : 0, 0, 0, 0, 0]);
  }

  /** Several cameras recording or stopped at once: `{"on": true, "cameras": "1 2 3"}`. */
  #recordMany() {
    this.#write(
      'camera/record',
      'S',
      {
        label: 'Cameras recording',
        arguments: { on: { type: 'B', label: 'Recording' }, cameras: { type: 'S', label: 'Cameras, by input number' } },
      },
      (v) => {
        const { on, cameras } = fields(v);
        const list = String(cameras ?? '')
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(Number)
          .filter((n) => this.#made.has(n));
        return Promise.all(list.map((n) => this.#record(n, on === true)));
      },
    );
  }
}
