// @ts-check
/**
 * `mode: "send"`: the hub as a source of universes. Each universe's channels are writable
 * parameters, kept across restarts; a universe goes out when one of its channels changes (at
 * most `maxRate` times a second, the changes in between together) and every `refresh` ms while
 * nothing changes; stopping says so to receivers (three packets with Stream_Terminated).
 */
import { randomUUID } from 'node:crypto';
import { after, afterTurn, every, HubError, Status } from 'patchbay-hub/connection';
import { encode, groupOf, TERMINATED } from './e131.js';

/** @typedef {import('patchbay-hub/connection').ConnectionContext} ConnectionContext */
/** @typedef {{ sent: number }} SentCounts */
/**
 * @typedef {object} SenderOptions
 * @property {number[]} universes
 * @property {number} channels
 * @property {number} port
 * @property {string} host
 * @property {number} priority
 * @property {string} sourceName
 * @property {number} refresh
 * @property {number} maxRate
 */

export class Sender {
  #context;
  #options;
  #endpoint;
  #counts;
  /** Whether the link is up: nothing is sent while it is down. */
  #up;
  /** The levels sent, by universe. @type {Map<number, Uint8Array>} */
  #levels;
  /** This source's component id, the same across restarts (receivers tell sources apart by it). */
  #cid;
  /** @type {Map<number, number>} */
  #sequences;
  /** @type {Map<number, number>} */
  #lastSent;
  /** Universes changed and not sent yet, with the wait before they may go, when one is planned. @type {Map<number, { unsubscribe(): void } | undefined>} */
  #dirty = new Map();
  /** @type {{ unsubscribe(): void } | undefined} */
  #refreshing;
  #sendError = '';

  /**
   * @param {ConnectionContext} context
   * @param {SenderOptions} options
   * @param {import('patchbay-hub/connection').UdpEndpoint} endpoint
   * @param {SentCounts} counts
   * @param {() => boolean} up
   */
  constructor(context, options, endpoint, counts, up) {
    this.#context = context;
    this.#options = options;
    this.#endpoint = endpoint;
    this.#counts = counts;
    this.#up = up;
    this.#levels = new Map(options.universes.map((u) => [u, new Uint8Array(options.channels)]));
    this.#sequences = new Map(options.universes.map((u) => [u, 0]));
    this.#lastSent = new Map(options.universes.map((u) => [u, Number.NEGATIVE_INFINITY]));
    const kept = context.records.get('cid');
    const id = typeof kept === 'string' ? kept : randomUUID();
    if (kept !== id) context.records.set('cid', id);
    this.#cid = Buffer.from(id.replaceAll('-', ''), 'hex');
  }

  /** Defines each universe's channels; the levels kept from before a restart are what it sends first. */
  start() {
    const { universes, channels, refresh } = this.#options;
    for (const universe of universes) {
      const current = this.#levels.get(universe) ?? new Uint8Array(0);
      for (let channel = 1; channel <= channels; channel++) {
        const parameter = this.#context.define(`${universe}/${channel}`, {
          type: 'I',
          access: 'read-write',
          initial: 0,
          persist: true,
          accept: dmxLevel,
          onWrite: (value) => {
            current[channel - 1] = Number(value);
            this.#changed(universe);
          },
        });
        current[channel - 1] = Number(parameter.value ?? 0);
      }
    }
    // Looked at four times a refresh, so that an unchanged universe goes `refresh` ms after it last went, not up to twice that.
    this.#refreshing = every(this.#context.scheduler, Math.max(25, refresh / 4), () => {
      const stale = this.#context.scheduler.now() - refresh;
      if (this.#up())
        for (const universe of universes)
          if ((this.#lastSent.get(universe) ?? 0) <= stale && !this.#dirty.has(universe)) this.#send(universe);
    });
  }

  /** The link is up: every universe goes at once. */
  sendAll() {
    for (const universe of this.#options.universes) this.#send(universe);
  }

  /** Tells receivers this source stops, so they let go of it at once rather than after 2.5 s of silence. */
  async terminate() {
    if (this.#endpoint.localPort === 0) return;
    await Promise.all(
      this.#options.universes.flatMap((u) => [0, 1, 2].map(() => new Promise((sent) => this.#send(u, TERMINATED, () => sent(undefined))))),
    );
  }

  stop() {
    this.#refreshing?.unsubscribe();
    for (const wait of this.#dirty.values()) wait?.unsubscribe();
    this.#dirty.clear();
  }

  details() {
    return { cid: this.#cid.toString('hex') };
  }

  /** A channel of `universe` changed: the universe goes at the end of the turn, or when `maxRate` lets it. @param {number} universe */
  #changed(universe) {
    if (this.#dirty.has(universe)) return;
    const wait = (this.#lastSent.get(universe) ?? 0) + 1000 / this.#options.maxRate - this.#context.scheduler.now();
    const go = () => {
      this.#dirty.delete(universe);
      if (this.#up()) this.#send(universe);
    };
    if (wait <= 0) {
      this.#dirty.set(universe, undefined);
      afterTurn(go);
    } else this.#dirty.set(universe, after(this.#context.scheduler, wait, go));
  }

  /**
   * Sends a universe now, with `flags` (TERMINATED when the source stops); `sent` once it is
   * handed to the network, or not sent.
   * @param {number} universe @param {number} [flags] @param {() => void} [sent]
   */
  #send(universe, flags = 0, sent = () => {}) {
    const context = this.#context;
    if (!context.fence.holds()) return sent();
    const { port, host, priority, sourceName } = this.#options;
    const sequence = ((this.#sequences.get(universe) ?? 0) + 1) & 0xff;
    this.#sequences.set(universe, sequence);
    this.#lastSent.set(universe, context.scheduler.now());
    const packet = encode({
      cid: this.#cid,
      sourceName,
      priority,
      sequence,
      options: flags,
      universe,
      slots: this.#levels.get(universe) ?? new Uint8Array(0),
    });
    this.#endpoint.send(packet, port, host === '' ? groupOf(universe) : this.#endpoint.hostAddress, (error) => {
      sent();
      if (error) {
        if (this.#sendError === '')
          context.setStatus(Status.Degraded, `cannot send universe ${universe}: ${error.message}`, 'PB_DEVICE_UNAVAILABLE');
        this.#sendError = error.message;
        return;
      }
      this.#counts.sent++;
      if (this.#sendError !== '' && this.#up()) {
        this.#sendError = '';
        context.setStatus(Status.Ok);
      }
    });
  }
}

/** A DMX level: an integer 0–255. @param {unknown} raw @returns {import('patchbay-hub/connection').Result<number>} */
function dmxLevel(raw) {
  const level = Number(raw);
  return Number.isInteger(level) && level >= 0 && level <= 255 && String(raw).trim() !== ''
    ? { ok: true, value: level }
    : { ok: false, error: new HubError('PB_CONVERSION', `a DMX level is an integer 0–255, not "${raw}"`) };
}
