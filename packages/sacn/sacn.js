// @ts-check
/**
 * `sacn`: DMX512 universes over E1.31 (streaming ACN), the protocol of lighting desks,
 * dimmers and LED fixtures on a studio network (packets in `e131.js`). Built on
 * `patchbay-hub/connection` alone.
 *
 * `mode: "send"`: the hub is a source. Each listed universe's channels are writable
 * parameters; a universe goes out when one of its channels changes (at most `maxRate`
 * times a second, the changes in between together) and every `refresh` ms while nothing
 * changes, multicast to the universe's group or to `host`. Stopping says so to receivers
 * (three packets with Stream_Terminated).
 *
 * `mode: "receive"`: the hub listens on `port` for the listed universes (joining their
 * multicast groups) and shows their channels read-only: the levels of the source of highest
 * priority, sources of equal priority merged highest-takes-precedence. A source not heard
 * for 2.5 s is gone (E1.31's network data loss); without sources a universe keeps its last
 * levels and `active` is false.
 *
 * Parameters, for each universe u:
 *   <u>/<channel>   I   channels 1 to `channels`, 0–255 (send: read-write; receive: read-only)
 *   <u>/active      B   receive: a source sends the universe
 *   <u>/source      S   receive: the name of the source shown (several: their names, comma-separated)
 *   <u>/priority    I   receive: its priority
 */
import { randomUUID } from 'node:crypto';
import {
  after,
  afterTurn,
  checked,
  DeviceLink,
  defineConnectionType,
  every,
  HubError,
  Status,
  Type,
  UdpEndpoint,
  withDefault,
} from 'patchbay-hub/connection';
import { decode, encode, groupOf, MAX_PRIORITY, MAX_UNIVERSE, MIN_UNIVERSE, outOfOrder, PREVIEW, SACN_PORT, TERMINATED } from './e131.js';

/** E1.31's network data loss: a source not heard for this long is gone. */
const SOURCE_LOST_MS = 2500;

const settings = Type.Object({
  mode: Type.Union([Type.Literal('send'), Type.Literal('receive')], {
    description: 'send: the hub is a source of the universes. receive: the hub shows what sources send.',
  }),
  universes: Type.Array(Type.Integer({ minimum: MIN_UNIVERSE, maximum: MAX_UNIVERSE }), {
    minItems: 1,
    maxItems: 64,
    description: 'The universes, 1–63999, each once.',
  }),
  channels: withDefault(
    Type.Integer({ minimum: 1, maximum: 512, description: 'How many channels of each universe are parameters, from channel 1.' }),
    512,
  ),
  port: withDefault(
    Type.Integer({ minimum: 0, maximum: 65_535, description: 'receive: the port listened on. send: the port sent to.' }),
    SACN_PORT,
  ),
  bindIp: withDefault(
    Type.String({ description: 'The address (and so the network interface) to listen and join groups on, or to send from; "" for any.' }),
    '',
  ),
  host: withDefault(
    Type.String({ description: 'send: one receiver to send to (unicast); "" sends to each universe\'s multicast group.' }),
    '',
  ),
  multicast: withDefault(Type.Boolean({ description: "receive: join each universe's multicast group (false: unicast only)." }), true),
  priority: withDefault(Type.Integer({ minimum: 0, maximum: MAX_PRIORITY, description: 'send: the priority of this source, 0–200.' }), 100),
  sourceName: withDefault(Type.String({ maxLength: 63, description: 'send: the name receivers show for this source.' }), 'patchbay'),
  refresh: withDefault(
    Type.Integer({
      minimum: 100,
      maximum: 1000,
      description:
        'send: milliseconds between sends of a universe that did not change; at most 1000, as E1.31 asks (receivers drop a source silent for 2.5 s).',
    }),
    1000,
  ),
  maxRate: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      description: 'send: the most packets a universe is sent a second; changes in between go together.',
    }),
    44,
  ),
  maxSources: withDefault(
    Type.Integer({ minimum: 1, maximum: 64, description: 'receive: sources of one universe taken at most; more are dropped and counted.' }),
    8,
  ),
});

/**
 * @typedef {{ name: string, priority: number, sequence: number, slots: Buffer, heard: number }} Source
 */

