/**
 * `satellite`: a server of Bitfocus Companion Satellite's protocol (R-SU2), so that the
 * Stream Decks (and other surfaces) attached to a Companion Satellite — a Raspberry Pi
 * beside the desk, pointed at the hub's address and `port` — become the hub's surfaces.
 *
 * The hub greets each satellite with `BEGIN … ApiVersion=1.7.0` (the oldest a current
 * satellite accepts: keys by index, no layout manifest), answers `ADD-DEVICE` with
 * `ADD-DEVICE OK`, reads `KEY-PRESS`, and sends `KEY-STATE` (colour, text, text colour, and
 * a bitmap drawn by the hub for devices that asked for `BITMAPS`) and `BRIGHTNESS` whenever
 * their parameters change — the changes of one turn to a key in one message. Pings are
 * answered, and sent every second; a satellite silent for `timeout` ms is dropped.
 *
 * `keys` binds a key to a parameter without rules: its colour follows `show` (`on` while
 * true, `off` otherwise), and a press toggles it, holds it true while pressed, or fires it.
 *
 * What a satellite sends is bounded (R-G4): a line past `maxLineBytes` drops the satellite,
 * devices past `maxDevices` and keys past `maxKeys` are refused with `ADD-DEVICE ERROR`.
 *
 * Parameters, for each device a satellite adds (its `DEVICEID`, characters an id cannot
 * hold as `_`):
 *   <device>/connected            B   read-only    true while its satellite has it
 *   <device>/brightness           I   read-write   0–100
 *   <device>/key/<n>/pressed      B   read-only    while the device is there
 *   <device>/key/<n>/color        S   read-write   #rrggbb
 *   <device>/key/<n>/text         S   read-write
 *   <device>/key/<n>/text-color   S   read-write   #rrggbb
 */
import type { Socket } from 'node:net';
import { Type } from '@sinclair/typebox';
import {
  afterTurn,
  allowSetting,
  openListenerWarnings,
  checked,
  defineConnectionType,
  DeviceLink,
  droppedMetric,
  every,
  fail,
  FIRE,
  type Issue,
  ok,
  Overruns,
  type OwnedParameter,
  parameterIdOf,
  Peers,
  TcpListener,
  type Value,
  withDefault,
} from '../../sdk/index.ts';
import { SparseLog } from '../../core/sparse-log.ts';
import { keyImage } from './key-image.ts';
import { formatMessage, type Message, parseMessage } from './messages.ts';

/** The protocol version the hub speaks: keys by index, as `KEYS_TOTAL` counts them. */
const API_VERSION = '1.7.0';
const PING_EVERY_MS = 1000;
/** Lines read from one satellite before the hub turns to its other work. */
const LINES_A_TURN = 100;
const COLOR = /^#[0-9a-fA-F]{6}$/;

const color = (description: string) => Type.String({ pattern: COLOR.source, description });

const keyBinding = Type.Object(
  {
    device: Type.String({ minLength: 1, description: 'The device, its DEVICEID as the satellite sends it.' }),
    key: Type.Integer({ minimum: 0, description: 'The key, numbered from 0 along the rows.' }),
    show: withDefault(Type.String({ description: 'A parameter whose truth the key shows: `on` while true, `off` otherwise.' }), ''),
    on: withDefault(color('The colour while `show` is true.'), '#e00000'),
    off: withDefault(color('The colour while `show` is false or unknown.'), '#202020'),
    text: withDefault(Type.String({ description: 'The text on the key.' }), ''),
    textColor: withDefault(color('The colour of the text.'), '#ffffff'),
    press: withDefault(
      Type.Union([Type.Literal('none'), Type.Literal('toggle'), Type.Literal('momentary'), Type.Literal('fire')], {
        description: 'What a press does to `target`: toggle it, hold it true while pressed, or fire it.',
      }),
      'none',
    ),
    target: withDefault(Type.String({ description: 'The parameter a press writes; "" for `show`.' }), ''),
  },
  { additionalProperties: false },
);

