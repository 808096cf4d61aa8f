/**
 * Key bitmaps drawn off the event loop (R-G4). A 512-pixel key takes a millisecond or more to
 * draw and a megabyte to send, and a satellite may ask for a hundred keys at once, again and
 * again: so no bitmap is drawn on the event loop. One worker thread of the process draws them
 * for every satellite, a key at a time, satellites taking turns (`BoundedWorker`). Each
 * satellite's keys wait as a set, each key once however often it changed, drawn with its look
 * as it is when its turn comes; and a satellite whose socket has more to send than it took
 * (it does not read) has no turn until the socket drains, so a peer that never reads costs the
 * hub one key's drawing, not a hundred.
 */
import { BoundedWorker, siblingModule, type WorkerTurns } from '../../sdk/index.ts';
import type { Device, Satellite } from './devices.ts';
import type { KeyImageJob } from './key-image.ts';

/** A key's bitmap, or why the thread could not draw it. */
export type Drawn = { readonly bitmap: string } | { readonly failed: string };

/** What a key shows: what it is drawn from, less its size. */
export type Look = Omit<KeyImageJob, 'size'>;

/** A key drawn, for `satellite`: sent with its look (and no bitmap if it could not be drawn). */
export type Deliver = (device: Device, key: number, look: Look, bitmap: string | undefined) => void;

/** The drawing thread's heap: a 512-pixel key is drawn in a fraction of it. */
const drawing = new BoundedWorker<KeyImageJob, Drawn>({
  entry: siblingModule(import.meta.url, 'key-image-worker'),
  heapMb: 64,
  failed: (why) => ({ failed: why }),
});

/** One satellite's keys waiting to be drawn. */
class WaitingKeys implements WorkerTurns<KeyImageJob, Drawn> {
  /** By `<device id>\n<key>` (a line holds no newline), in the order they became due. */
  private readonly due = new Map<string, { readonly device: Device; readonly key: number }>();
  private drawn: { readonly device: Device; readonly key: number; readonly look: Look } | undefined;
  private draining = false;

  constructor(
    private readonly satellite: Satellite,
    private readonly lookOf: (device: Device, key: number) => Look,
    private readonly deliver: Deliver,
  ) {}

  add(device: Device, key: number): void {
    this.due.set(`${device.deviceId}\n${key}`, { device, key });
    drawing.wants(this);
  }

  take(): KeyImageJob | undefined {
    if (this.full()) return undefined;
    for (const [name, { device, key }] of this.due) {
      this.due.delete(name);
      if (device.satellite !== this.satellite || key >= device.keysTotal || device.bitmapSize === 0) continue;
      const { color, text, textColor } = this.lookOf(device, key);
      this.drawn = { device, key, look: { color, text, textColor } };
      return { size: device.bitmapSize, color, text, textColor };
    }
    return undefined;
  }

  get hasWaiting(): boolean {
    return this.due.size > 0 && !this.full();
  }

  done(result: Drawn): void {
    const drawn = this.drawn;
    this.drawn = undefined;
    // The device may have gone, or come back with fewer keys, while its key was drawn.
    if (drawn?.device.satellite === this.satellite && drawn.key < drawn.device.keysTotal)
      this.deliver(drawn.device, drawn.key, drawn.look, 'bitmap' in result ? result.bitmap : undefined);
  }

  close(): void {
    this.due.clear();
    drawing.forget(this);
  }

  /** Its socket has more waiting than it takes: no turn until it drains. */
  private full(): boolean {
    const { socket } = this.satellite;
    if (socket.destroyed) return true;
    if (!socket.writableNeedDrain) return false;
    if (!this.draining) {
      this.draining = true;
      socket.once('drain', () => {
        this.draining = false;
        if (this.due.size > 0) drawing.wants(this);
      });
    }
    return true;
  }
}

/** The keys of every satellite waiting to be drawn. */
export class KeyDrawing {
  private readonly waiting = new Map<Satellite, WaitingKeys>();

  constructor(
    private readonly lookOf: (device: Device, key: number) => Look,
    private readonly deliver: Deliver,
  ) {}

  /** Starts the thread ahead of the first key: loading it takes a good part of a second. */
  warm(): void {
    drawing.warm();
  }

  /** Draws the key of `device` (which wants bitmaps) for its satellite, when their turn comes. */
  draw(device: Device, key: number): void {
    const { satellite } = device;
    if (satellite === undefined) return;
    let keys = this.waiting.get(satellite);
    if (keys === undefined) this.waiting.set(satellite, (keys = new WaitingKeys(satellite, this.lookOf, this.deliver)));
    keys.add(device, key);
  }

  /** The satellite went: nothing more is drawn for it. */
  forget(satellite: Satellite): void {
    this.waiting.get(satellite)?.close();
    this.waiting.delete(satellite);
  }
}
