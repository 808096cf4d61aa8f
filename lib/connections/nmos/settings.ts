/**
 * What an `nmos` connection is written as (its settings), and what they are once parsed:
 * the address patterns compiled and the registries' URLs checked.
 */
import { Type } from '@sinclair/typebox';
import {
  AddressPatterns,
  type Checked,
  checked,
  type Issue,
  type Parsed,
  withDefault,
  listenAddressSetting,
  parseAddress,
  portSetting,
} from '../../sdk/index.ts';

/** A receiver's name: what its id is made from, and the part its problems are listed under. */
const RECEIVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const nmosSettings = Type.Object({
  port: withDefault(
    portSetting('TCP port of the Node API, the Events API, the Connection API and the events WebSocket; 0 picks a free one.', {
      anyFree: true,
    }),
    3210,
  ),
  bindIp: listenAddressSetting('The address to listen on; empty listens on every interface.'),
  host: withDefault(
    Type.String({
      description:
        'The address or name registries and clients are told to reach this node at; empty takes the first IPv4 address of the interface `bindIp` is on (of the first interface not loopback when `bindIp` is empty).',
    }),
    '',
  ),
  label: withDefault(Type.String({ maxLength: 256, description: 'The node’s and device’s label, as registries show it.' }), 'patchbay'),
  description: withDefault(Type.String({ maxLength: 4096, description: 'The node’s and device’s description.' }), ''),
  expose: withDefault(
    Type.Array(Type.String({ minLength: 1, description: 'An address pattern (`studio/#`, `+/onair`).' }), {
      description:
        'Address patterns of the parameters served as IS-07 sources (each with a flow and a WebSocket sender); none by default. Triggers are left out: they have no state.',
    }),
    [],
  ),
  receivers: withDefault(
    Type.Record(
      Type.String({ pattern: RECEIVER_NAME.source }),
      Type.Object(
        {
          parameter: Type.String({
            minLength: 1,
            description:
              'The address of the hub parameter the receiver writes (`studio/tally/onair`): each state of the IS-07 source a controller connects the receiver to, converted to the parameter’s type.',
          }),
          label: withDefault(
            Type.String({ maxLength: 256, description: 'The receiver’s label, as registries show it; empty: the name and the parameter.' }),
            '',
          ),
          eventTypes: withDefault(
            Type.Array(
              Type.String({
                pattern: '^[^\\s/]+(/[^\\s/]+)*$',
                description: 'An IS-07 event type: `boolean`, `number/temperature/C`, `number/*`.',
              }),
              {
                maxItems: 64,
                description:
                  'The event types the receiver takes (its IS-04 `caps.event_types`, `*` ending a partial one); empty: from the parameter’s type (`boolean` and `boolean/*` for a boolean, `string` and `string/*` for text, `number` and `number/*` for a number), or all three while the parameter is not there.',
              },
            ),
            [],
          ),
        },
        { additionalProperties: false },
      ),
      {
        maxProperties: 1000,
        description:
          "IS-07 receivers by name, each bound to a hub parameter, as `{ <name>: { parameter: '<address>', label?: '<text>', eventTypes?: ['<event type>', …] } }` (`{ tally: { parameter: 'studio/tally' } }`): a controller connects one to an IS-07 sender through the Connection API (IS-05), and the parameter follows the sender’s source. The name (letters, digits, `_`, `.`, `-`) is what the receiver’s id is made from; none by default.",
      },
    ),
    {},
  ),
  registries: withDefault(
    Type.Array(Type.String({ pattern: '^https?://[^/?#\\s]+/?$', description: 'A registry’s base URL: `http://registry.local:8235`.' }), {
      description:
        'Registration APIs to register with, in order of preference: the next is tried when one fails. None: registries are found by DNS-SD (`dnsSd`), or none is used.',
    }),
    [],
  ),
  dnsSd: withDefault(
    Type.Boolean({
      description:
        'With no `registries`: find registries by DNS-SD (`_nmos-register._tcp` over multicast DNS on the local network), and use the best by priority. false: with no `registries`, register nowhere.',
    }),
    true,
  ),
  seed: withDefault(
    Type.String({
      maxLength: 256,
      description:
        'What the ids of the node and its resources are made from. Empty: one made once and kept in the state folder. Give the hubs of a redundancy group the same one, so the active hub is the same node after a takeover.',
    }),
    '',
  ),
  heartbeatMs: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'How often the node tells its registry it is alive (IS-04: 5 s).' }),
    5000,
  ),
  requestTimeoutMs: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'How long a request to a registry may take before it counts as failed.' }),
    2000,
  ),
  clientTimeoutMs: withDefault(
    Type.Integer({
      minimum: 100,
      maximum: 600_000,
      description: 'An events WebSocket client that sends no `health` command for this long is dropped (IS-07: 12 s).',
    }),
    12_000,
  ),
  maxSources: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 100_000,
      description: 'Parameters served as sources at most; past it the rest are left out and said.',
    }),
    1000,
  ),
  maxClients: withDefault(
    Type.Integer({ minimum: 1, maximum: 1024, description: 'Events WebSocket clients at once; one more is refused.' }),
    64,
  ),
  maxMessageBytes: withDefault(
    Type.Integer({
      minimum: 1024,
      maximum: 16 * 1024 * 1024,
      description:
        'Bytes of one WebSocket message: from an events client, or from the sender a receiver follows; a larger one closes the socket (a receiver dials its sender again after a backoff).',
    }),
    256 * 1024,
  ),
});

export type NmosSettings = Parsed<typeof nmosSettings> & {
  /** `expose`, compiled. */
  readonly patterns: AddressPatterns;
  /** `registries` without a trailing `/`. */
  readonly registryUrls: readonly string[];
};

export function parseNmosSettings(written: Parsed<typeof nmosSettings>): Checked<NmosSettings> {
  const patterns = AddressPatterns.compile(written.expose);
  if (!patterns.ok) return { ok: false, issues: [{ path: ['expose'], message: patterns.error.message }] };
  const issues: Issue[] = [];
  for (const [name, { parameter }] of Object.entries(written.receivers)) {
    if (!RECEIVER_NAME.test(name))
      issues.push({
        path: ['receivers', name],
        message: `a receiver's name is 1–64 letters, digits, _, . and -, starting with a letter or digit: ${JSON.stringify(name)}`,
      });
    const address = parseAddress(parameter);
    if (!address.ok) issues.push({ path: ['receivers', name, 'parameter'], message: address.error.message });
  }
  const registryUrls = written.registries.map((url, index) => {
    try {
      return new URL(url).origin;
    } catch {
      issues.push({ path: ['registries', index], message: `not a URL: ${url}` });
      return url;
    }
  });
  return checked(issues, { ...written, patterns: patterns.value, registryUrls });
}
