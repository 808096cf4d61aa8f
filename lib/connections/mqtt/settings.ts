/**
 * The settings of the \`mqtt\` connection (R-M1–R-M5): their schema, and what they are once
 * parsed, for the connection and its parts (bridge, hub sharing) alike.
 */
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import {
  type Access,
  Access as Accesses,
  type Checked,
  checked,
  type Issue,
  type Overruns,
  type ParseContext,
  type Parsed,
  withDefault,
  AddressPatterns,
  checkParameterId,
  type ValueType,
  valueTypeSetting,
} from '../../sdk/index.ts';
import { type HubSettings, SITE_OVERRUN_KINDS } from '../../site/settings.ts';
export type { HubSettings } from '../../site/settings.ts';
import { TopicLayout } from '../../broker/topics.ts';

/** A broker topic as a parameter of the connection (R-M3). */
export interface MappedTopic {
  readonly id: string;
  readonly topic: string;
  readonly type: ValueType;
  readonly access: Access;
  readonly commandTopic: string;
}

/** What `hub.key` takes, in the words of both the schema's message and the check for a hub without one. */
export const SITE_KEY_EXPECTED =
  '{ "file": "<path>" } or { "env": "<variable>" } that holds the site key, never the key itself (make one with: openssl rand -hex 32; see "Securing a site" in the README)';

