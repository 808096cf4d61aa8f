/**
 * The devices satellites add (`ADD-DEVICE`), within `maxDevices`, `maxDevicesPerClient`,
 * `maxKeys` and bitmaps of at most `MAX_BITMAP_PX`: each with its parameters, kept when its
 * satellite lets it go so that it comes back as it was — until the table is full and another
 * device needs the room, which the device gone longest gives up. A device id is one
 * satellite's while that satellite is there and answers: another asking for it is refused
 * (the desk is not taken over, not even from the same address). Once the holder has been
 * quiet for `QUIET_MS` (it answered no ping: its link is lost without a close), a satellite
 * from the same address is that one back on a new link, and has it. Keys a satellite held
 * down are let go when it goes.
 */
import type { Socket } from 'node:net';
import { type Answered, type ConnectionContext, fail, ok, type OwnedParameter, parameterIdOf } from '../../sdk/index.ts';
import { formatMessage, type Message } from './messages.ts';
import type { SatelliteOverruns } from './settings.ts';

/**
 * How long a satellite has answered nothing before a new link from its address may take its
 * devices: the hub pings every second, so a live one is heard at least that often.
 */
export const QUIET_MS = 2500;

/** One satellite connected: its socket and the devices it added. */
export interface Satellite {
  readonly socket: Socket;
  /** Its address and port, as shown; and its address alone, which says which machine it is. */
  readonly peer: string;
  readonly address: string;
  readonly devices: Set<Device>;
  heardAt: number;
}

/** A device a satellite added, and its parameters. */
export interface Device {
  readonly deviceId: string;
  readonly id: string;
  keysTotal: number;
  perRow: number;
  bitmapSize: number;
  satellite: Satellite | undefined;
  /** When its satellite let it go, in the order devices went: the longest gone is forgotten first. */
  wentAt: number;
  readonly connected: OwnedParameter;
  readonly brightness: OwnedParameter;
  /** By key: its pressed parameter while the device is there. */
  readonly pressed: (OwnedParameter | undefined)[];
}

/** What shows on a device's keys: each key made ready as the device is added, then sent. */
export interface KeyFaces {
  define(device: Device, key: number): void;
  send(device: Device, key: number): void;
  /** The satellite went: nothing more is sent to it. */
  forgetSatellite(satellite: Satellite): void;
  /** The device is forgotten: its keys' parameters go. */
  forget(device: Device): void;
}

/**
 * The largest key bitmap the hub draws, pixels a side. Stream Decks' keys are 72–288 pixels;
 * a bitmap is size² × 3 bytes, in base64 a third more, for every key: 512 is a megabyte a key.
 */
export const MAX_BITMAP_PX = 512;

export interface DeviceBounds {
  readonly maxDevices: number;
  readonly maxDevicesPerClient: number;
  readonly maxKeys: number;
}

export const send = (target: Satellite, line: string) => {
  // A satellite that stopped reading is dropped rather than queued for without end.
  if (target.socket.writableLength > 4 * 1024 * 1024) return void target.socket.destroy();
  target.socket.write(line);
};

const refuse = (from: Satellite, deviceId: string, why: string) =>
  send(from, formatMessage('ADD-DEVICE ERROR', { DEVICEID: deviceId, MESSAGE: why }));

/** A key from `KEY`: its index, or `row/column` as newer satellites send it. */
export function keyOf(device: Device, raw: string | true | undefined): number | undefined {
  if (typeof raw !== 'string') return undefined;
  const [row, column] = raw.split('/').map(Number);
  const key = column === undefined ? row : (row as number) * device.perRow + column;
  return key !== undefined && Number.isInteger(key) && key >= 0 && key < device.keysTotal ? key : undefined;
}

export class Devices {
  private readonly byId = new Map<string, Device>();
  /** Devices let go so far: the order they went in. */
  private went = 0;

  constructor(
    private readonly context: ConnectionContext,
    private readonly keys: KeyFaces,
    private readonly overruns: SatelliteOverruns,
    private readonly bounds: DeviceBounds,
    /** A key of a device went down or up: what the flow's `keys` make of it. */
    private readonly pressed: (device: Device, key: number, down: boolean, origin: string, answered?: Answered) => void,
  ) {}

  get(deviceId: string): Device | undefined {
    return this.byId.get(deviceId);
  }

  /** Every device a satellite has added, there now or not. */
  all(): Device[] {
    return [...this.byId.values()];
  }

