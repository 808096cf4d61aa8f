// @ts-check
/**
 * `sacn`: DMX512 universes over E1.31 (streaming ACN), the protocol of lighting desks,
 * dimmers and LED fixtures on a studio network (packets in `e131.js`, a source in `sender.js`,
 * a receiver in `receiver.js`). Built on `patchbay-hub/connection` alone.
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
import { checked, DeviceLink, defineConnectionType, Status, Type, UdpEndpoint, withDefault } from 'patchbay-hub/connection';
import { groupOf, MAX_PRIORITY, MAX_UNIVERSE, MIN_UNIVERSE, SACN_PORT } from './e131.js';
import { Receiver } from './receiver.js';
import { Sender } from './sender.js';

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
    const { mode, universes, port, bindIp, host, multicast } = options;
    const counts = { received: 0, sent: 0, malformed: 0, outOfOrder: 0, ignored: 0, dropped: 0 };
    const receiver = mode === 'receive' ? new Receiver(context, options, counts) : undefined;
    const endpoint = new UdpEndpoint(
      { port: receiver ? port : 0, bindIp, host, multicast: receiver && multicast ? universes.map(groupOf) : [] },
      (datagram, from) => receiver?.received(datagram, from.address),
    );
    const sender = mode === 'send' ? new Sender(context, options, endpoint, counts, () => link.up) : undefined;
    const link = new DeviceLink(
      {
        open: (attempt) =>
          endpoint.open({
            up: () => {
              attempt.up();
              sender?.sendAll();
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
          await sender?.terminate();
          endpoint.close();
        },
      },
      { scheduler: context.scheduler, status: context.setStatus, fence: context.fence },
    );
    const part = sender ?? receiver;
    return {
      start() {
        part?.start();
        return link.start();
      },
      stop() {
        part?.stop();
        return link.stop();
      },
      details: () => ({
        mode,
        universes,
        port: receiver ? endpoint.localPort : port,
        ...part?.details(),
        ...counts,
      }),
    };
  },
});