export const mqttSettings = Type.Object({
  url: Type.String({ description: 'The broker: mqtt://host:1883, mqtts://host:8883, ws://host/path or wss://host/path.' }),
  username: withDefault(Type.String({ description: 'User name, when the broker wants one.' }), ''),
  password: withDefault(Type.String({ description: 'Password, when the broker wants one.' }), ''),
  clientId: withDefault(
    Type.String({
      description:
        'The MQTT client id; default: patchbay-<hub id or connection id>-<random>, a new one at every connect (published nowhere: leave it unset on hubs, R-AV3).',
    }),
    '',
  ),
  prefix: withDefault(
    Type.String({ minLength: 1, description: 'The first topic levels of every value, write and hub topic.' }),
    'patchbay',
  ),
  qos: withDefault(
    Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)], { description: 'QoS of values, writes and subscriptions.' }),
    1,
  ),
  ca: Type.Optional(Type.String({ onMachine: 'file', description: 'PEM file of the certificate authority for mqtts:// and wss://.' })),
  cert: Type.Optional(Type.String({ onMachine: 'file', description: 'PEM file of a client certificate.' })),
  key: Type.Optional(Type.String({ onMachine: 'file', description: "PEM file of the client certificate's key." })),
  keepalive: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 65535,
      description:
        'Seconds between pings; a hub that stops answering is declared gone after 1.5 times this. In a redundancy group (hub.group) 1 at most.',
    }),
    30,
  ),
  publish: withDefault(
    Type.Array(Type.String(), {
      description: "Address patterns of this hub's parameters to publish under <prefix>/<connection>/val/<parameter>.",
    }),
    [],
  ),
  homeAssistant: Type.Optional(
    Type.Object(
      {
        expose: Type.Array(Type.String(), {
          minItems: 1,
          description:
            'Address patterns of the parameters Home Assistant finds (each a switch, binary_sensor, number, sensor, text or button); they are published as `publish` would, and commands are writes under `setAccess` (which `expose` does not widen: list them there to let Home Assistant change them).',
        }),
        prefix: withDefault(Type.String({ minLength: 1, description: "Home Assistant's discovery prefix." }), 'homeassistant'),
      },
      {
        additionalProperties: false,
        description:
          'Announce parameters to Home Assistant by MQTT discovery (R-DS3): a retained config each, removed when the parameter goes.',
      },
    ),
  ),
  setAccess: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Address patterns of the parameters a message on <prefix>/<connection>/set/<parameter> may write; default: what `publish` matches.',
    }),
  ),
  limits: withDefault(
    Type.Object(
      {
        payloadBytes: withDefault(
          Type.Integer({
            minimum: 1024,
            description:
              "The largest message taken from the broker; larger ones are dropped. A hub's description may add 256 bytes per parameter of parametersPerHub.",
          }),
          65_536,
        ),
        hubs: withDefault(Type.Integer({ minimum: 1, description: 'Other hubs shown at most; more are ignored.' }), 32),
        connectionsPerHub: withDefault(Type.Integer({ minimum: 1, description: 'Connections shown of one other hub at most.' }), 256),
        parametersPerHub: withDefault(Type.Integer({ minimum: 1, description: 'Parameters shown of one other hub at most.' }), 100_000),
        heldValues: withDefault(
          Type.Integer({
            minimum: 0,
            description: 'Values held for parameters not shown yet (their description not in yet); each is dropped after 60 s.',
          }),
          10_000,
        ),
      },
      {
        additionalProperties: false,
        description:
          'Bounds on what the broker sends. Past one, what is over is dropped, counted in /metrics, and the connection is degraded with the reason.',
      },
    ),
    {},
  ),
  topics: withDefault(
    Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'The parameter id: <this connection>/<id>.' }),
          topic: Type.String({ description: 'The topic whose payload is the value (no wildcards).' }),
          type: valueTypeSetting("The parameter's type; the payload is converted to it."),
          access: Type.Optional(
            Type.Union([Type.Literal('read-only'), Type.Literal('read-write'), Type.Literal('write-only')], {
              description: 'Default: read-only, or read-write when a commandTopic is given.',
            }),
          ),
          commandTopic: Type.Optional(
            Type.String({ description: 'Where writes are published; default: `topic`. Gives read-write access by default.' }),
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'Broker topics as parameters of this connection.' },
    ),
    [],
  ),
  hub: Type.Optional(
    Type.Object(
      {
        id: Type.String({ pattern: '^[a-z0-9-]{1,64}$', description: "This hub's id among the hubs on the broker: a-z 0-9 -." }),
        share: Type.Array(Type.String(), { description: "Address patterns of this hub's parameters the other hubs see." }),
        group: Type.Optional(
          Type.String({
            pattern: '^[a-z0-9-]{1,64}$',
            description:
              'A redundancy group (R-B1): the hubs with the same group run the same flow file; one is active (it runs every connection), the others standby (they show the active one and take over within 5 s when it is gone).',
          }),
        ),
        failover: withDefault(
          Type.Union([Type.Literal('auto'), Type.Literal('manual')], {
            description:
              'In a group: "auto" takes over as soon as the active hub is gone; "manual" waits for an operator (POST /failover or the console) (R-B5).',
          }),
          'auto',
        ),
        members: Type.Optional(
          Type.Array(Type.String({ pattern: '^[a-z0-9-]{1,64}$' }), {
            minItems: 1,
            uniqueItems: true,
            description:
              "In a group: the ids of its hubs. Role records of any other hub naming the group are ignored (and counted), whoever signed them; this hub's id must be one of them. Without it, every holder of the site key that names the group is one of its hubs.",
          }),
        ),
        voters: Type.Optional(
          Type.Record(
            Type.String({ pattern: '^[a-z0-9-]{1,64}$' }),
            Type.String({
              pattern: '^(\\[[0-9a-fA-F:.]+\\]|[^:\\s]+):[0-9]{1,5}$',
              description: 'host:port (UDP) where it votes.',
              expected: 'host:port, as 10.0.0.10:17070 or [fe80::1]:17070',
            }),
            {
              description:
                'In a group: who decides which hub drives, by id, each with the host:port (UDP) it votes on: every hub of members and, with two hubs, a witness (patchbay witness). An odd number, at least three. A majority of them keeps a hub active, without the broker; without voters the broker decides (R-AV1, R-AV2).',
            },
          ),
        ),
        coordinator: Type.Optional(
          Type.Object(
            {
              etcd: Type.Object(
                {
                  endpoints: Type.Array(
                    Type.String({
                      pattern: '^https?://[^\\s/]+$',
                      description: "An etcd member's client URL.",
                      expected: 'http://host:port, as http://10.0.0.21:2379',
                    }),
                    {
                      minItems: 1,
                      uniqueItems: true,
                      description: 'The client URLs of the etcd members (etcd API v3; 3.4 is the one tested).',
                    },
                  ),
                  leaseMs: withDefault(
                    Type.Integer({
                      minimum: 1000,
                      maximum: 60_000,
                      description:
                        'How long the active hub holds the role after its last keep-alive etcd answered: about the takeover time after it is gone. etcd grants whole seconds, 2 at least.',
                    }),
                    2000,
                  ),
                  prefix: withDefault(
                    Type.String({ minLength: 1, description: "The keys of the group's election go under <prefix><group>/." }),
                    '/patchbay/',
                  ),
                },
                {
                  additionalProperties: false,
                  description: 'The etcd cluster that elects the driver, and how long a driver holds the role.',
                },
              ),
            },
            {
              additionalProperties: false,
              description:
                "In a group: an etcd cluster decides which hub drives, for a group of any number of hubs, instead of the broker or voters (R-EG1). The election's revision is the fencing token (R-EG2).",
            },
          ),
        ),
        key: Type.Optional(
          Type.Union(
            [
              Type.Object(
                { file: Type.String({ minLength: 1, onMachine: 'file', description: 'A file holding the key.' }) },
                { additionalProperties: false },
              ),
              Type.Object(
                { env: Type.String({ minLength: 1, onMachine: 'environment', description: 'An environment variable holding the key.' }) },
                { additionalProperties: false },
              ),
            ],
            {
              description:
                'The site key every hub on the broker holds (at least 32 characters: `openssl rand -hex 32` makes 64): it signs what hubs publish. Never inline.',
              expected: SITE_KEY_EXPECTED,
            },
          ),
        ),
      },
      { additionalProperties: false, description: 'Shares connections with the other hubs on the broker (R-M5).' },
    ),
  ),
});