  add(from: Satellite, params: Message['params']): void {
    const { maxDevices, maxDevicesPerClient, maxKeys } = this.bounds;
    const deviceId = params['DEVICEID'];
    if (typeof deviceId !== 'string' || deviceId === '') return refuse(from, '', 'DEVICEID is missing');
    const keysTotal = Number(params['KEYS_TOTAL'] ?? 0);
    const perRow = Number(params['KEYS_PER_ROW'] ?? keysTotal);
    if (!Number.isInteger(keysTotal) || keysTotal < 1) return refuse(from, deviceId, 'KEYS_TOTAL must be a whole number of keys');
    if (keysTotal > maxKeys) {
      this.overruns.dropped('keys', `a device of ${keysTotal} keys, more than maxKeys (${maxKeys})`);
      return refuse(from, deviceId, `more keys than this hub takes (${maxKeys})`);
    }
    const bitmaps = Number(params['BITMAPS'] ?? 0);
    if (Number.isInteger(bitmaps) && bitmaps > MAX_BITMAP_PX) {
      this.overruns.dropped('bitmaps', `bitmaps of ${bitmaps} pixels asked for by ${from.peer}: at most ${MAX_BITMAP_PX}`);
      return refuse(from, deviceId, `BITMAPS of at most ${MAX_BITMAP_PX} pixels: this hub draws no larger keys`);
    }
    let device = this.byId.get(deviceId);
    const holder = device?.satellite;
    if (device && holder && holder !== from) {
      // The same machine on a new link, the old one quiet: its satellite found that link dead and
      // came back before the hub noticed (a link lost without a close takes `timeout` to notice).
      const back = holder.address === from.address && this.context.scheduler.now() - holder.heardAt > QUIET_MS;
      if (!back) {
        // Counted, not a fault of the connection: the desk that has the device works on.
        this.overruns.dropped('taken', `${from.peer} asked for ${deviceId}, which ${holder.peer} has: refused`, 1, true);
        return refuse(from, deviceId, 'another satellite has this DEVICEID: refused until that satellite goes');
      }
      this.detach(device);
    }
    if (device?.satellite !== from && from.devices.size >= maxDevicesPerClient) {
      this.overruns.dropped(
        'devices',
        `more than maxDevicesPerClient (${maxDevicesPerClient}) devices from ${from.peer}: the others refused`,
      );
      return refuse(from, deviceId, `more devices from one satellite than this hub takes (${maxDevicesPerClient})`);
    }
    if (!device) {
      const id = parameterIdOf([deviceId]);
      if (id === undefined) return refuse(from, deviceId, 'a DEVICEID the hub cannot name a parameter after');
      if (this.byId.size >= maxDevices && !this.forgetLongestGone()) {
        this.overruns.dropped('devices', `more than maxDevices (${maxDevices}) devices: the others refused`);
        return refuse(from, deviceId, `more devices than this hub takes (${maxDevices})`);
      }
      device = this.define(deviceId, id);
    }
    device.bitmapSize = Number.isInteger(bitmaps) && bitmaps > 0 ? bitmaps : 0;
    device.perRow = Number.isInteger(perRow) && perRow > 0 ? perRow : keysTotal;
    device.keysTotal = keysTotal;
    device.satellite = from;
    from.devices.add(device);
    for (let key = 0; key < keysTotal; key++) {
      this.keys.define(device, key);
      // A write of it is a press (the console's): the same path as the desk's, answered with what the press wrote.
      device.pressed[key] ??= this.context.define(`${device.id}/key/${key}/pressed`, {
        type: 'B',
        access: 'read-write',
        initial: false,
        ownedHere: true,
        forward: (value, origin, answered) => {
          this.press(device, key, value === true, origin ?? 'a client', answered);
          return ok(true);
        },
      });
    }
    device.connected.report(true, from.peer);
    send(from, formatMessage('ADD-DEVICE OK', { DEVICEID: deviceId }));
    send(from, formatMessage('BRIGHTNESS', { DEVICEID: deviceId, VALUE: Number(device.brightness.value ?? 100) }));
    for (let key = 0; key < keysTotal; key++) this.keys.send(device, key);
  }

  /** A key of `device` went down or up, as its satellite says or a write of its `pressed`. */
  press(device: Device, key: number, down: boolean, origin: string, answered?: Answered): void {
    device.pressed[key]?.report(down, origin);
    this.pressed(device, key, down, origin, answered);
  }

  /**
   * The device went (removed, or its satellite gone): the keys it held down are let go first
   * — a momentary key whose link dropped must not stay pressed — then no more presses; what it
   * shows is kept for its return.
   */
  detach(device: Device): void {
    const from = device.satellite;
    device.pressed.forEach((parameter, key) => {
      if (parameter?.value === true)
        this.press(device, key, false, `satellite ${from?.peer ?? ''} ${device.deviceId} gone: key ${key} let go`);
    });
    from?.devices.delete(device);
    device.satellite = undefined;
    device.wentAt = ++this.went;
    device.connected.report(false);
    device.pressed.forEach((_parameter, key) => this.context.remove(`${device.id}/key/${key}/pressed`));
    device.pressed.length = 0;
  }

  /** The satellite went (closed, or silent past `timeout`): its devices are let go. */
  gone(satellite: Satellite): void {
    this.keys.forgetSatellite(satellite);
    for (const device of [...satellite.devices]) this.detach(device);
  }

  /** Makes room: the device gone longest is forgotten with its parameters. False when every device is there. */
  private forgetLongestGone(): boolean {
    let longest: Device | undefined;
    for (const device of this.byId.values()) if (!device.satellite && (!longest || device.wentAt < longest.wentAt)) longest = device;
    if (!longest) return false;
    this.byId.delete(longest.deviceId);
    this.keys.forget(longest);
    this.context.remove(`${longest.id}/connected`);
    this.context.remove(`${longest.id}/brightness`);
    return true;
  }

  private define(deviceId: string, id: string): Device {
    const device: Device = {
      deviceId,
      id,
      keysTotal: 0,
      perRow: 1,
      bitmapSize: 0,
      satellite: undefined,
      wentAt: 0,
      connected: this.context.define(`${id}/connected`, { type: 'B', access: 'read-only', initial: false }),
      brightness: this.context.define(`${id}/brightness`, {
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
    this.byId.set(deviceId, device);
    return device;
  }
}
