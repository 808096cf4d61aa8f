/**
 * One MQTT.js client to one broker, kept up for as long as the connection runs (R-M4): a
 * `DeviceLink` reconnects it with backoff forever and reports the connection's status, and
 * after every connect it subscribes, waits until
 * every retained message has arrived (a marker it sends itself comes back last), lets its
 * owner publish what the broker must have again, and only then counts as up. Messages
 * that must not be lost while the broker is away are kept, the latest per topic, and sent
 * once it is back: nothing stale, nothing replayed.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Subscription } from 'rxjs';
import mqtt, { type IClientOptions, type IClientPublishOptions, type ISubscriptionMap, type MqttClient } from 'mqtt';
import { after, type ConnectionContext, DeviceLink, type LinkAttempt, type Logger, reasonOf, type Scheduler } from '../sdk/index.ts';
import { unfenced } from '../core/lease.ts';
import type { Signer } from './signing.ts';
import { Acknowledgements } from './acknowledgements.ts';
import { writeGatheredNow, writeOncePerTurn } from './turn-writes.ts';

/** The longest wait between two attempts to reach the broker. */
export const BROKER_RETRY_MS = 1000;

export interface LinkSettings {
  readonly url: string;
  /** The client id of each new session. */
  readonly clientId: () => string;
  readonly username: string;
  readonly password: string;
  readonly keepalive: number;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  /** The last will, for hubs sharing the broker: their presence (R-M5). */
  readonly will?: { readonly topic: string; readonly payload: string };
  /** Where the marker of a session goes (a random token names it, not the client id); the link subscribes to it. */
  readonly syncTopic: (token: string) => string;
  /** The largest payload taken; the broker is asked not to send packets over `maxPacket` at all. */
  readonly maxPayload: number;
  /** A larger bound for some topics (a hub's description), asked only of messages over `maxPayload`. */
  readonly maxPayloadOf?: (topic: string) => number;
  readonly maxPacket: number;
  /** Signs every message it publishes, for hubs sharing the broker. */
  readonly signer?: Signer;
}

export interface LinkOwner {
  /** What to subscribe to at every connect. */
  subscriptions(): ISubscriptionMap;
  message(topic: string, payload: Buffer, properties: MessageProperties): void;
  /** Connected and every retained message is in: publish what the broker must have again. */
  up(): void;
  /** The link is down (or never came up) for this reason; it is retrying. */
  down(reason: string): void;
  /** A message over `maxPayload` was dropped. */
  tooLarge(topic: string, size: number, limit: number): void;
}

export interface MessageProperties {
  readonly userProperties?: Readonly<Record<string, string | string[]>>;
  readonly responseTopic?: string;
  readonly correlationData?: Buffer;
}

/** What to do with a message published while the broker is away. */
export type WhileDown = 'drop' | 'keep';

interface Kept {
  readonly payload: string;
  readonly options: IClientPublishOptions;
  readonly sent: ((error?: Error) => void)[];
}

export class BrokerLink {
  private client: MqttClient | undefined;
  private isUp = false;
  private stopped = false;
  /** The link's attempt now: told when the broker is up (every retained message in) and when it closed. */
  private attempt: LinkAttempt | undefined;
  private readonly link: DeviceLink;
  /** The marker of the latest connect: when it comes back, every retained message before it is in. */
  private pendingMarker = '';
  private pendingSync = '';
  private readonly kept = new Map<string, Kept>();
  private readonly acknowledgements = new Acknowledgements();
  /** What gathers messages within a turn (share/value-bursts.ts), sent before what says something was done. */
  private readonly gatherers: (() => void)[] = [];
  private lastReason = '';
  /** Who is told what the broker says: set once, at `start`, before any connect. */
  private owner: LinkOwner = { subscriptions: () => ({}), message: () => {}, up: () => {}, down: () => {}, tooLarge: () => {} };
  /** Messages handed to the broker and received from it since the start (`/metrics`). */
  readonly counts = { published: 0, received: 0 };

  constructor(
    private readonly settings: LinkSettings,
    private readonly log: Logger,
    private readonly scheduler: Scheduler,
    status: ConnectionContext['setStatus'],
  ) {
    this.link = new DeviceLink(
      { open: (attempt) => this.open(attempt), close: () => this.close() },
      {
        scheduler,
        status,
        unavailable: 'PB_BROKER_UNAVAILABLE',
        // The broker is how a hub learns whether it may drive devices, never fenced itself.
        fence: unfenced,
        // Hubs, bridges and dashboards all wait for it: a broker back after a restart is found within a second (MQTT.js's own pace).
        longestRetryMs: BROKER_RETRY_MS,
      },
    );
  }

