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
import { droppedMetric, type Issue, openListenerWarnings } from '../../sdk/index.ts';
import { defineServingType } from '../serving.ts';
import { OscConnection } from './osc-connection.ts';
import { type OscSettings, oscSettings, parseOscSettings } from './settings.ts';

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
  create: (context, parsed: OscSettings) => new OscConnection(context, parsed),
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
