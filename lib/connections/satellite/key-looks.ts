/**
 * What each key shows — colour, text, text colour — kept while its device is away, as
 * read-write parameters while it is there, and sent to its satellite as `KEY-STATE` (with a
 * bitmap for a device that asked for them, drawn off the event loop), once a turn however
 * often it changed. A device forgotten (to make room for another) takes its looks with it,
 * but for keys bound in the flow.
 */
import { afterTurn, type ConnectionContext, fail, ok, type OwnedParameter } from '../../sdk/index.ts';
import { type Device, type Satellite, send } from './devices.ts';
import { KeyDrawing, type Look } from './key-drawing.ts';
import { formatMessage } from './messages.ts';
import { COLOR } from './settings.ts';

/** What a key shows, whether or not its device is there. */
export interface KeyLook {
  color: string;
  text: string;
  textColor: string;
}

export class KeyLooks {
  /** What each key shows, by `<device id>/<key>`: kept while its device is away. */
  private readonly looks = new Map<string, KeyLook>();
  private readonly due = new Set<string>();
  private readonly params = new Map<string, OwnedParameter>();
  /** Looks the flow's `keys` set: kept when their device is forgotten. */
  private readonly pinned = new Set<string>();
  /** By device id: how many keys have look parameters. */
  private readonly defined = new Map<string, number>();
  private readonly drawing = new KeyDrawing(
    (device, key) => this.of(device.deviceId, key),
    (device, key, look, bitmap) => this.deliver(device, key, look, bitmap),
  );

  constructor(
    private readonly context: ConnectionContext,
    /** The device a satellite added by its DEVICEID, if one has. */
    private readonly deviceOf: (deviceId: string) => Device | undefined,
    private readonly counts: { sent: number },
  ) {}

  of(deviceId: string, key: number): KeyLook {
    const name = `${deviceId}\n${key}`;
    let look = this.looks.get(name);
    if (!look) this.looks.set(name, (look = { color: '#000000', text: '', textColor: '#ffffff' }));
    return look;
  }

  /** What the flow's `keys` show on the keys of `deviceId` below `keysTotal`, by key: a deck not connected yet, as the console draws it. */
  pinnedOf(deviceId: string, keysTotal: number): Record<number, KeyLook> {
    const shown: Record<number, KeyLook> = {};
    for (let key = 0; key < keysTotal; key++) if (this.pinned.has(`${deviceId}\n${key}`)) shown[key] = { ...this.of(deviceId, key) };
    return shown;
  }

  /** The look of a key bound in the flow: kept whatever becomes of its device. */
  pin(deviceId: string, key: number): KeyLook {
    this.pinned.add(`${deviceId}\n${key}`);
    return this.of(deviceId, key);
  }

  /** A key the flow no longer binds: its look is let go, and shows blank. */
  unpin(deviceId: string, key: number): void {
    this.pinned.delete(`${deviceId}\n${key}`);
    this.set(deviceId, key, 'color', '#000000', 'keys');
    this.set(deviceId, key, 'text', '', 'keys');
    this.set(deviceId, key, 'textColor', '#ffffff', 'keys');
  }

  /** Starts drawing's thread, so that the first device's keys do not wait for it. */
  warm(): void {
    this.drawing.warm();
  }

  send(device: Device, key: number): void {
    if (!device.satellite) return;
    if (device.bitmapSize > 0) return this.drawing.draw(device, key);
    this.deliver(device, key, this.of(device.deviceId, key), undefined);
  }

  /** Its satellite went: nothing more is drawn for it. */
  forgetSatellite(satellite: Satellite): void {
    this.drawing.forget(satellite);
  }

  /** The device is forgotten: its look parameters go, and its looks but those the flow binds. */
  forget(device: Device): void {
    const keys = this.defined.get(device.deviceId) ?? 0;
    for (let key = 0; key < keys; key++) {
      for (const field of ['color', 'text', 'textColor'] as const) {
        const id = paramId(device, key, field);
        if (this.params.delete(id)) this.context.remove(id);
      }
      const name = `${device.deviceId}\n${key}`;
      if (!this.pinned.has(name)) this.looks.delete(name);
    }
    this.defined.delete(device.deviceId);
  }

  private deliver(device: Device, key: number, look: Look, bitmap: string | undefined): void {
    if (!device.satellite) return;
    const params: Record<string, string | number> = {
      DEVICEID: device.deviceId,
      KEY: key,
      TYPE: 'BUTTON',
      COLOR: look.color,
      TEXT: Buffer.from(look.text).toString('base64'),
      TEXTCOLOR: look.textColor,
    };
    if (bitmap !== undefined) params['BITMAP'] = bitmap;
    send(device.satellite, formatMessage('KEY-STATE', params));
    this.counts.sent++;
  }

  /** A key's look changed, by a write, a binding or a client: kept, shown in its parameter, sent. */
  set(deviceId: string, key: number, field: keyof KeyLook, value: string, by?: string): void {
    const look = this.of(deviceId, key);
    if (look[field] === value) return;
    look[field] = value;
    const device = this.deviceOf(deviceId);
    if (device && by !== undefined) this.params.get(paramId(device, key, field))?.report(value, by);
    this.sendSoon(deviceId, key);
  }

  /** Makes the key's look parameters, once: they stay while the device is away. */
  define(device: Device, key: number): void {
    const look = this.of(device.deviceId, key);
    this.defined.set(device.deviceId, Math.max(this.defined.get(device.deviceId) ?? 0, key + 1));
    for (const field of ['color', 'text', 'textColor'] as const) {
      const id = paramId(device, key, field);
      if (this.params.has(id)) continue;
      const isColor = field !== 'text';
      this.params.set(
        id,
        this.context.define(id, {
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
          onWrite: (value) => this.set(device.deviceId, key, field, String(value)),
        }),
      );
    }
  }

  /** Sends a key's state at the end of the turn, once for all of the turn's changes to it. */
  private sendSoon(deviceId: string, key: number): void {
    const name = `${deviceId}\n${key}`;
    if (this.due.has(name)) return;
    this.due.add(name);
    afterTurn(() => {
      this.due.delete(name);
      const device = this.deviceOf(deviceId);
      if (device && key < device.keysTotal) this.send(device, key);
    });
  }
}

function paramId(device: Device, key: number, field: keyof KeyLook): string {
  return `${device.id}/key/${key}/${field === 'textColor' ? 'text-color' : field}`;
}