  /** Why the broker cannot be reached, while it cannot. */
  get downReason(): string {
    return this.link.downReason;
  }

  get up(): boolean {
    return this.isUp;
  }

  /** Whether the broker speaks MQTT 5 (user properties, response topics, No Local). */
  get mqtt5(): boolean {
    return this.client?.options.protocolVersion === 5;
  }

  /**
   * Starts connecting, for `owner`: what uses the link is built before it starts, and handed
   * the link; the link tells the owner what the broker says. Resolves once up, or once the
   * first attempt failed (it goes on trying).
   */
  start(owner: LinkOwner): Promise<void> {
    this.owner = owner;
    return this.link.start();
  }

  /** One attempt of the link: the client's first connect, or a reconnect of it. */
  private open(attempt: LinkAttempt): void {
    this.attempt = attempt;
    if (this.client) {
      // Each session's will counts after all that session sent: signed again for the new one.
      if (this.client.options.will) this.client.options.will = this.will()!;
      // A session of its own: one who took the last one's id (and closed it) does not take this one.
      this.client.options.clientId = this.settings.clientId();
      return void this.client.reconnect();
    }
    const clientId = this.settings.clientId();
    const { url, username, password, keepalive, ca, cert, key, will } = this.settings;
    const options: IClientOptions = {
      clientId,
      keepalive,
      protocolVersion: 5,
      clean: true,
      // Reconnects are ours (with backoff), and so are subscriptions after them.
      reconnectPeriod: 0,
      resubscribe: false,
      connectTimeout: 10_000,
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      // The last will is a hub's presence like any other: signed.
      ...(will ? { will: this.will()! } : {}),
      // What is larger never leaves the broker.
      properties: { maximumPacketSize: this.settings.maxPacket },
      // MQTT.js says each step of each packet to `debug`, which costs a call and a check even
      // when nobody listens (3 % of a sharing hub's CPU): none unless DEBUG asks for mqttjs.
      ...(/mqttjs/.test(process.env['DEBUG'] ?? '') ? {} : { log: () => {} }),
    };
    const client = mqtt.connect(url, options);
    this.client = client;
    client.on('connect', () => {
      // Without it each round trip waits for Nagle's algorithm: ~40 ms instead of ~0.15 ms.
      (client.stream as Partial<Socket>).setNoDelay?.(true);
      writeOncePerTurn(client.stream);
      void this.synchronise(client);
    });
    client.on('message', (topic, payload, packet) => {
      this.received(topic, payload, packet.properties ?? {});
    });
    client.on('error', (error) => {
      const code = (error as { code?: unknown }).code;
      // A broker of MQTT 3.1.1 only: connect again in its protocol (hub sharing then says it needs 5).
      if ((code === 132 || code === 1) && client.options.protocolVersion === 5) client.options.protocolVersion = 4;
      this.lastReason = reasonOf(error);
    });
    client.on('close', () => this.closed());
  }

  /** Subscribes, sends the marker and waits for it: then every retained message is in. */
  private async synchronise(client: MqttClient): Promise<void> {
    const marker = randomBytes(12).toString('base64url');
    const syncTopic = this.settings.syncTopic(marker);
    this.pendingMarker = marker;
    this.pendingSync = syncTopic;
    try {
      await client.subscribeAsync({ ...this.owner.subscriptions(), [syncTopic]: { qos: 1 } });
      await client.publishAsync(syncTopic, marker, { qos: 1 });
    } catch (error) {
      this.log.debug(`subscribing failed: ${reasonOf(error)}`);
      client.stream.destroy();
    }
  }

  private received(topic: string, payload: Buffer, properties: MessageProperties): void {
    this.counts.received++;
    if (topic === this.pendingSync) {
      if (!this.isUp && payload.toString() === this.pendingMarker) this.cameUp();
      return;
    }
    if (payload.length > this.settings.maxPayload) {
      const limit = this.settings.maxPayloadOf?.(topic) ?? this.settings.maxPayload;
      if (payload.length > limit) return this.owner.tooLarge(topic, payload.length, limit);
    }
    try {
      this.owner.message(topic, payload, properties);
    } catch (error) {
      this.log.error(`message on ${topic} failed: ${reasonOf(error, { stack: true })}`);
    }
  }

  private cameUp(): void {
    this.isUp = true;
    this.lastReason = '';
    this.owner.up();
    const kept = [...this.kept];
    this.kept.clear();
    for (const [topic, { payload, options, sent }] of kept)
      this.send(topic, payload, options, (error) => sent.forEach((done) => done(error)));
    this.attempt?.up();
  }