/** `homeAssistant` once parsed: which parameters are announced, under which prefix (see home-assistant.ts). */
export interface HomeAssistantSettings {
  readonly expose: { matches(address: string): boolean };
  /** The discovery prefix Home Assistant listens on. */
  readonly prefix: string;
}

export interface MqttSettings {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly clientId: string;
  readonly qos: 0 | 1 | 2;
  readonly layout: TopicLayout;
  readonly files: { readonly ca?: string; readonly cert?: string; readonly key?: string };
  readonly keepalive: number;
  readonly publish: AddressPatterns;
  /** What `set` topics may write. */
  readonly setAccess: AddressPatterns;
  readonly limits: Limits;
  readonly topics: readonly MappedTopic[];
  readonly hub: HubSettings | undefined;
  /** Home Assistant discovery (R-DS3); undefined when the flow does not ask for it. */
  readonly homeAssistant: HomeAssistantSettings | undefined;
}

export type Limits = Parsed<typeof mqttSettings>['limits'];

const SCHEMES = ['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:', 'ssl:'];

export function parseMqttSettings(
  {
    url,
    username,
    password,
    clientId,
    prefix,
    qos,
    ca,
    cert,
    key,
    keepalive,
    publish,
    setAccess,
    limits,
    topics,
    hub,
    homeAssistant,
  }: Parsed<typeof mqttSettings>,
  { baseDir }: ParseContext,
): Checked<MqttSettings> {
  const issues: Issue[] = [];
  let scheme = '';
  try {
    scheme = new URL(url).protocol;
  } catch {
    issues.push({ path: ['url'], message: `"${url}" is not a URL` });
  }
  if (scheme && !SCHEMES.includes(scheme))
    issues.push({ path: ['url'], message: `expected mqtt://, mqtts://, ws:// or wss://, not ${scheme}//` });
  const topicLevels = (levels: string, path: string[]) => {
    if (/[+#]/.test(levels) || levels.startsWith('/') || levels.endsWith('/'))
      issues.push({ path, message: 'expected topic levels without + or #, not starting or ending with /' });
  };
  topicLevels(prefix, ['prefix']);
  const patterns = (list: readonly string[], path: (string | number)[]) => {
    const compiled = AddressPatterns.compile(list);
    if (!compiled.ok) issues.push({ path, message: compiled.error.message });
    return compiled.ok ? compiled.value : undefined;
  };
  // What Home Assistant is shown is published: its entities read the value topics.
  const published = patterns([...publish, ...(homeAssistant?.expose ?? [])], ['publish']);
  const exposed = homeAssistant ? patterns(homeAssistant.expose, ['homeAssistant', 'expose']) : undefined;
  if (homeAssistant) topicLevels(homeAssistant.prefix, ['homeAssistant', 'prefix']);
  // Shown to Home Assistant is not yet writable from it: everyone on the broker may send its commands.
  const writable = patterns(setAccess ?? publish, ['setAccess']);
  const shared = hub ? patterns(hub.share, ['hub', 'share']) : undefined;
  // The active hub of a group answers a write once the broker acknowledged the value: QoS 0 has no acknowledgement (R-B2).
  if (hub?.group !== undefined && qos === 0)
    issues.push({
      path: ['qos'],
      message: 'a redundancy group needs qos 1 or 2: the active hub answers a write once the broker acknowledged its value',
    });
  if (hub?.members && (hub.group === undefined || !hub.members.includes(hub.id)))
    issues.push({
      path: ['hub', 'members'],
      message:
        hub.group === undefined
          ? 'members lists the hubs of a redundancy group: set hub.group too'
          : `expected this hub's id (${hub.id}) among the members of its group`,
    });
  const voters = hub?.voters && votersOf(hub.voters, hub.id, hub.group, hub.members, issues);
  if (hub?.coordinator) coordinatorIssues(hub, issues);
  const mapped = topics.map(({ id, topic, type, access, commandTopic }, index): MappedTopic => {
    const idOk = checkParameterId(id);
    if (!idOk.ok) issues.push({ path: ['topics', index, 'id'], message: idOk.error.message });
    if (topics.findIndex((other) => other.id === id) < index)
      issues.push({ path: ['topics', index, 'id'], message: `"${id}" names another topic too` });
    for (const [key, value] of [
      ['topic', topic],
      ['commandTopic', commandTopic],
    ] as const) {
      if (value !== undefined && (value === '' || /[+#]/.test(value)))
        issues.push({ path: ['topics', index, key], message: 'expected a topic without wildcards (+, #)' });
    }
    const chosen: Access = access ?? (commandTopic === undefined ? Accesses.ReadOnly : Accesses.ReadWrite);
    return { id, topic, type: type as ValueType, access: chosen, commandTopic: commandTopic ?? topic };
  });
  const files = {
    ...(ca ? { ca: resolve(baseDir, ca) } : {}),
    ...(cert ? { cert: resolve(baseDir, cert) } : {}),
    ...(key ? { key: resolve(baseDir, key) } : {}),
  };
  return checked(issues, {
    url,
    username,
    password,
    clientId,
    qos,
    layout: new TopicLayout(prefix),
    files,
    keepalive,
    publish: published!,
    setAccess: writable!,
    limits,
    topics: mapped,
    hub:
      hub && shared
        ? {
            id: hub.id,
            share: shared,
            group: hub.group,
            failover: hub.failover,
            members: hub.members,
            voters,
            coordinator: hub.coordinator,
            key: hub.key && ('file' in hub.key ? { file: resolve(baseDir, hub.key.file) } : hub.key),
          }
        : undefined,
    homeAssistant: homeAssistant && exposed ? { expose: exposed, prefix: homeAssistant.prefix } : undefined,
  });
}

/** What a broker may send past `limits`, by kind. */
export const OVERRUN_KINDS = ['payload', ...SITE_OVERRUN_KINDS] as const;
export type MqttOverruns = Overruns<(typeof OVERRUN_KINDS)[number]>;

/** What keeps an etcd coordinator from deciding (added to `issues`). */
function coordinatorIssues(
  hub: { readonly group?: string | undefined; readonly voters?: unknown; readonly failover: 'auto' | 'manual' },
  issues: Issue[],
): void {
  const at = (message: string) => issues.push({ path: ['hub', 'coordinator'], message });
  if (hub.group === undefined) at('a coordinator decides who drives a redundancy group: set hub.group too');
  if (hub.voters !== undefined) at('either voters or a coordinator decide who drives: not both');
  if (hub.failover === 'manual') at('with an etcd coordinator the election moves the role: failover "manual" is not there yet');
}

/** The voters as addresses, or the mistakes that keep them from deciding (added to `issues`). */
function votersOf(
  written: Readonly<Record<string, string>>,
  id: string,
  group: string | undefined,
  members: readonly string[] | undefined,
  issues: Issue[],
): HubSettings['voters'] {
  const at = (message: string, key?: string) => issues.push({ path: ['hub', 'voters', ...(key ? [key] : [])], message });
  const ids = Object.keys(written);
  if (group === undefined) at('voters decide who drives a redundancy group: set hub.group too');
  else if (!members) at('voters need hub.members, the hubs among them');
  else {
    for (const member of members) if (!(member in written)) at(`expected every member among the voters; ${member} is missing`);
    if (ids.length < 3 || ids.length % 2 === 0)
      at(`expected an odd number of voters, at least three (${ids.length}): with two hubs, add a witness (patchbay witness)`);
    if (!(id in written)) at(`expected this hub's id (${id}) among the voters`);
  }
  const addresses: Record<string, { host: string; port: number }> = {};
  for (const [voter, text] of Object.entries(written)) {
    const match = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d{1,5})$/.exec(text);
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65_535) at(`"${text}" is not host:port with a port from 1 to 65535`, voter);
    else addresses[voter] = { host: match[1] ?? match[2] ?? '', port };
  }
  return addresses;
}
