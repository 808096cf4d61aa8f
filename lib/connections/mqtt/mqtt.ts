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
import { Overruns, type TypedInstance } from '../../sdk/index.ts';
import { defineServingType, type ServingContext } from '../serving.ts';
import { BrokerLink, type LinkOwner, shownUrl } from '../../broker/broker-link.ts';
import { loadSiteKey, type Signer } from '../../broker/signing.ts';
import { GROUP_KEEPALIVE_S } from '../../site/group/timing.ts';
import type { Publishing } from '../../site/publishing.ts';
import { Site, siteTrust } from '../../site/site.ts';
import { Bridge } from './bridge.ts';
import { HomeAssistant, hasAnnounced, OFFLINE, ONLINE } from './home-assistant.ts';
import { mqttMetrics } from './metrics.ts';
import { type MqttSettings, mqttSettings, OVERRUN_KINDS, parseMqttSettings, SITE_KEY_EXPECTED } from './settings.ts';

/** Room for one parameter in a hub's description (its id, type and access), beyond `payloadBytes`. */
const DESCRIBED_PARAMETER_BYTES = 256;

/** The files of a TLS link to the broker, read. */
interface TlsFiles {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

class MqttConnection implements TypedInstance<MqttSettings> {
  private link: BrokerLink | undefined;
  private bridge: Bridge | undefined;
  private site: Site | undefined;
  private homeAssistant: HomeAssistant | undefined;
  /** Without `hub`, Home Assistant reads a topic of this connection's own, which its last will clears. */
  private readonly ownAvailability: string | undefined;
  private readonly overruns: Overruns<(typeof OVERRUN_KINDS)[number]>;

  constructor(
    private readonly context: ServingContext,
    private readonly settings: MqttSettings,
  ) {
    this.ownAvailability = settings.homeAssistant && !settings.hub ? settings.layout.availability(context.id) : undefined;
    this.overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
  }

  async start(): Promise<void> {
    const { context, settings } = this;
    const files = readTlsFiles(settings.files);
    const siteSettings = settings.hub ? { ...settings, hub: settings.hub } : undefined;
    const trusted = siteSettings ? siteTrust(context, siteSettings) : undefined;
    const link = this.brokerLink(files, trusted?.trust.signer);
    this.link = link;
    const sharing = siteSettings && trusted ? new Site(context, siteSettings, link, trusted.trust, this.overruns) : undefined;
    this.site = sharing;
    // With voters the group decides without the broker: its vote runs from now, whatever the link does (R-AV1).
    if (sharing && trusted) await sharing.startVoting(trusted.key);
    const bridge = this.bridgeFor(link, sharing);
    this.bridge = bridge;
    const announcing = this.announcer(link);
    this.homeAssistant = announcing;
    await link.start(this.owner(link, bridge, sharing, announcing));
  }

  async stop(): Promise<void> {
    this.overruns.stop();
    this.bridge?.stop();
    this.homeAssistant?.stop();
    const { ownAvailability, settings } = this;
    const gone = ownAvailability ? [{ topic: ownAvailability, payload: OFFLINE, options: { qos: settings.qos, retain: true } }] : [];
    const last = [...(this.site?.stop() ?? []), ...gone];
    await this.link?.stop(last);
    this.link = undefined;
    this.bridge = this.site = this.homeAssistant = undefined;
  }

  details(): Readonly<Record<string, unknown>> {
    const { link, settings } = this;
    return {
      url: shownUrl(settings.url),
      up: link?.up ?? false,
      published: link?.counts.published ?? 0,
      received: link?.counts.received ?? 0,
      refusedWrites: this.bridge?.refusedWrites ?? 0,
      dropped: { ...this.overruns.counts },
      ...(settings.hub ? { hub: settings.hub.id, ...this.site?.details() } : {}),
    };
  }