  private closed(): void {
    const wasUp = this.isUp;
    this.isUp = false;
    this.acknowledgements.dropAll();
    if (this.stopped) return;
    const reason = `no connection to ${shownUrl(this.settings.url)}${this.lastReason ? ` (${this.lastReason})` : wasUp ? ' (the broker closed it)' : ''}`;
    this.owner.down(reason);
    this.attempt?.down(reason);
  }

  /**
   * Publishes now when up. While down, `keep` holds the message (the latest per topic
   * replaces an earlier one, whose `sent` is told when the latest goes) and `drop` drops
   * it: for what `up` publishes again anyway.
   */
  publish(topic: string, payload: string, options: IClientPublishOptions, whileDown: WhileDown, sent?: (error?: Error) => void): void {
    if (this.isUp) return this.send(topic, payload, options, sent);
    if (whileDown === 'drop') return;
    const before = this.kept.get(topic);
    // Deleted first, so the topic moves to the end: kept messages go in the order of their latest change.
    this.kept.delete(topic);
    this.kept.set(topic, { payload, options, sent: [...(before?.sent ?? []), ...(sent ? [sent] : [])] });
  }

  private send(topic: string, payload: string, options: IClientPublishOptions, sent?: (error?: Error) => void): void {
    const client = this.client;
    if (!client) return sent?.(new Error('the connection stopped'));
    this.counts.published++;
    if (!options.qos) {
      client.publish(topic, payload, this.signed(topic, payload, options), sent ? (error) => sent(error ?? undefined) : undefined);
      return;
    }
    const acknowledged = this.acknowledgements.expect();
    client.publish(topic, payload, this.signed(topic, payload, options), (error) => {
      acknowledged();
      sent?.(error ?? undefined);
    });
  }

  /**
   * `send` publishes what a part gathers within a turn. It is called before a wait for
   * acknowledgement and before an answer to a write, so that what was gathered goes first.
   */
  gathering(send: () => void): void {
    this.gatherers.push(send);
  }

  /** Publishes what is gathered now: what follows (an answer to a write) comes after it. */
  sendGathered(): void {
    for (const send of this.gatherers) send();
  }

  /** Hands the socket what this turn published so far, now: for what publishes as the turn ends. */
  writeNow(): void {
    if (this.client) writeGatheredNow(this.client.stream);
  }

  /**
   * Calls `done(true)` once the broker has acknowledged every message published so far
   * (QoS 1 and 2), at once when none waits; `done(false)` when the link closes first: what
   * was published then may not have reached the broker (R-B2).
   */
  whenAcknowledged(done: (acknowledged: boolean) => void): void {
    this.sendGathered();
    this.acknowledgements.whenAll(done, this.isUp);
  }

  /** The last will of a new session, signed when the link signs. */
  private will(): IClientOptions['will'] {
    const { will, signer } = this.settings;
    if (!will) return undefined;
    const signed = signer?.nextSession(will.topic, will.payload).userProperties;
    return {
      topic: will.topic,
      payload: Buffer.from(will.payload),
      qos: 1,
      retain: true,
      ...(signed ? { properties: { userProperties: signed } } : {}),
    };
  }

  /** The options with the message signed, when the link signs. */
  private signed(topic: string, payload: string, options: IClientPublishOptions): IClientPublishOptions {
    const { signer } = this.settings;
    return signer ? { ...options, properties: signer.sign(topic, payload, options.properties ?? {}) } : options;
  }

  /** Publishes the last messages (presence) and disconnects; gives up waiting after a second. */
  async stop(last: readonly { topic: string; payload: string; options: IClientPublishOptions }[] = []): Promise<void> {
    this.last = last;
    await this.link.stop();
  }

  private last: readonly { topic: string; payload: string; options: IClientPublishOptions }[] = [];

  private async close(): Promise<void> {
    const last = this.last;
    this.stopped = true;
    this.acknowledgements.dropAll();
    const client = this.client;
    this.client = undefined;
    for (const [, { sent }] of this.kept) sent.forEach((done) => done(new Error('the connection stopped')));
    this.kept.clear();
    if (!client) return;
    if (this.isUp) for (const { topic, payload, options } of last) client.publish(topic, payload, this.signed(topic, payload, options));
    this.isUp = false;
    let bounded: Subscription | undefined;
    const bound = new Promise<void>((resolve) => (bounded = after(this.scheduler, 1000, resolve)));
    await Promise.race([client.endAsync(!client.connected), bound]);
    bounded?.unsubscribe();
    if (client.connected || !client.disconnected) client.end(true);
  }
}

/** The broker's URL as reasons and logs show it: without the user and password it may carry. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
