/**
 * `tsl-umd`: TSL UMD tally and under-monitor displays (R-SU1), v3.1 over UDP or v5.0 over
 * UDP or TCP.
 *
 * `mode: "receive"`: the hub listens on `port` and shows each display it hears (and those
 * listed in `displays` from the start) as read-only parameters — what a vision mixer's
 * tally says, for rules to carry to lamps, cameras and dashboards. Displays are made as
 * heard, at most `maxDisplays`: past it a new one takes the place of the display heard
 * longest ago once that one has gone unheard for `forgetAfter`, or else of one of the
 * sender holding the most displays, while it holds more than the new one's sender would
 * (heard-displays.ts). At most `MOST_DATAGRAMS_A_SECOND` (receiving.ts) datagrams are taken a second, and
 * over TCP, when `maxClients` are connected, a sender that has not sent one whole packet
 * gives its slot to a new one. `host`, when set, is the only sender taken.
 *
 * `mode: "send"`: the hub sends to `host`:`port` the displays listed in `displays`, whose
 * parameters are writable: a display's message goes whenever one of its parameters
 * changes (the changes of one turn in one message), to every display when the link comes
 * up, and every `repeat` ms when set. TSL has no answers: a write is taken once the message
 * is handed to the network. What it sends is kept across restarts (with a state folder):
 * a hub killed and started again shows the displays their last tally and text at once.
 *
 * Malformed packets are counted and logged sparsely at debug, never an error (R-G4).
 *
 * Parameters (v3.1, address 0–126; v5.0, `<screen>/<index>`):
 *   <display>/text          S   16 printable ASCII characters in v3.1; any text in v5.0
 *   <display>/brightness    I   0–3
 *   <address>/tally/1 … 4   B   v3.1
 *   <display>/tally/rh      I   v5.0 right-hand tally: 0 off, 1 red, 2 green, 3 amber
 *   <display>/tally/text    I   v5.0 text tally
 *   <display>/tally/lh      I   v5.0 left-hand tally
 */
import { defineConnectionType, droppedMetric, openListenerWarnings } from '../../sdk/index.ts';
import { parseTslUmdSettings, type TslUmdOptions, tslUmdSettings } from './settings.ts';
import { TslUmdConnection } from './tsl-umd-connection.ts';

export const tslUmdType = defineConnectionType({
  type: 'tsl-umd',
  summary: 'TSL UMD tally and under-monitor displays, v3.1 or v5.0: received from a tally source, or sent to displays.',
  settings: tslUmdSettings,
  parse: parseTslUmdSettings,
  warn: (settings) => (settings.mode === 'receive' && settings.host === '' ? openListenerWarnings(settings, 'set tally and text') : []),
  discovers: ({ mode }) => ({ parameters: mode === 'receive' }),
  claims: ({ mode, transport, port, bindIp }) =>
    mode === 'receive' && port !== 0 ? [{ what: `${transport.toUpperCase()} port ${port}`, on: bindIp, path: ['port'] }] : [],
  metrics: [
    {
      name: 'patchbay_tsl_umd_messages_total',
      help: 'TSL UMD display messages a tsl-umd connection received and sent, and packets it dropped as malformed or from another sender.',
      kind: 'counter',
      labelNames: ['kind'],
      samples: (details) =>
        (['received', 'sent', 'malformed', 'strangers'] as const).map((kind) => ({ labels: { kind }, value: Number(details[kind] ?? 0) })),
    },
    droppedMetric('patchbay_tsl_umd_dropped_total', 'What a tsl-umd connection dropped past its bounds, by kind (R-G4).'),
  ],
  create: (context, parsed: TslUmdOptions) => new TslUmdConnection(context, parsed),
});
