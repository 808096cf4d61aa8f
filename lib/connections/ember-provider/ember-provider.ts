/**
 * `ember-provider`: an Ember+ provider over TCP serving the hub's parameters that match
 * `expose` (R-E1). Each `/` of an address is a node and the parameter a leaf: B boolean,
 * I integer, F real, S string parameters with the parameter's access, a trigger a function
 * without arguments that fires it when invoked. Consumers that ask for a node (GetDirectory)
 * or subscribe get every change below it; a consumer's setValue is a hub write (R-C
 * conversion, origin `ember <peer>`), and the writer is always sent the hub's value after, so
 * a refused write leaves it at the hub's. Parameters that appear are announced; parameters that
 * go are shown offline. Numbers stay with addresses across reloads and restarts (see
 * `ExposedTree`). Many consumers at once; one that stops reading is cut off past a bound.
 * The matrices it declares (`matrices`) are served as Ember+ matrices at `<connection>/<id>`,
 * held in parameters of its own (see `ServedMatrix`); a consumer's connect is a hub write.
 *
 * Parameters, for each matrix:
 *   <id>/targets/<t>/source    I   read-write   oneToN, oneToOne: the source on target t, -1 none
 *   <id>/targets/<t>/sources   S   read-write   nToN: the sources on target t, "1,4"
 */
import { defineConnectionType, openListenerWarnings } from '../../sdk/index.ts';
import { EmberProviderConnection } from './provider-connection.ts';
import { type EmberProviderSettings, emberProviderSettings, parseEmberProviderSettings } from './settings.ts';

export const emberProviderType = defineConnectionType({
  type: 'ember-provider',
  summary: 'Serves the hub’s parameters to Ember+ consumers as a tree, taking their writes.',
  settings: emberProviderSettings,
  parse: parseEmberProviderSettings,
  // Every machine that reaches this one may change what `write` lets: worth a warning, as the rest-api gives.
  warn: (settings) =>
    settings.write.length > 0 ? openListenerWarnings(settings, 'change what `write` matches (Ember+ has no credentials)') : [],
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }]),
  metrics: [
    {
      name: 'patchbay_ember_provider_consumers',
      help: 'Consumers connected to an ember-provider.',
      kind: 'gauge',
      samples: (details) => [{ value: Number(details['consumers'] ?? 0) }],
    },
    {
      name: 'patchbay_ember_provider_cut_off_total',
      help: 'Consumers an ember-provider cut off because they stopped reading.',
      kind: 'counter',
      samples: (details) => [{ value: Number(details['cutOff'] ?? 0) }],
    },
  ],
  create: (context, parsed: EmberProviderSettings) => new EmberProviderConnection(context, parsed),
});
