/**
 * The devices satellites add (`ADD-DEVICE`), within `maxDevices` and `maxKeys`: each with its
 * parameters, kept when its satellite lets it go so that it comes back as it was.
 */
import type { Socket } from 'node:net';
import { type ConnectionContext, fail, ok, type OwnedParameter, parameterIdOf } from '../../sdk/index.ts';
import { formatMessage, type Message } from './messages.ts';
import type { SatelliteOverruns } from './settings.ts';

/** One satellite connected: its socket and the devices it added. */
export interface Satellite {
  readonly socket: Socket;
  readonly peer: string;
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
  readonly connected: OwnedParameter;
  readonly brightness: OwnedParameter;
  /** By key: its pressed parameter while the device is there. */
  readonly pressed: (OwnedParameter | undefined)[];
}

/** What shows on a device's keys: each key made ready as the device is added, then sent. */
export interface KeyFaces {
  define(device: Device, key: number): void;
  send(device: Device, key: number): void;
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

  constructor(
    private readonly context: ConnectionContext,
    private readonly keys: KeyFaces,
    private readonly overruns: SatelliteOverruns,
    private readonly bounds: { readonly maxDevices: number; readonly maxKeys: number },
  ) {}

  get(deviceId: string): Device | undefined {
    return this.byId.get(deviceId);
  }

  /** Every device a satellite has added, there now or not. */
  all(): Device[] {
    return [...this.byId.values()];
  }

  add(from: Satellite, params: Message['params']): void {
    const { maxDevices, maxKeys } = this.bounds;
    const deviceId = params['DEVICEID'];
    if (typeof deviceId !== 'string' || deviceId === '') return refuse(from, '', 'DEVICEID is missing');
    const keysTotal = Number(params['KEYS_TOTAL'] ?? 0);
    const perRow = Number(params['KEYS_PER_ROW'] ?? keysTotal);
    if (!Number.isInteger(keysTotal) || keysTotal < 1) return refuse(from, deviceId, 'KEYS_TOTAL must be a whole number of keys');
    if (keysTotal > maxKeys) {
      this.overruns.dropped('keys', `a device of ${keysTotal} keys, more than maxKeys (${maxKeys})`);
      return refuse(from, deviceId, `more keys than this hub takes (${maxKeys})`);
    }
    let device = this.byId.get(deviceId);
    if (!device) {
      const id = parameterIdOf([deviceId]);
      if (id === undefined) return refuse(from, deviceId, 'a DEVICEID the hub cannot name a parameter after');
      if (this.byId.size >= maxDevices) {
        this.overruns.dropped('devices', `more than maxDevices (${maxDevices}) devices: the others refused`);
        return refuse(from, deviceId, `more devices than this hub takes (${maxDevices})`);
      }
      device = this.define(deviceId, id);
    }
    if (device.satellite && device.satellite !== from) this.detach(device);
    const bitmaps = Number(params['BITMAPS'] ?? 0);
    device.bitmapSize = Number.isInteger(bitmaps) && bitmaps > 0 && bitmaps <= 1024 ? bitmaps : 0;
    device.perRow = Number.isInteger(perRow) && perRow > 0 ? perRow : keysTotal;
    device.keysTotal = keysTotal;
    device.satellite = from;
    from.devices.add(device);
    for (let key = 0; key < keysTotal; key++) {
      this.keys.define(device, key);
      device.pressed[key] ??= this.context.define(`${device.id}/key/${key}/pressed`, { type: 'B', access: 'read-only', initial: false });
    }
    device.connected.report(true, from.peer);
    send(from, formatMessage('ADD-DEVICE OK', { DEVICEID: deviceId }));
    send(from, formatMessage('BRIGHTNESS', { DEVICEID: deviceId, VALUE: Number(device.brightness.value ?? 100) }));
    for (let key = 0; key < keysTotal; key++) this.keys.send(device, key);
  }

  /** The device went (removed, or its satellite gone): no more presses; what it shows is kept for its return. */
  detach(device: Device): void {
    device.satellite?.devices.delete(device);
    device.satellite = undefined;
    device.connected.report(false);
    device.pressed.forEach((_parameter, key) => this.context.remove(`${device.id}/key/${key}/pressed`));
    device.pressed.length = 0;
  }

  private define(deviceId: string, id: string): Device {
    const device: Device = {
      deviceId,
      id,
      keysTotal: 0,
      perRow: 1,
      bitmapSize: 0,
      satellite: undefined,
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