const settings = Type.Object({
  port: withDefault(
    Type.Integer({ minimum: 0, maximum: 65_535, description: 'The TCP port satellites connect to; 0 takes any free one.' }),
    16_622,
  ),
  bindIp: withDefault(Type.String({ description: 'The address to listen on; "" listens on every address.' }), ''),
  allow: allowSetting,
  keys: withDefault(Type.Array(keyBinding, { description: 'Keys bound to parameters, without rules.' }), []),
  timeout: withDefault(
    Type.Integer({ minimum: 1000, maximum: 60_000, description: 'Milliseconds a satellite may stay silent before it is dropped.' }),
    5000,
  ),
  maxClients: withDefault(Type.Integer({ minimum: 1, maximum: 1024, description: 'Satellites connected at once at most.' }), 8),
  maxDevices: withDefault(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Devices of all satellites together at most; one more is refused.' }),
    32,
  ),
  maxKeys: withDefault(
    Type.Integer({ minimum: 1, maximum: 1024, description: 'Keys of one device at most; a larger one is refused.' }),
    128,
  ),
  maxLineBytes: withDefault(
    Type.Integer({
      minimum: 1024,
      maximum: 16 * 1024 * 1024,
      description: 'Bytes of one line from a satellite; a longer one drops the satellite.',
    }),
    65_536,
  ),
});

/** What a key shows, whether or not its device is there. */
interface KeyLook {
  color: string;
  text: string;
  textColor: string;
}

/** One satellite connected: its socket and the devices it added. */
interface Satellite {
  readonly socket: Socket;
  readonly peer: string;
  readonly devices: Set<Device>;
  heardAt: number;
}

/** A device a satellite added, and its parameters. */
interface Device {
  readonly deviceId: string;
  readonly id: string;
  keysTotal: number;
  perRow: number;
  bitmapSize: number;
  satellite: Satellite | undefined;
  readonly connected: OwnedParameter;
  readonly brightness: OwnedParameter;
  /** By key: its pressed parameter while the device is there. */
  readonly pressed: (OwnedParameter | undefined)[];
}

const OVERRUN_KINDS = ['devices', 'keys', 'lines'] as const;

