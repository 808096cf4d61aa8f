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
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ConnectionMetric, droppedMetric, Overruns } from '../../sdk/index.ts';
import { defineServingType } from '../serving.ts';
import { BrokerLink, shownUrl } from '../../broker/broker-link.ts';
import { loadSiteKey } from '../../broker/signing.ts';
import { GROUP_KEEPALIVE_S } from '../../site/group/timing.ts';
import type { Publishing } from '../../site/publishing.ts';
import { Site, siteTrust } from '../../site/site.ts';
import { Bridge } from './bridge.ts';
import { HomeAssistant, hasAnnounced, OFFLINE, ONLINE } from './home-assistant.ts';
import { type MqttSettings, mqttSettings, OVERRUN_KINDS, parseMqttSettings, SITE_KEY_EXPECTED } from './settings.ts';

/** Room for one parameter in a hub's description (its id, type and access), beyond `payloadBytes`. */
const DESCRIBED_PARAMETER_BYTES = 256;

export const mqttType = defineServingType({
  type: 'mqtt',
  // It carries the redundancy group: a standby hub runs it too.
  runsOnStandby: true,
  summary: 'An MQTT broker: publishes parameters, maps topics to parameters, and lets hubs share their connections.',
  settings: mqttSettings,
  parse: parseMqttSettings,
  // Sharing a broker shows the connections of the other hubs, known only once they speak.
  discovers: (settings) => ({ connections: settings.hub !== undefined }),
  redundancyGroup: (settings) => settings.hub?.group,
  // Sharing without a site key would trust every client of the broker as a hub.
  diagnose: ({ hub }) => {
    if (!hub) return [];
    if (!hub.key)
      return [
        {
          path: ['hub', 'key'],
          message: `expected the site key that signs what the hubs publish: ${SITE_KEY_EXPECTED}`,
        },
      ];
    const key = loadSiteKey(hub.key);
    return key.ok ? [] : [{ path: ['hub', 'key'], message: key.error.message }];
  },
  // It shares the hub's connections with other hubs and shows theirs here.
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
      name: 'patchbay_mqtt_refused_writes_total',
      help: 'Writes on set topics the connection refused: a payload that does not convert, a parameter not published, read-only or unknown.',
      kind: 'counter',
      samples: (details) => [{ value: Number(details['refusedWrites'] ?? 0) }],
    },
    droppedMetric(
      'patchbay_mqtt_dropped_messages_total',
      "What an mqtt connection dropped from the broker: unverified (no valid signature of a hub), replayed (a hub's message taken before, or bound to another hub or session), refused (a role record the group's rules do not allow), or past one of its limits.",
      'reason',
    ),
    groupGauge(
      'patchbay_group_active',
      'In a redundancy group: 1 while this hub is the active hub (it drives the devices), 0 while it is a standby.',
      (group) => (group.role === 'active' ? 1 : 0),
    ),
    groupGauge(
      'patchbay_group_epoch',
      'In a redundancy group: the latest epoch of its lease this hub knows; it grows by one at each takeover.',
      (group) => Number(group.epoch ?? 0),
    ),
    voterGauge(
      'patchbay_group_voter_reached',
      'In a redundancy group with voters: 1 for each voter that answered this hub within the last second, 0 for one that did not.',
      'reached',
    ),
    voterGauge(
      'patchbay_group_voter_granted',
      'In a redundancy group with voters: 1 for each voter whose last answer granted this hub the lease (the active hub has a majority of them), 0 otherwise.',
      'granted',
    ),
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
    let site: Site | undefined;
    let homeAssistant: HomeAssistant | undefined;
    // Without `hub`, Home Assistant reads a topic of this connection's own, which its last will clears.
    const ownAvailability = settings.homeAssistant && !settings.hub ? settings.layout.availability(context.id) : undefined;
    const overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    return {
      async start() {
        const { layout, hub, files } = settings;
        const read = (file: string | undefined) => (file ? readFileSync(file) : undefined);
        const [ca, cert, key] = [read(files.ca), read(files.cert), read(files.key)];
        // A new random id at every connect, published nowhere: no reader of the broker can take a hub's session (R-AV3).
        const clientId = () => settings.clientId || `patchbay-${hub?.id ?? context.id}-${randomBytes(12).toString('base64url')}`;
        const { payloadBytes, parametersPerHub } = settings.limits;
        // A hub's description lists every shared parameter: it may be larger than any value.
        const descriptionBytes = payloadBytes + parametersPerHub * DESCRIBED_PARAMETER_BYTES;
        const siteSettings = hub ? { ...settings, hub } : undefined;
        const trusted = siteSettings ? siteTrust(context, siteSettings) : undefined;
        const brokerLink = new BrokerLink(
          {
            url: settings.url,
            clientId,
            username: settings.username,
            password: settings.password,
            // In a group the broker must give up on a silent hub quickly: a standby takes over after that (R-B2).
            keepalive: hub?.group ? Math.min(settings.keepalive, GROUP_KEEPALIVE_S) : settings.keepalive,
            ...(ca ? { ca } : {}),
            ...(cert ? { cert } : {}),
            ...(key ? { key } : {}),
            ...(hub ? { will: Site.will(layout, hub.id) } : {}),
            ...(ownAvailability ? { will: { topic: ownAvailability, payload: OFFLINE } } : {}),
            syncTopic: (token) => layout.sync(token),
            maxPayload: payloadBytes,
            // A hub's description, and the records of a connection (scenes), may be larger than any value.
            maxPayloadOf: (topic) => {
              const kind = layout.hubTopic(topic)?.kind;
              return kind === 'connections' || kind === 'records' ? descriptionBytes : payloadBytes;
            },
            // Room for the topic and properties besides the payload.
            maxPacket: Math.max(payloadBytes, descriptionBytes) + 65_536,
            ...(trusted ? { signer: trusted.trust.signer } : {}),
          },
          context.log,
          context.scheduler,
          // The link reports the connection's status: `ok` once every retained message is in (degraded a while after an overrun).
          overruns.status,
        );
        link = brokerLink;
        const sharing = siteSettings && trusted ? new Site(context, siteSettings, brokerLink, trusted.trust, overruns) : undefined;
        site = sharing;
        // With voters the group decides without the broker: its vote runs from now, whatever the link does (R-AV1).
        if (sharing && trusted) await sharing.startVoting(trusted.key);
        // Without other hubs every connection in the graph is this hub's own.
        const alone: Publishing = {
          publishes: (parameter) => !parameter.mirrored && settings.publish.matches(parameter.address),
          isLocal: (connectionId) => context.graph.hasConnection(connectionId),
        };
        const published = new Bridge(context, settings, brokerLink, sharing?.publishing ?? alone);
        bridge = published;
        if (sharing) {
          sharing.share.publishingChanged$.subscribe((republish) => {
            published.review();
            for (const id of republish) published.republishConnection(id);
          });
          sharing.share.overwritten$.subscribe((address) => published.republish(address));
          sharing.bursts.settle$.subscribe((addresses) => {
            for (const address of addresses) published.republish(address);
          });
        }
        // Also when the option is gone: what it announced before is removed once connected.
        const announcing =
          settings.homeAssistant || hasAnnounced(context.records)
            ? new HomeAssistant(
                context,
                settings,
                settings.homeAssistant,
                brokerLink,
                hub
                  ? { topic: layout.presence(hub.id), template: "{{ 'online' if value_json.online else 'offline' }}" }
                  : { topic: layout.availability(context.id) },
                hub?.id ?? context.id,
              )
            : undefined;
        homeAssistant = announcing;
        await brokerLink.start({
          subscriptions: () => ({ ...published.subscriptions(), ...sharing?.subscriptions() }),
          message: (topic, payload, properties) => {
            if (sharing?.message(topic, payload, properties)) return;
            published.message(topic, payload, properties);
          },
          up: () => {
            sharing?.up();
            published.up();
            if (ownAvailability) brokerLink.publish(ownAvailability, ONLINE, { qos: settings.qos, retain: true }, 'drop');
            announcing?.connected();
          },
          down: (reason) => {
            sharing?.down(reason);
            announcing?.disconnected();
          },
          tooLarge: (topic, size, limit) => overruns.dropped('payload', `a message of ${size} bytes on ${topic} is over ${limit} bytes`),
        });
      },
      async stop() {
        overruns.stop();
        bridge?.stop();
        homeAssistant?.stop();
        const gone = ownAvailability ? [{ topic: ownAvailability, payload: OFFLINE, options: { qos: settings.qos, retain: true } }] : [];
        const last = [...(site?.stop() ?? []), ...gone];
        await link?.stop(last);
        link = undefined;
        bridge = site = homeAssistant = undefined;
      },
      details: () => ({
        url: shownUrl(settings.url),
        up: link?.up ?? false,
        published: link?.counts.published ?? 0,
        received: link?.counts.received ?? 0,
        refusedWrites: bridge?.refusedWrites ?? 0,
        dropped: { ...overruns.counts },
        ...(settings.hub ? { hub: settings.hub.id, ...site?.details() } : {}),
      }),
    };
  },
});

/** A gauge of each voter of the hub's group, from `details.redundancy.voters`; no sample without voters. */
function voterGauge(name: string, help: string, field: 'reached' | 'granted'): ConnectionMetric {
  return {
    name,
    help,
    kind: 'gauge',
    labelNames: ['group', 'voter'],
    samples: (details) => {
      const group = details['redundancy'] as
        | { group?: string; voters?: Record<string, { reached: boolean; granted: boolean }> }
        | undefined;
      const name = group?.group;
      if (!name || !group.voters) return [];
      return Object.entries(group.voters).map(([voter, seen]) => ({ labels: { group: name, voter }, value: seen[field] ? 1 : 0 }));
    },
  };
}

/** A gauge of the hub's redundancy group, from the connection's `details.redundancy`; no sample outside a group. */
function groupGauge(name: string, help: string, value: (group: { role?: string; epoch?: number }) => number): ConnectionMetric {
  return {
    name,
    help,
    kind: 'gauge',
    labelNames: ['group'],
    samples: (details) => {
      const group = details['redundancy'] as { group?: string; role?: string; epoch?: number } | undefined;
      return group?.group ? [{ labels: { group: group.group }, value: value(group) }] : [];
    },
  };
}
