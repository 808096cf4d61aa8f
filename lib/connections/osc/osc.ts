/**
 * `osc`: Open Sound Control 1.0 (R-Q1) over UDP — received on `port`, sent to
 * `host`:`sendPort` from the same socket — or over TCP with SLIP framing, as a link to
 * `host`:`port` that reconnects with backoff (R-G1). An incoming message for a listed
 * address sets its parameter from its first argument (R-C); bundles apply in order, nested
 * ones too, at once whatever their timetag. A write sends one message with one argument
 * typed by the parameter (`i`, `f`, `s`, `T`/`F`, none for a trigger), answered once the
 * socket took it: OSC has no acknowledgements, so the written value is the parameter's.
 * With `learn`, each new incoming address becomes a parameter typed by its first argument,
 * at most `maxParameters` (R-G2, R-G4). Packets over `maxPacketBytes` are dropped and
 * degrade the connection a while; malformed ones are counted and logged sparsely. With
 * `oscQuery` it serves the hub's parameters that `expose` matches as an OSCQuery namespace
 * (R-DS2, oscquery.ts): for that it serves the hub, and so reaches the graph.
 *
 * Parameters:
 *   <id>                      S/B/I/F/T   as listed    one per entry of `addresses`
 *   <address without its />   S/B/I/F/T   read-write   with `learn`, one per new address heard
 */
import {
  type Access,
  type Issue,
  DeviceLink,
  DeviceParameters,
  type DeviceSend,
  droppedMetric,
  openListenerWarnings,
  Overruns,
  type OwnedParameter,
  parameterIdOf,
  type Value,
  type ValueType,
  SparseLog,
} from '../../sdk/index.ts';
import { encodeWrite, type OscMessage, readPacket, typeOfTag, valueOfArgument } from './packets.ts';
import { type OscSettings, oscSettings, parseOscSettings } from './settings.ts';
import { type OscTransport, type PacketHandlers, TcpTransport, UdpTransport } from './transports.ts';
import { defineServingType } from '../serving.ts';
import { OscQueryServer } from './oscquery.ts';

const OVERRUN_KINDS = ['size', 'parameters'] as const;

/** An address the connection answers to, and the parameter it sets. */
interface Bound {
  readonly parameter: OwnedParameter;
  readonly access: Access;
}