export const satelliteType = defineConnectionType({
  type: 'satellite',
  summary: 'Stream Decks and other surfaces through Bitfocus Companion Satellite: keys with colour and text, presses as parameters.',
  settings,
  parse(written) {
    const issues: Issue[] = [];
    const bound = new Set<string>();
    written.keys.forEach((binding, index) => {
      const key = `${binding.device}\n${binding.key}`;
      if (bound.has(key)) issues.push({ path: ['keys', index, 'key'], message: `key ${binding.key} of ${binding.device} is bound twice` });
      bound.add(key);
      if (binding.press !== 'none' && binding.show === '' && binding.target === '')
        issues.push({ path: ['keys', index, 'press'], message: 'a press needs a parameter: `target`, or `show`' });
      for (const field of ['show', 'target'] as const)
        if (binding[field] !== '' && !binding[field].includes('/'))
          issues.push({ path: ['keys', index, field], message: 'expected a parameter address, <connection>/<parameter>' });
    });
    const peers = Peers.compile(written.allow);
    if (Array.isArray(peers)) issues.push(...peers);
    return checked(issues, { ...written, peers: Array.isArray(peers) ? Peers.anyone : peers });
  },
  warn: (settings) => openListenerWarnings(settings, 'press the keys, writing to their targets'),
  discovers: () => ({ parameters: true }),
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }]),
  metrics: [
    {
      name: 'patchbay_satellite_devices',
      help: 'Devices a satellite connection has from its satellites now.',
      kind: 'gauge',
      samples: (details) => [{ value: Number(details['devices'] ?? 0) }],
    },
    {
      name: 'patchbay_satellite_messages_total',
      help: 'What a satellite connection received and sent: key presses and releases, key states sent, satellites dropped for silence, messages not understood.',
      kind: 'counter',
      labelNames: ['kind'],
      samples: (details) =>
        (['pressed', 'sent', 'silent', 'unknown'] as const).map((kind) => ({ labels: { kind }, value: Number(details[kind] ?? 0) })),
    },
    droppedMetric('patchbay_satellite_dropped_total', 'What a satellite connection refused or dropped past its bounds, by kind (R-G4).'),
  ],
  create(context, { port, bindIp, peers, keys: bindings, timeout, maxClients, maxDevices, maxKeys, maxLineBytes }) {
    const overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    const satellites = new Set<Satellite>();
    const devices = new Map<string, Device>();
    /** What each key shows, by `<device id>/<key>`: kept while its device is away. */
    const looks = new Map<string, KeyLook>();
    const due = new Set<string>();
    const watching: { unsubscribe(): void }[] = [];
    const counts = { pressed: 0, sent: 0, silent: 0, unknown: 0 };

    const lookOf = (deviceId: string, key: number): KeyLook => {
      const name = `${deviceId}/${key}`;
      let look = looks.get(name);
      if (!look) looks.set(name, (look = { color: '#000000', text: '', textColor: '#ffffff' }));
      return look;
    };

    const send = (target: Satellite, line: string) => {
      // A satellite that stopped reading is dropped rather than queued for without end.
      if (target.socket.writableLength > 4 * 1024 * 1024) return void target.socket.destroy();
      target.socket.write(line);
    };

    const sendKey = (device: Device, key: number) => {
      if (!device.satellite) return;
      const look = lookOf(device.deviceId, key);
      const params: Record<string, string | number> = {
        DEVICEID: device.deviceId,
        KEY: key,
        TYPE: 'BUTTON',
        COLOR: look.color,
        TEXT: Buffer.from(look.text).toString('base64'),
        TEXTCOLOR: look.textColor,
      };
      if (device.bitmapSize > 0) params['BITMAP'] = keyImage(device.bitmapSize, look.color, look.text, look.textColor).toString('base64');
      send(device.satellite, formatMessage('KEY-STATE', params));
      counts.sent++;
    };

    /** Sends a key's state at the end of the turn, once for all of the turn's changes to it. */
    const sendSoon = (deviceId: string, key: number) => {
      const name = `${deviceId}/${key}`;
      if (due.has(name)) return;
      due.add(name);
      afterTurn(() => {
        due.delete(name);
        const device = devices.get(deviceId);
        if (device && key < device.keysTotal) sendKey(device, key);
      });
    };

    /** A key's look changed, by a write, a binding or a client: kept, shown in its parameter, sent. */
    const setLook = (deviceId: string, key: number, field: keyof KeyLook, value: string, by?: string) => {
      const look = lookOf(deviceId, key);
      if (look[field] === value) return;
      look[field] = value;
      const device = devices.get(deviceId);
      if (device && by !== undefined) ownLook(device, key, field)?.report(value, by);
      sendSoon(deviceId, key);
    };

    const lookParams = new Map<string, OwnedParameter>();
    const ownLook = (device: Device, key: number, field: keyof KeyLook) => lookParams.get(`${device.id}/key/${key}/${paramName(field)}`);

    const defineKey = (device: Device, key: number) => {
      const look = lookOf(device.deviceId, key);
      for (const field of ['color', 'text', 'textColor'] as const) {
        const id = `${device.id}/key/${key}/${paramName(field)}`;
        if (lookParams.has(id)) continue;
        const isColor = field !== 'text';
        lookParams.set(
          id,
          context.define(id, {
            type: 'S',
            access: 'read-write',
            initial: look[field],
            ...(isColor
              ? {
                  accept: (raw: unknown) =>
                    typeof raw === 'string' && COLOR.test(raw)
                      ? ok(raw.toLowerCase())
                      : fail('PB_CONVERSION', `a colour is #rrggbb, not ${String(raw)}`),
                }
              : {}),
            onWrite: (value) => setLook(device.deviceId, key, field, String(value)),
          }),
        );
      }
    };

    const defineDevice = (deviceId: string, id: string): Device => {
      const device: Device = {
        deviceId,
        id,
        keysTotal: 0,
        perRow: 1,
        bitmapSize: 0,
        satellite: undefined,
        connected: context.define(`${id}/connected`, { type: 'B', access: 'read-only', initial: false }),
        brightness: context.define(`${id}/brightness`, {
          type: 'I',
          access: 'read-write',
          initial: 100,
          accept: (raw: unknown) => {
            const value = Number(raw);
            return Number.isInteger(value) && value >= 0 && value <= 100
              ? ok(value)
              : fail('PB_CONVERSION', `brightness is 0–100, not ${String(raw)}`);
          },
          onWrite: (value) =>
            device.satellite && send(device.satellite, formatMessage('BRIGHTNESS', { DEVICEID: deviceId, VALUE: Number(value) })),
        }),
        pressed: [],
      };
      devices.set(deviceId, device);
      return device;
    };

    const refuse = (from: Satellite, deviceId: string, why: string) =>
      send(from, formatMessage('ADD-DEVICE ERROR', { DEVICEID: deviceId, MESSAGE: why }));

    const addDevice = (from: Satellite, params: Message['params']) => {
      const deviceId = params['DEVICEID'];
      if (typeof deviceId !== 'string' || deviceId === '') return refuse(from, '', 'DEVICEID is missing');
      const keysTotal = Number(params['KEYS_TOTAL'] ?? 0);
      const perRow = Number(params['KEYS_PER_ROW'] ?? keysTotal);
      if (!Number.isInteger(keysTotal) || keysTotal < 1) return refuse(from, deviceId, 'KEYS_TOTAL must be a whole number of keys');
      if (keysTotal > maxKeys) {
        overruns.dropped('keys', `a device of ${keysTotal} keys, more than maxKeys (${maxKeys})`);
        return refuse(from, deviceId, `more keys than this hub takes (${maxKeys})`);
      }
      let device = devices.get(deviceId);
      if (!device) {
        const id = parameterIdOf([deviceId]);
        if (id === undefined) return refuse(from, deviceId, 'a DEVICEID the hub cannot name a parameter after');
        if (devices.size >= maxDevices) {
          overruns.dropped('devices', `more than maxDevices (${maxDevices}) devices: the others refused`);
          return refuse(from, deviceId, `more devices than this hub takes (${maxDevices})`);
        }
        device = defineDevice(deviceId, id);
      }
      if (device.satellite && device.satellite !== from) detach(device);
      const bitmaps = Number(params['BITMAPS'] ?? 0);
      device.bitmapSize = Number.isInteger(bitmaps) && bitmaps > 0 && bitmaps <= 1024 ? bitmaps : 0;
      device.perRow = Number.isInteger(perRow) && perRow > 0 ? perRow : keysTotal;
      device.keysTotal = keysTotal;
      device.satellite = from;
      from.devices.add(device);
      for (let key = 0; key < keysTotal; key++) {
        defineKey(device, key);
        device.pressed[key] ??= context.define(`${device.id}/key/${key}/pressed`, { type: 'B', access: 'read-only', initial: false });
      }
      device.connected.report(true, from.peer);
      send(from, formatMessage('ADD-DEVICE OK', { DEVICEID: deviceId }));
      send(from, formatMessage('BRIGHTNESS', { DEVICEID: deviceId, VALUE: Number(device.brightness.value ?? 100) }));
      for (let key = 0; key < keysTotal; key++) sendKey(device, key);
    };

    /** The device went (removed, or its satellite gone): no more presses; what it shows is kept for its return. */
    const detach = (device: Device) => {
      device.satellite?.devices.delete(device);
      device.satellite = undefined;
      device.connected.report(false);
      device.pressed.forEach((_parameter, key) => context.remove(`${device.id}/key/${key}/pressed`));
      device.pressed.length = 0;
    };

    /** A key from `KEY`: its index, or `row/column` as newer satellites send it. */
    const keyOf = (device: Device, raw: string | true | undefined): number | undefined => {
      if (typeof raw !== 'string') return undefined;
      const [row, column] = raw.split('/').map(Number);
      const key = column === undefined ? row : (row as number) * device.perRow + column;
      return key !== undefined && Number.isInteger(key) && key >= 0 && key < device.keysTotal ? key : undefined;
    };

    const press = (from: Satellite, params: Message['params']) => {
      const device = devices.get(String(params['DEVICEID']));
      if (!device || device.satellite !== from) return void counts.unknown++;
      const key = keyOf(device, params['KEY']);
      if (key === undefined) return void counts.unknown++;
      const down = params['PRESSED'] === '1' || params['PRESSED'] === 'true' || params['PRESSED'] === true;
      counts.pressed++;
      const origin = `satellite ${from.peer} ${device.deviceId} key ${key}`;
      device.pressed[key]?.report(down, origin);
      for (const binding of bindings) {
        if (binding.device !== device.deviceId || binding.key !== key || binding.press === 'none') continue;
        const target = context.graph.get(binding.target || binding.show);
        if (!target) continue;
        if (binding.press === 'toggle' && down) target.set(target.value !== true, origin);
        else if (binding.press === 'momentary') target.set(down, origin);
        else if (binding.press === 'fire' && down) target.set(FIRE, origin);
      }
    };

    const receive = (from: Satellite, line: string) => {
      from.heardAt = context.scheduler.now();
      const message = parseMessage(line);
      switch (message.command) {
        case 'ADD-DEVICE':
          return addDevice(from, message.params);
        case 'REMOVE-DEVICE': {
          const device = devices.get(String(message.params['DEVICEID']));
          if (device?.satellite === from) detach(device);
          return send(from, formatMessage('REMOVE-DEVICE OK', { DEVICEID: String(message.params['DEVICEID'] ?? '') }));
        }
        case 'KEY-PRESS':
          return press(from, message.params);
        case 'PING':
          return send(from, `PONG ${line.slice(5)}\n`);
        case 'PONG':
        case '':
          return;
        case 'QUIT':
          return void from.socket.end();
        default:
          counts.unknown++;
      }
    };

    const refusals = new SparseLog(context.log, context.scheduler, 'refused');
    const listener = new TcpListener(
      {
        port,
        bindIp,
        maxClients,
        allow: peers,
        refusedPeer: (address) => refusals.warn(`a satellite from ${address} refused: \`allow\` does not let it in`),
      },
      (socket) => {
        const from: Satellite = {
          socket,
          peer: `${socket.remoteAddress}:${socket.remotePort}`,
          devices: new Set(),
          heardAt: context.scheduler.now(),
        };
        satellites.add(from);
        let buffered = '';
        /**
         * Reads the lines buffered, at most `LINES_A_TURN` before it lets the hub serve others:
         * a satellite that sends ten thousand lines at once is read over many turns, its
         * socket paused meanwhile, rather than holding every client up for all of them.
         */
        const readLines = () => {
          let end = buffered.indexOf('\n');
          for (let read = 0; end !== -1; read++) {
            if (read === LINES_A_TURN) {
              socket.pause();
              return void setImmediate(() => {
                readLines();
                if (!socket.destroyed) socket.resume();
              });
            }
            receive(from, buffered.slice(0, end).replace(/\r$/, ''));
            buffered = buffered.slice(end + 1);
            end = buffered.indexOf('\n');
          }
          if (buffered.length > maxLineBytes) {
            overruns.dropped('lines', `a line of more than maxLineBytes (${maxLineBytes}) from ${from.peer}: the satellite was dropped`);
            buffered = '';
            socket.destroy();
          }
        };
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          buffered += chunk;
          readLines();
        });
        socket.on('close', () => {
          satellites.delete(from);
          for (const device of [...from.devices]) detach(device);
        });
        send(from, `BEGIN CompanionVersion=patchbay ApiVersion=${API_VERSION}\n`);
      },
    );

    const link = new DeviceLink(listener, { scheduler: context.scheduler, status: overruns.status, fence: context.fence });

    return {
      async start() {
        for (const binding of bindings) {
          const look = lookOf(binding.device, binding.key);
          look.text = binding.text;
          look.textColor = binding.textColor;
          look.color = binding.off;
          if (binding.show !== '')
            watching.push(
              context.graph
                .watch(binding.show)
                .subscribe((value: Value | undefined) =>
                  setLook(binding.device, binding.key, 'color', value === true ? binding.on : binding.off, `keys ${binding.show}`),
                ),
            );
        }
        // A misspelt address runs (the key waits for the parameter), but says so once the hub runs.
        context.whenRunning(() =>
          bindings.forEach((binding, index) => {
            for (const field of ['show', 'target'] as const)
              if (binding[field] !== '' && !context.graph.get(binding[field]))
                context.log.warn(`keys[${index}].${field}: there is no parameter ${binding[field]} (yet); the key waits for it`);
          }),
        );
        await link.start();
        context.log.info(`listening for Companion Satellite on ${bindIp || '*'}:${listener.port}; lets in ${peers.describe()}`);
        watching.push(
          every(context.scheduler, PING_EVERY_MS, () => {
            const now = context.scheduler.now();
            for (const each of satellites) {
              if (now - each.heardAt > timeout) {
                counts.silent++;
                each.socket.destroy();
              } else send(each, 'PING patchbay\n');
            }
          }),
        );
      },
      details: () => ({
        port: listener.port,
        satellites: satellites.size,
        // What the console draws: each device as a grid of its keys, and what a bound key's press writes.
        surfaces: [...devices.values()].map((device) => ({
          device: device.deviceId,
          id: device.id,
          keys: device.keysTotal,
          perRow: device.perRow,
          bindings: Object.fromEntries(
            bindings
              .filter((binding) => binding.device === device.deviceId && binding.press !== 'none' && binding.key < device.keysTotal)
              .map((binding) => [binding.key, { press: binding.press, target: binding.target || binding.show }]),
          ),
        })),
        devices: [...devices.values()].filter((device) => device.satellite).length,
        refusedClients: listener.refused,
        refusedPeers: listener.refusedPeers,
        ...counts,
        dropped: { ...overruns.counts },
      }),
      async stop() {
        for (const each of watching.splice(0)) each.unsubscribe();
        overruns.stop();
        await link.stop();
      },
    };
  },
});

function paramName(field: keyof KeyLook): string {
  return field === 'textColor' ? 'text-color' : field;
}
