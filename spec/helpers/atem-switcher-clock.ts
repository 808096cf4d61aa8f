/**
 * The switcher simulator's display clock (the clock a switcher can key over program): shown or
 * not, its size, opacity, place, auto-hide and mode, the time it starts from, and started,
 * stopped or reset. Each encoder and decoder is checked against atem-connection's own in
 * atem-switcher-breadth.spec.ts.
 */
import type { Area, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

/** `mode` as the library's DisplayClockClockMode (0 count down, 1 up, 2 time of day); `state` its DisplayClockClockState (0 stopped, 1 running, 2 reset). */
export type Clock = {
  enabled: boolean;
  size: number;
  opacity: number;
  x: number;
  y: number;
  autoHide: boolean;
  start: [number, number, number, number];
  mode: number;
  state: number;
};

export const encode = {
  DCPV: (c: Clock) =>
    frame('DCPV', 20, (b) => {
      b.set([0, c.enabled ? 1 : 0, 0, c.size, 0, c.opacity]);
      b.writeInt16BE(c.x, 6);
      b.writeInt16BE(c.y, 8);
      b.set([c.autoHide ? 1 : 0, ...c.start, c.mode, c.state], 10);
    }),
};

export const decode: Record<string, Decoder> = {
  DCPC: (b) => ({
    flag: b.readUInt16BE(0),
    enabled: b[3] === 1,
    size: b[5]!,
    opacity: b[7]!,
    x: b.readInt16BE(8),
    y: b.readInt16BE(10),
    autoHide: b[12] === 1,
    start: [b[13], b[14], b[15], b[16]].join(':'),
    mode: b[24]!,
  }),
  DCSC: (b) => ({ state: b[1]! }),
};

export class DisplayClock implements Area {
  readonly now: Clock = { enabled: false, size: 50, opacity: 100, x: 0, y: 0, autoHide: false, start: [0, 5, 0, 0], mode: 0, state: 0 };

  dump(): Buffer[] {
    return [encode.DCPV(this.now)];
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    const c = this.now;
    const n = (field: string) => Number(f[field] ?? -1);
    if (name === 'DCSC') {
      if (n('state') > 2) return [];
      c.state = n('state');
      return [encode.DCPV(c)];
    }
    if (name !== 'DCPC') return undefined;
    const flag = n('flag');
    if (flag & 1) c.enabled = f['enabled'] === true;
    if (flag & 2) c.size = n('size');
    if (flag & 4) c.opacity = n('opacity');
    if (flag & 8) c.x = n('x');
    if (flag & 16) c.y = n('y');
    if (flag & 32) c.autoHide = f['autoHide'] === true;
    if (flag & 64) c.start = String(f['start']).split(':').map(Number) as Clock['start'];
    if (flag & 256 && n('mode') <= 2) c.mode = n('mode');
    return [encode.DCPV(c)];
  }
}