  /** The link to the broker, its bounds made room for a hub's description, its last will the hub's presence or this connection's. */
  private brokerLink({ ca, cert, key }: TlsFiles, signer: Signer | undefined): BrokerLink {
    const { context, settings, ownAvailability } = this;
    const { layout, hub } = settings;
    // A new random id at every connect, published nowhere: no reader of the broker can take a hub's session (R-AV3).
    const clientId = () => settings.clientId || `patchbay-${hub?.id ?? context.id}-${randomBytes(12).toString('base64url')}`;
    const { payloadBytes, parametersPerHub } = settings.limits;
    // A hub's description lists every shared parameter: it may be larger than any value.
    const descriptionBytes = payloadBytes + parametersPerHub * DESCRIBED_PARAMETER_BYTES;
    return new BrokerLink(
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
        ...(signer ? { signer } : {}),
      },
      context.log,
      context.scheduler,
      // The link reports the connection's status: `ok` once every retained message is in (degraded a while after an overrun).
      this.overruns.status,
    );
  }

  /** The bridge of the hub's parameters and the broker's topics, told what the other hubs change when they share it. */
  private bridgeFor(link: BrokerLink, sharing: Site | undefined): Bridge {
    const { context, settings } = this;
    // Without other hubs every connection in the graph is this hub's own.
    const alone: Publishing = {
      publishes: (parameter) => !parameter.mirrored && settings.publish.matches(parameter.address),
      isLocal: (connectionId) => context.graph.hasConnection(connectionId),
    };
    const bridge = new Bridge(context, settings, link, sharing?.publishing ?? alone);
    if (sharing) {
      sharing.share.publishingChanged$.subscribe((republish) => {
        bridge.review();
        for (const id of republish) bridge.republishConnection(id);
      });
      sharing.share.overwritten$.subscribe((address) => bridge.republish(address));
      sharing.bursts.settle$.subscribe((addresses) => {
        for (const address of addresses) bridge.republish(address);
      });
    }
    return bridge;
  }

  /** Home Assistant's announcements, also when the option is gone: what it announced before is removed once connected. */
  private announcer(link: BrokerLink): HomeAssistant | undefined {
    const { context, settings } = this;
    const { layout, hub } = settings;
    if (!settings.homeAssistant && !hasAnnounced(context.records)) return undefined;
    return new HomeAssistant(
      context,
      settings,
      settings.homeAssistant,
      link,
      hub
        ? { topic: layout.presence(hub.id), template: "{{ 'online' if value_json.online else 'offline' }}" }
        : { topic: layout.availability(context.id) },
      hub?.id ?? context.id,
    );
  }

  /** What the link tells: the site first, when hubs share the broker, then the bridge and Home Assistant. */
  private owner(link: BrokerLink, bridge: Bridge, sharing: Site | undefined, announcing: HomeAssistant | undefined): LinkOwner {
    const { ownAvailability, settings } = this;
    return {
      subscriptions: () => ({ ...bridge.subscriptions(), ...sharing?.subscriptions() }),
      message: (topic, payload, properties) => {
        if (sharing?.message(topic, payload, properties)) return;
        bridge.message(topic, payload, properties);
      },
      up: () => {
        sharing?.up();
        bridge.up();
        if (ownAvailability) link.publish(ownAvailability, ONLINE, { qos: settings.qos, retain: true }, 'drop');
        announcing?.connected();
      },
      down: (reason) => {
        sharing?.down(reason);
        announcing?.disconnected();
      },
      tooLarge: (topic, size, limit) => this.overruns.dropped('payload', `a message of ${size} bytes on ${topic} is over ${limit} bytes`),
    };
  }
}

/** The TLS files `files` names, read as the connection starts. */
function readTlsFiles(files: MqttSettings['files']): TlsFiles {
  const read = (file: string | undefined) => (file ? readFileSync(file) : undefined);
  const [ca, cert, key] = [read(files.ca), read(files.cert), read(files.key)];
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

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
  metrics: mqttMetrics,
  create: (context, parsed: MqttSettings) => new MqttConnection(context, parsed),
});