export default defineConnectionType({
  type: 'sacn',
  summary: 'DMX512 universes over E1.31 (sACN), sent to lighting or received from a desk.',
  settings,
  parse(written) {
    /** @type {import('patchbay-hub/connection').Issue[]} */
    const issues = [];
    if (new Set(written.universes).size !== written.universes.length) issues.push({ path: ['universes'], message: 'each universe once' });
    if (written.mode === 'send' && written.port === 0)
      issues.push({ path: ['port'], message: 'the port to send to, 5568 for every receiver' });
    return checked(issues, written);
  },
  // A source's levels are kept (R-S2): a restarted hub, or a restarted process of the
  // connection, sends the levels it sent before rather than a blackout.
  declared: ({ mode, universes, channels }) => {
    const listed = new Set(universes);
    return (id) => {
      const [universe, channel, more] = id.split('/');
      const n = Number(channel);
      return mode === 'send' && more === undefined && listed.has(Number(universe)) && Number.isInteger(n) && n >= 1 && n <= channels
        ? { type: 'I', persist: true }
        : undefined;
    };
  },
  claims: ({ mode, port, bindIp }) => (mode === 'receive' && port !== 0 ? [{ what: `UDP port ${port}`, on: bindIp, path: ['port'] }] : []),
  create(context, options) {
    const { mode, universes, channels, port, bindIp, host, multicast, priority, sourceName, refresh, maxRate, maxSources } = options;
    const counts = { received: 0, sent: 0, malformed: 0, outOfOrder: 0, ignored: 0, dropped: 0 };
    /** The levels shown, by universe: what is sent, or what the sources say. */
    const levels = new Map(universes.map((u) => [u, new Uint8Array(channels)]));
    /** @type {Map<number, import('patchbay-hub/connection').OwnedParameter[]>} */
    const channelParameters = new Map();
    let sendError = '';

    const endpoint = new UdpEndpoint(
      { port: mode === 'receive' ? port : 0, bindIp, host, multicast: mode === 'receive' && multicast ? universes.map(groupOf) : [] },
      (datagram, from) => (mode === 'receive' ? received(datagram, from.address) : undefined),
    );
    const link = new DeviceLink(
      {
        open: (attempt) =>
          endpoint.open({
            up: () => {
              attempt.up();
              if (mode === 'send') for (const universe of universes) send(universe);
              if (endpoint.notJoined.length > 0)
                context.setStatus(
                  Status.Degraded,
                  `receiving unicast only: could not join ${endpoint.notJoined.join('; ')}`,
                  'PB_DEVICE_UNAVAILABLE',
                );
            },
            down: (reason) => attempt.down(reason),
          }),
        close: async () => {
          // Receivers let go of this source at once, rather than after 2.5 s of silence.
          if (mode === 'send' && endpoint.localPort !== 0)
            await Promise.all(
              universes.flatMap((u) => [0, 1, 2].map(() => new Promise((sent) => send(u, TERMINATED, () => sent(undefined))))),
            );
          endpoint.close();
        },
      },
      { scheduler: context.scheduler, status: context.setStatus, fence: context.fence },
    );

    // --- send ---------------------------------------------------------------------------
    /** This source's component id, the same across restarts (receivers tell sources apart by it). */
    const cid = (() => {
      const kept = context.records.get('cid');
      const id = typeof kept === 'string' ? kept : randomUUID();
      if (kept !== id) context.records.set('cid', id);
      return Buffer.from(id.replaceAll('-', ''), 'hex');
    })();
    const sequences = new Map(universes.map((u) => [u, 0]));
    const lastSent = new Map(universes.map((u) => [u, Number.NEGATIVE_INFINITY]));
    /** Universes changed and not sent yet, with the wait before they may go, when one is planned. */
    /** @type {Map<number, { unsubscribe(): void } | undefined>} */
    const dirty = new Map();

    /**
     * Sends a universe now, with `flags` (TERMINATED when the source stops); `sent` once it is handed to the network, or not sent.
     * @param {number} universe
     * @param {number} [flags]
     * @param {() => void} [sent]
     */
    const send = (universe, flags = 0, sent = () => {}) => {
      if (!context.fence.holds()) return sent();
      const sequence = ((sequences.get(universe) ?? 0) + 1) & 0xff;
      sequences.set(universe, sequence);
      lastSent.set(universe, context.scheduler.now());
      const packet = encode({
        cid,
        sourceName,
        priority,
        sequence,
        options: flags,
        universe,
        slots: levels.get(universe) ?? new Uint8Array(0),
      });
      endpoint.send(packet, port, host === '' ? groupOf(universe) : endpoint.hostAddress, (error) => {
        sent();
        if (error) {
          if (sendError === '')
            context.setStatus(Status.Degraded, `cannot send universe ${universe}: ${error.message}`, 'PB_DEVICE_UNAVAILABLE');
          sendError = error.message;
          return;
        }
        counts.sent++;
        if (sendError !== '' && link.up) {
          sendError = '';
          context.setStatus(Status.Ok);
        }
      });
    };

    /** A channel of `universe` changed: the universe goes at the end of the turn, or when `maxRate` lets it. */
    const changed = (/** @type {number} */ universe) => {
      if (dirty.has(universe)) return;
      const wait = (lastSent.get(universe) ?? 0) + 1000 / maxRate - context.scheduler.now();
      const go = () => {
        dirty.delete(universe);
        if (link.up) send(universe);
      };
      if (wait <= 0) {
        dirty.set(universe, undefined);
        afterTurn(go);
      } else dirty.set(universe, after(context.scheduler, wait, go));
    };

    // --- receive ------------------------------------------------------------------------
    /** @type {Map<number, Map<string, Source>>} */
    const sources = new Map(universes.map((u) => [u, new Map()]));
    /** @type {Map<number, { active: import('patchbay-hub/connection').OwnedParameter, source: import('patchbay-hub/connection').OwnedParameter, priority: import('patchbay-hub/connection').OwnedParameter }>} */
    const status = new Map();

    const received = (/** @type {Buffer} */ datagram, /** @type {string} */ from) => {
      const packet = decode(datagram);
      if (typeof packet === 'string') {
        counts.malformed++;
        context.log.debug(`${from}: ${packet}`);
        return;
      }
      const known = sources.get(packet.universe);
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
        return show(packet.universe);
      }
      if (!before && known.size >= maxSources) {
        counts.dropped++;
        return;
      }
      known.set(key, {
        name: packet.sourceName,
        priority: packet.priority,
        sequence: packet.sequence,
        slots: packet.slots,
        heard: context.scheduler.now(),
      });
      show(packet.universe);
    };

    /** Shows what the universe's sources say now: the highest priority's levels, equal ones merged highest first. */
    const show = (/** @type {number} */ universe) => {
      const live = [...(sources.get(universe)?.values() ?? [])];
      const shown = status.get(universe);
      if (live.length === 0) {
        shown?.active.report(false);
        return;
      }
      const top = Math.max(...live.map((source) => source.priority));
      const winners = live.filter((source) => source.priority === top);
      const current = levels.get(universe) ?? new Uint8Array(0);
      const parameters = channelParameters.get(universe) ?? [];
      for (let channel = 0; channel < channels; channel++) {
        let level = 0;
        for (const source of winners) level = Math.max(level, source.slots[channel] ?? 0);
        if (level !== current[channel]) {
          current[channel] = level;
          parameters[channel]?.report(level);
        }
      }
      shown?.active.report(true);
      shown?.source.report(winners.map((source) => source.name).join(', '));
      shown?.priority.report(top);
    };

    /** Forgets sources not heard for 2.5 s. */
    const forgetLost = () => {
      const before = context.scheduler.now() - SOURCE_LOST_MS;
      for (const [universe, known] of sources) {
        let lost = false;
        for (const [key, source] of known)
          if (source.heard < before) {
            known.delete(key);
            lost = true;
          }
        if (lost) show(universe);
      }
    };

    /** @type {{ unsubscribe(): void }[]} */
    const timers = [];
    return {
      start() {
        for (const universe of universes) {
          const parameters = [];
          for (let channel = 1; channel <= channels; channel++) {
            const index = channel - 1;
            parameters.push(
              mode === 'send'
                ? context.define(`${universe}/${channel}`, {
                    type: 'I',
                    access: 'read-write',
                    initial: 0,
                    persist: true,
                    accept: (raw) => {
                      const level = Number(raw);
                      return Number.isInteger(level) && level >= 0 && level <= 255 && String(raw).trim() !== ''
                        ? { ok: true, value: level }
                        : { ok: false, error: new HubError('PB_CONVERSION', `a DMX level is an integer 0–255, not "${raw}"`) };
                    },
                    onWrite: (value) => {
                      const current = levels.get(universe);
                      if (current) current[index] = Number(value);
                      changed(universe);
                    },
                  })
                : context.define(`${universe}/${channel}`, { type: 'I', access: 'read-only', initial: 0 }),
            );
          }
          channelParameters.set(universe, parameters);
          // The levels kept from before a restart are what the source sends first.
          const current = levels.get(universe);
          if (mode === 'send' && current)
            for (const [index, parameter] of parameters.entries()) current[index] = Number(parameter.value ?? 0);
          if (mode === 'receive')
            status.set(universe, {
              active: context.define(`${universe}/active`, { type: 'B', access: 'read-only', initial: false }),
              source: context.define(`${universe}/source`, { type: 'S', access: 'read-only', initial: '' }),
              priority: context.define(`${universe}/priority`, { type: 'I', access: 'read-only', initial: 0 }),
            });
        }
        if (mode === 'send')
          timers.push(
            // Looked at four times a refresh, so that an unchanged universe goes `refresh` ms after it last went, not up to twice that.
            every(context.scheduler, Math.max(25, refresh / 4), () => {
              const stale = context.scheduler.now() - refresh;
              if (link.up)
                for (const universe of universes) if ((lastSent.get(universe) ?? 0) <= stale && !dirty.has(universe)) send(universe);
            }),
          );
        else timers.push(every(context.scheduler, 500, forgetLost));
        return link.start();
      },
      stop() {
        for (const timer of timers.splice(0)) timer.unsubscribe();
        for (const wait of dirty.values()) wait?.unsubscribe();
        dirty.clear();
        return link.stop();
      },
      details: () => ({
        mode,
        universes,
        port: mode === 'receive' ? endpoint.localPort : port,
        ...(mode === 'send' ? { cid: cid.toString('hex') } : { sources: [...sources.values()].reduce((n, known) => n + known.size, 0) }),
        ...counts,
      }),
    };
  },
});