export const oscType = defineServingType({
  type: 'osc',
  summary: 'Open Sound Control over UDP or TCP: OSC addresses as parameters, listed or learned as they are heard.',
  settings: oscSettings,
  parse: parseOscSettings,
  warn: (settings) => [
    ...(settings.transport === 'udp' ? openListenerWarnings(settings, 'set its addresses') : []),
    ...oscQueryWarnings(settings.oscQuery),
  ],
  discovers: ({ learn }) => ({ parameters: learn }),
  claims: ({ transport, port, bindIp }) =>
    transport === 'udp' && port !== 0 ? [{ what: `UDP port ${port}`, on: bindIp, path: ['port'] }] : [],
  metrics: [
    {
      name: 'patchbay_osc_messages_total',
      help: 'OSC messages an osc connection received (in bundles too) and sent.',
      kind: 'counter',
      labelNames: ['direction'],
      samples: (details) =>
        (['received', 'sent'] as const).map((direction) => ({ labels: { direction }, value: Number(details[direction] ?? 0) })),
    },
    droppedMetric(
      'patchbay_osc_dropped_total',
      'What an osc connection dropped: malformed packets, packets over maxPacketBytes, addresses past maxParameters, messages whose argument did not convert.',
      'reason',
    ),
  ],
  create(context, settings: OscSettings) {
    const overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    const refusals = new SparseLog(context.log, context.scheduler, 'dropped');
    const counts = { received: 0, sent: 0, malformed: 0, unconverted: 0, unmatched: 0 };
    const bound = new Map<string, Bound>();
    let transport: OscTransport | undefined;
    let link: DeviceLink | undefined;
    let parameters: DeviceParameters | undefined;
    let oscQuery: OscQueryServer | undefined;

    const sendTo =
      (address: string, type: ValueType): DeviceSend =>
      (value: Value, confirm) => {
        const packet = encodeWrite(address, type, value);
        transport?.send(packet, (error) => {
          if (error === undefined) counts.sent++;
          confirm(error);
        });
      };

    const learn = (message: OscMessage): Bound | undefined => {
      const type = typeOfTag(message.firstTag);
      if (type === undefined) {
        refusals.warn(`${message.address} is not learned: its first argument's type "${message.firstTag}" is none of i f s T F`);
        return undefined;
      }
      const id = parameterIdOf(message.address.slice(1).split('/'));
      // Another address made this id already (they differ in characters an id cannot hold).
      if (id === undefined || parameters?.get(id)) {
        refusals.warn(`${message.address} is not learned: it makes no parameter id of its own`);
        return undefined;
      }
      const parameter = parameters?.define(id, { type, access: 'read-write' }, sendTo(message.address, type), { echoes: false });
      if (!parameter) return undefined;
      const made = { parameter, access: 'read-write' as const };
      bound.set(message.address, made);
      return made;
    };

    const handlers: PacketHandlers = {
      packet(packet, peer) {
        const origin = `osc ${peer}`;
        const outcome = readPacket(packet, (message) => {
          counts.received++;
          const listed = bound.get(message.address);
          // An address of the hub's namespace (R-DS2) is a hub write; a listed one stays the connection's own.
          if (!listed && oscQuery?.received(message, origin)) return;
          const target = listed ?? (settings.learn ? learn(message) : undefined);
          if (!target) return void counts.unmatched++;
          if (target.access === 'write-only') return;
          const reported = target.parameter.report(valueOfArgument(message.firstTag, message.first), origin);
          if (!reported.ok) {
            counts.unconverted++;
            refusals.warn(`${message.address} from ${peer}: ${reported.error.message}`);
          }
        });
        if (!outcome.ok) {
          counts.malformed++;
          refusals.warn(`a malformed OSC packet of ${packet.length} bytes from ${peer}: ${outcome.reason}`);
        }
      },
      tooLarge(bytes, peer) {
        overruns.dropped('size', `a packet of ${bytes} bytes from ${peer} is over maxPacketBytes (${settings.maxPacketBytes})`);
      },
    };

    const startOscQuery = async (asked: NonNullable<OscSettings['oscQuery']>) => {
      oscQuery = new OscQueryServer(
        context.hub.graph,
        asked,
        {
          name: `patchbay ${context.id}`,
          transport: settings.transport === 'tcp' ? 'TCP' : 'UDP',
          port: () => (settings.transport === 'udp' ? transport?.localPort : undefined),
        },
        context.log,
        context.scheduler,
      );
      const port = await oscQuery.start();
      const { expose, write } = asked.written;
      context.log.info(
        `OSCQuery on http://${asked.bindIp || '0.0.0.0'}:${port}: shows ${expose.join(' ')}; ${write.length > 0 ? `writes ${write.join(' ')}` : 'takes no writes'}`,
      );
      if (asked.bindIp === '' && write.length > 0)
        context.log.warn(
          'OSCQuery takes writes from every machine that reaches this one: set oscQuery.bindIp (such as 127.0.0.1) or narrow oscQuery.write',
        );
    };

    return {
      async start() {
        const { transport: kind, port, bindIp, host, sendPort, maxPacketBytes: maxBytes } = settings;
        transport =
          kind === 'tcp'
            ? new TcpTransport({ host, port, maxBytes }, handlers)
            : new UdpTransport({ port, bindIp, host, sendPort, maxBytes, allow: settings.peers }, handlers);
        link = new DeviceLink(transport, {
          scheduler: context.scheduler,
          status: overruns.status,
          timeoutMs: settings.timeout,
          fence: context.fence,
        });
        parameters = new DeviceParameters(context, link, overruns, settings.maxParameters);
        for (const entry of settings.addresses) {
          const parameter = parameters.define(entry.id, entry, sendTo(entry.address, entry.type), { echoes: false });
          if (parameter) bound.set(entry.address, { parameter, access: entry.access });
        }
        const linked = link.start();
        if (kind === 'udp')
          context.log.info(`receiving OSC on ${bindIp || '*'}:${port || 'a free port'}; lets in ${settings.peers.describe()}`);
        if (settings.oscQuery) await startOscQuery(settings.oscQuery);
        return linked;
      },
      async stop() {
        oscQuery?.stop();
        oscQuery = undefined;
        overruns.stop();
        await link?.stop();
        link = undefined;
        transport = undefined;
        bound.clear();
      },
      details: () => ({
        transport: settings.transport,
        ...(transport instanceof UdpTransport
          ? { port: transport.localPort, refusedPeers: transport.refusedPeers }
          : settings.transport === 'udp'
            ? { port: 0 }
            : { host: settings.host, port: settings.port }),
        up: link?.up ?? false,
        received: counts.received,
        sent: counts.sent,
        parameters: parameters?.size ?? 0,
        dropped: {
          malformed: counts.malformed,
          size: overruns.counts.size,
          parameters: overruns.counts.parameters,
          unconverted: counts.unconverted,
        },
        unmatched: counts.unmatched,
        ...(oscQuery ? { oscQuery: { port: oscQuery.port, listeners: oscQuery.listeners, malformed: oscQuery.malformed } } : {}),
      }),
    };
  },
});

/** The open door of an OSCQuery server on every interface: OSCQuery has no credentials. */
function oscQueryWarnings(oscQuery: OscSettings['oscQuery']): Issue[] {
  if (oscQuery?.bindIp !== '') return [];
  const writes = oscQuery.written.write.length > 0 ? ', and change what oscQuery.write matches' : '';
  return [
    {
      path: ['oscQuery', 'bindIp'],
      message: `every machine that reaches this one may read what oscQuery.expose matches${writes} (OSCQuery has no credentials): set oscQuery.bindIp (such as 127.0.0.1)`,
    },
  ];
}
