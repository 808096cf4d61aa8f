/**
 * `nmos`: the hub as an AMWA NMOS node (R-NM1, R-NM2, R-NM3). The hub's parameters that match
 * `expose` are IS-07 event sources, each with a JSON flow and a WebSocket sender, their event
 * types from what the parameter says of itself (event-types.ts). It serves the IS-04 v1.3 Node
 * API, the IS-07 Events API, the IS-05 Connection API and the events WebSocket on a port of its
 * own, and registers node, device, sources, flows, senders and receivers with the registries in
 * `registries` (or found by DNS-SD, registry-discovery.ts), with heartbeats, registering again
 * on a 404 and moving to the next registry on failure (registration.ts). Its ids stay the same
 * across restarts (identity.ts). Its `receivers` are IS-07 receivers, each
 * bound to a hub parameter that follows the source a controller connects it to through the
 * IS-05 Connection API, which it serves for its senders too. Active hub only: a standby registers
 * nothing, and the `seed` setting keeps the identity across a takeover.
 *
 * Parameters: none of its own.
 */
import { defineServingType } from '../serving.ts';
import { NmosConnection } from './nmos-connection.ts';
import { type NmosSettings, nmosSettings, parseNmosSettings } from './settings.ts';

export const nmosType = defineServingType({
  type: 'nmos',
  summary: 'The hub as an NMOS node: IS-07 event sources and receivers, connected through IS-05, registered with IS-04.',
  settings: nmosSettings,
  parse: parseNmosSettings,
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }]),
  metrics: [
    {
      name: 'patchbay_nmos_event_clients',
      help: 'Events WebSocket clients connected to an nmos connection.',
      kind: 'gauge',
      samples: (details) => [{ value: Number(details['clients'] ?? 0) }],
    },
    {
      name: 'patchbay_nmos_registry_failures_total',
      help: 'Requests of an nmos connection to its registries that failed (each moved it to the next registry).',
      kind: 'counter',
      samples: (details) => [{ value: Number(details['failures'] ?? 0) }],
    },
  ],
  create: (context, parsed: NmosSettings) => new NmosConnection(context, parsed),
});
