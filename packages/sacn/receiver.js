// @ts-check
/**
 * `mode: "receive"`: the universes' channels as the sources send them, read-only — the levels
 * of the source of highest priority, sources of equal priority merged highest-takes-precedence.
 * A source not heard for 2.5 s is gone (E1.31's network data loss); without sources a universe
 * keeps its last levels and `active` is false.
 */
import { every } from 'patchbay-hub/connection';
import { decode, outOfOrder, PREVIEW, TERMINATED } from './e131.js';

/** E1.31's network data loss: a source not heard for this long is gone. */
const SOURCE_LOST_MS = 2500;

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {{ name: string, priority: number, sequence: number, slots: Buffer, heard: number }} Source */
/** @typedef {{ received: number, malformed: number, outOfOrder: number, ignored: number, dropped: number }} ReceivedCounts */
/** @typedef {{ channels: OwnedParameter[], levels: Uint8Array, active: OwnedParameter, source: OwnedParameter, priority: OwnedParameter }} Shown */

export class Receiver {
  #context;
  #options;
  #counts;
  /** The sources of each universe, by component id. @type {Map<number, Map<string, Source>>} */
  #sources;
  /** What each universe shows, once started. @type {Map<number, Shown>} */
  #shown = new Map();
  /** @type {{ unsubscribe(): void } | undefined} */
  #forgetting;

  /**
   * @param {import('patchbay-hub/connection').ConnectionContext} context
   * @param {{ universes: number[], channels: number, maxSources: number }} options
   * @param {ReceivedCounts} counts
   */
  constructor(context, options, counts) {
    this.#context = context;
    this.#options = options;
    this.#counts = counts;
    this.#sources = new Map(options.universes.map((u) => [u, new Map()]));
  }

  start() {
    const define = (/** @type {string} */ id, /** @type {'I' | 'B' | 'S'} */ type, /** @type {number | boolean | string} */ initial) =>
      this.#context.define(id, { type, access: 'read-only', initial });
    for (const universe of this.#options.universes) {
      const channels = Array.from({ length: this.#options.channels }, (_, index) => define(`${universe}/${index + 1}`, 'I', 0));
      this.#shown.set(universe, {
        channels,
        levels: new Uint8Array(this.#options.channels),
        active: define(`${universe}/active`, 'B', false),
        source: define(`${universe}/source`, 'S', ''),
        priority: define(`${universe}/priority`, 'I', 0),
      });
    }
    this.#forgetting = every(this.#context.scheduler, 500, () => this.#forgetLost());
  }

  stop() {
    this.#forgetting?.unsubscribe();
  }

  details() {
    return { sources: [...this.#sources.values()].reduce((n, known) => n + known.size, 0) };
  }

  /** A datagram from `from`. @param {Buffer} datagram @param {string} from */
  received(datagram, from) {
    const counts = this.#counts;
    const packet = decode(datagram);
    if (typeof packet === 'string') {
      counts.malformed++;
      this.#context.log.debug(`${from}: ${packet}`);
      return;
    }
    const known = this.#sources.get(packet.universe);
    // Preview data is for a desk's visualiser, never for live output (E1.31 6.2.6).
    if (!known || packet.options & PREVIEW) {
      counts.ignored++;
      return;
    }
    const key = packet.cid.toString('hex');
    const before = known.get(key);
    if (before && outOfOrder(before.sequence, packet.sequence)) {
      counts.outOfOrder++;
      return;
    }
    counts.received++;
    if (packet.options & TERMINATED) {
      known.delete(key);
      return this.#show(packet.universe);
    }
    if (!before && known.size >= this.#options.maxSources) {
      counts.dropped++;
      return;
    }
    known.set(key, {
      name: packet.sourceName,
      priority: packet.priority,
      sequence: packet.sequence,
      slots: packet.slots,
      heard: this.#context.scheduler.now(),
    });
    this.#show(packet.universe);
  }

  /** Shows what the universe's sources say now: the highest priority's levels, equal ones merged highest first. @param {number} universe */
  #show(universe) {
    const shown = this.#shown.get(universe);
    if (!shown) return;
    const live = [...(this.#sources.get(universe)?.values() ?? [])];
    if (live.length === 0) {
      shown.active.report(false);
      return;
    }
    const top = Math.max(...live.map((source) => source.priority));
    const winners = live.filter((source) => source.priority === top);
    for (let channel = 0; channel < shown.levels.length; channel++) {
      let level = 0;
      for (const source of winners) level = Math.max(level, source.slots[channel] ?? 0);
      if (level !== shown.levels[channel]) {
        shown.levels[channel] = level;
        shown.channels[channel]?.report(level);
      }
    }
    shown.active.report(true);
    shown.source.report(winners.map((source) => source.name).join(', '));
    shown.priority.report(top);
  }

  /** Forgets sources not heard for 2.5 s. */
  #forgetLost() {
    const before = this.#context.scheduler.now() - SOURCE_LOST_MS;
    for (const [universe, known] of this.#sources) {
      let lost = false;
      for (const [key, source] of known)
        if (source.heard < before) {
          known.delete(key);
          lost = true;
        }
      if (lost) this.#show(universe);
    }
  }
}
