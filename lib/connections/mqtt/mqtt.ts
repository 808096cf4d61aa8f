/**
 * `mqtt`: the hub on an MQTT broker (R-M1–R-M6). Three jobs, each optional:
 *
 * - bridge out (`publish`): the hub's parameters that match go to
 *   `<prefix>/<connection>/val/<parameter>`, retained; `…/set/…` writes them;
 * - bridge in (`topics`): broker topics as typed parameters `<this connection>/<id>`;
 * - hubs sharing one broker (`hub`): every hub shows the connections of the others at the
 *   same addresses, and forwards writes to their owner.
 *
 * Parameters: one per entry of `topics`, `<connection id>/<id>`, of its type and access.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { AddressPatterns } from '../../core/address-pattern.ts';
import { checkParameterId } from '../../core/address.ts';
import type { Issue } from '../../core/issue.ts';
import { type Access, Access as Accesses } from '../../core/parameter.ts';
import type { ValueType } from '../../core/value.ts';
import { checked, defineConnectionType } from '../connection.ts';
import { BrokerLink } from './broker-link.ts';
import { Bridge, type MappedTopic, type Publishing } from './bridge.ts';
import { HubShare } from './hub-share.ts';
import { TopicLayout } from './topics.ts';

const settings = Type.Object({
  url: Type.String({ description: 'The broker: mqtt://host:1883, mqtts://host:8883, ws://host/path or wss://host/path.' }),
  username: Type.Optional(Type.String({ default: '', description: 'User name, when the broker wants one.' })),
  password: Type.Optional(Type.String({ default: '', description: 'Password, when the broker wants one.' })),
  clientId: Type.Optional(
    Type.String({ default: '', description: 'The MQTT client id; default: patchbay-<hub id or connection id>-<random>.' }),
  ),
  prefix: Type.Optional(
    Type.String({ default: 'patchbay', minLength: 1, description: 'The first topic levels of every value, write and hub topic.' }),
  ),
  qos: Type.Optional(
    Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)], {
      default: 1,
      description: 'QoS of values, writes and subscriptions.',
    }),
  ),
  ca: Type.Optional(
    Type.String({ description: 'PEM file of the certificate authority for mqtts:// and wss:// (relative to the flow file).' }),
  ),
  cert: Type.Optional(Type.String({ description: 'PEM file of a client certificate.' })),
  key: Type.Optional(Type.String({ description: "PEM file of the client certificate's key." })),
  keepalive: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 65535,
      default: 30,
      description: 'Seconds between pings; a hub that stops answering is declared gone after 1.5 times this.',
    }),
  ),
  publish: Type.Optional(
    Type.Array(Type.String(), {
      default: [],
      description:
        "Address patterns of this hub's parameters to publish (and to accept writes for) under <prefix>/<connection>/val|set/<parameter>.",
    }),
  ),
  topics: Type.Optional(
    Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'The parameter id: <this connection>/<id>.' }),
          topic: Type.String({ description: 'The topic whose payload is the value (no wildcards).' }),
          type: Type.Union([Type.Literal('S'), Type.Literal('B'), Type.Literal('I'), Type.Literal('F'), Type.Literal('T')], {
            description: "The parameter's type; the payload is converted to it.",
          }),
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
      { default: [], description: 'Broker topics as parameters of this connection.' },
    ),
  ),
  hub: Type.Optional(
    Type.Object(
      {
        id: Type.String({ pattern: '^[a-z0-9-]{1,64}$', description: "This hub's id among the hubs on the broker: a-z 0-9 -." }),
        share: Type.Array(Type.String(), { description: "Address patterns of this hub's parameters the other hubs see." }),
      },
      { additionalProperties: false, description: 'Shares connections with the other hubs on the broker (R-M5).' },
    ),
  ),
});

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
  readonly topics: readonly MappedTopic[];
  readonly hub: { readonly id: string; readonly share: AddressPatterns } | undefined;
}

const SCHEMES = ['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:', 'ssl:'];

export const mqttConnection = defineConnectionType({
  type: 'mqtt',
  summary: 'An MQTT broker: publishes parameters, maps topics to parameters, and lets hubs share their connections.',
  settings,
  parse(
    {
      url,
      username = '',
      password = '',
      clientId = '',
      prefix = 'patchbay',
      qos = 1,
      ca,
      cert,
      key,
      keepalive = 30,
      publish = [],
      topics = [],
      hub,
    },
    { baseDir },
  ) {
    const issues: Issue[] = [];
    let scheme = '';
    try {
      scheme = new URL(url).protocol;
    } catch {
      issues.push({ path: ['url'], message: `"${url}" is not a URL` });
    }
    if (scheme && !SCHEMES.includes(scheme))
      issues.push({ path: ['url'], message: `expected mqtt://, mqtts://, ws:// or wss://, not ${scheme}//` });
    if (/[+#]/.test(prefix) || prefix.startsWith('/') || prefix.endsWith('/'))
      issues.push({ path: ['prefix'], message: 'expected topic levels without + or #, not starting or ending with /' });
    const patterns = (list: readonly string[], path: (string | number)[]) => {
      const compiled = AddressPatterns.compile(list);
      if (!compiled.ok) issues.push({ path, message: compiled.error.message });
      return compiled.ok ? compiled.value : undefined;
    };
    const published = patterns(publish, ['publish']);
    const shared = hub ? patterns(hub.share, ['hub', 'share']) : undefined;
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
      topics: mapped,
      hub: hub && shared ? { id: hub.id, share: shared } : undefined,
    });
  },
  // Sharing a broker shows the connections of the other hubs, known only once they speak.
  discovers: (settings) => ({ connections: settings.hub !== undefined }),
  // It shares the hub's connections with other hubs and shows theirs here.
  servesHub: true,
  metrics: [
    {
      name: 'patchbay_mqtt_connected',
      help: '1 while an mqtt connection is connected to its broker with every retained message in, 0 while it reconnects.',
      kind: 'gauge',
      samples: (details) => [{ value: details['up'] === true ? 1 : 0 }],
    },
    {
      name: 'patchbay_mqtt_messages_total',
      help: 'Messages an mqtt connection published to its broker and received from it.',
      kind: 'counter',
      labelNames: ['direction'],
      samples: (details) =>
        (['published', 'received'] as const).map((direction) => ({ labels: { direction }, value: Number(details[direction] ?? 0) })),
    },
    {
      name: 'patchbay_mqtt_hubs',
      help: 'Other hubs an mqtt connection with `hub` knows on its broker, by presence.',
      kind: 'gauge',
      labelNames: ['state'],
      samples: (details) => {
        const hubs = details['hubs'];
        if (hubs === undefined || hubs === null || typeof hubs !== 'object') return [];
        const online = Object.values(hubs as Record<string, { online?: boolean }>).filter((h) => h.online === true).length;
        return [
          { labels: { state: 'online' }, value: online },
          { labels: { state: 'away' }, value: Object.keys(hubs).length - online },
        ];
      },
    },
  ],
  create(context, settings: MqttSettings) {
    let link: BrokerLink | undefined;
    let bridge: Bridge | undefined;
    let share: HubShare | undefined;
    return {
      async start() {
        const { layout, hub, files } = settings;
        const read = (file: string | undefined) => (file ? readFileSync(file) : undefined);
        const [ca, cert, key] = [read(files.ca), read(files.cert), read(files.key)];
        const clientId = settings.clientId || `patchbay-${hub?.id ?? context.id}-${Math.random().toString(16).slice(2, 10)}`;
        link = new BrokerLink(
          {
            url: settings.url,
            clientId,
            username: settings.username,
            password: settings.password,
            keepalive: settings.keepalive,
            ...(ca ? { ca } : {}),
            ...(cert ? { cert } : {}),
            ...(key ? { key } : {}),
            ...(hub ? { will: HubShare.will(layout, hub.id) } : {}),
            syncTopic: layout.sync(clientId),
          },
          {
            subscriptions: () => ({ ...bridge?.subscriptions(), ...share?.subscriptions() }),
            message: (topic, payload, properties) => {
              if (share?.message(topic, payload, properties)) return;
              bridge?.message(topic, payload, properties);
            },
            up: () => {
              share?.up();
              bridge?.up();
            },
            down: (reason) => share?.down(reason),
          },
          context.log,
          context.scheduler,
          // The link reports the connection's status: `ok` once every retained message is in.
          context.setStatus,
        );
        // Without other hubs every connection in the graph is this hub's own.
        const alone: Publishing = {
          publishes: (parameter) => !parameter.remote && settings.publish.matches(parameter.address),
          isLocal: (connectionId) => context.graph.hasConnection(connectionId),
        };
        if (hub) share = new HubShare(context, settings, hub, link, settings.publish);
        const published = new Bridge(context, settings, link, share ?? alone);
        bridge = published;
        if (share) {
          share.onPublishingChanged = (republish) => {
            published.review();
            for (const id of republish) published.republishConnection(id);
          };
        }
        await link.start();
      },
      async stop() {
        bridge?.stop();
        const last = share?.stop() ?? [];
        await link?.stop(last);
        link = undefined;
        bridge = share = undefined;
      },
      details: () => ({
        url: settings.url,
        up: link?.up ?? false,
        published: link?.counts.published ?? 0,
        received: link?.counts.received ?? 0,
        ...(settings.hub ? { hub: settings.hub.id, ...share?.details() } : {}),
      }),
    };
  },
});
