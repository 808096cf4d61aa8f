/**
 * Hubs sharing one broker (R-M5, R-M6). One owner per connection: the hub that runs it
 * publishes its values (the bridge does) and, retained under `$hub/<hub id>/connections`,
 * its type, status and parameters; its presence is retained under `$hub/<hub id>` and its
 * last will says when it is gone. Every other hub mirrors those connections at the same
 * addresses: values follow the owner's value topics, writes go to the owner's write
 * topics with a response topic, and the writer is told the owner's answer.
 *
 * Every message a hub publishes is signed with the site key (signing.ts); what does not
 * verify is dropped and counted, and a hub whose own presence, description or values someone
 * else overwrote on the broker puts them back at once.
 *
 * Who owns an id that two hubs run is what the broker ordered: each hub hears its own claims
 * come back (its `$hub` subscription has no No Local), so a claim is confirmed once it came
 * back before any other hub's claim of the id, and lost when another's came first — both
 * hubs hear the two in the same order. The loser fails its own connection with
 * PB_CONNECTION_OWNED and withdraws its claim; the owner publishes its values again. A claim
 * only ever fails a connection this hub shares: never its rest-api, its mqtt connection or a
 * connection with nothing shared.
 *
 * This file keeps who owns what, and takes what the site (site.ts) hands it of the other
 * hubs' descriptions, presence, values and answers.
 */
import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import { type Observable, Subject, type Subscription } from 'rxjs';
import { afterTurn } from '../../sdk/index.ts';
import type { SiteContext } from '../hub-port.ts';
import type { BrokerLink, MessageProperties } from '../../broker/broker-link.ts';
import { counterOf } from '../../broker/signing.ts';
import type { TopicLayout } from '../../broker/topics.ts';
import type { RedundancyGroup } from '../group/group.ts';
import type { SiteChecks } from '../peers/checks.ts';
import type { Corrections } from '../peers/corrections.ts';
import type { OtherHub, SharedConnection } from '../peers/description.ts';
import type { OtherHubs } from '../peers/others.ts';
import type { SiteSettings } from '../settings.ts';
import type { Claims, SharedParameters } from './claims.ts';
import type { EarlyValues } from './early-values.ts';
import type { Mirrors } from './mirrors.ts';
import type { PublishingRules } from './publishing-rules.ts';
import type { RemoteWrites } from './remote-writes.ts';
import { Tokens } from './tokens.ts';
import { readBurst } from './value-bursts.ts';

/** The parts below the share that the site builds and hands it. */
export interface ShareParts {
  readonly checks: SiteChecks;
  readonly corrections: Corrections;
  readonly otherHubs: OtherHubs;
  readonly claims: Claims;
  readonly early: EarlyValues;
  readonly mirrors: Mirrors;
  readonly writes: RemoteWrites;
  readonly rules: PublishingRules;
  /** This hub's redundancy group, when it is in one. */
  readonly group: RedundancyGroup | undefined;
}

export class SiteShare {
  private readonly others: ReadonlyMap<string, OtherHub>;
  private readonly checks: SiteChecks;
  private readonly corrections: Corrections;
  private readonly otherHubs: OtherHubs;
  private readonly claims: Claims;
  private readonly early: EarlyValues;
  private readonly mirrors: Mirrors;
  private readonly writes: RemoteWrites;
  private readonly rules: PublishingRules;
  private readonly group: RedundancyGroup | undefined;
  private lastMeta = '';
  private reviewQueued = false;
  private readonly watches: Subscription;
  private readonly publishing = new Subject<readonly string[]>();
  private readonly overwritten = new Subject<string>();
  /** Emits when what this hub publishes changed (a claim was lost or won), with the connections to publish again. */
  readonly publishingChanged$: Observable<readonly string[]> = this.publishing.asObservable();
  /** Emits the address of a parameter whose value someone else published on its value topic: publish it again. */
  readonly overwritten$: Observable<string> = this.overwritten.asObservable();

  constructor(
    private readonly context: SiteContext,
    private readonly settings: SiteSettings,
    private readonly link: BrokerLink,
    parts: ShareParts,
  ) {
    ({
      checks: this.checks,
      corrections: this.corrections,
      otherHubs: this.otherHubs,
      claims: this.claims,
      early: this.early,
      mirrors: this.mirrors,
      writes: this.writes,
      rules: this.rules,
      group: this.group,
    } = parts);
    this.others = this.otherHubs.byId;
    const review = () => this.queueReview();
    this.watches = context.hub.connectionChanges$.subscribe(review);
    this.watches.add(context.graph.added$.subscribe(review));
    this.watches.add(context.graph.removed$.subscribe(review));
    this.watches.add(context.graph.tables$.subscribe(review));
    // Taking over or standing down changes whose connections this hub shows, and what it shares.
    if (this.group)
      this.watches.add(
        this.group.roleChanges$.subscribe(() => {
          this.ownersChanged();
          this.queueReview();
        }),
      );
  }

  private get hub() {
    return this.settings.hub;
  }

  private get layout(): TopicLayout {
    return this.settings.layout;
  }

  subscriptions(): ISubscriptionMap {
    const { qos } = this.settings;
    // Its own values need not come back (MQTT 5 No Local); its own hub messages must: their
    // order among the others' decides who claimed an id first.
    return {
      [this.layout.values]: { qos, nl: true },
      [this.layout.bursts]: { qos, nl: true },
      [this.layout.hubs]: { qos },
    };
  }

  /** Connected, every retained message in: say this hub is here, and what it runs. */
  up(): void {
    if (!this.link.mqtt5) {
      this.context.log.error('sharing connections with other hubs needs a broker that speaks MQTT 5; this one does not');
      return;
    }
    this.checks.newSession(this.context.scheduler.now());
    this.publishPresence();
    this.lastMeta = '';
    this.review();
    this.mirrors.showAll();
  }

  private publishPresence(): void {
    const presence = JSON.stringify({ online: true, session: this.checks.session });
    this.link.publish(this.layout.presence(this.hub.id), presence, { qos: 1, retain: true }, 'drop');
  }

  down(reason: string): void {
    this.mirrors.down(reason);
  }

  /** Stops sharing; what to publish before disconnecting: this hub is gone. */
  stop(): { topic: string; payload: string; options: IClientPublishOptions }[] {
    this.watches.unsubscribe();
    this.mirrors.closeAll();
    return [{ topic: this.layout.presence(this.hub.id), payload: JSON.stringify({ online: false }), options: { qos: 1, retain: true } }];
  }

  details(): Record<string, unknown> {
    return {
      hubs: Object.fromEntries(
        [...this.others].map(([id, other]) => [id, { online: other.online, connections: [...other.connections.keys()] }]),
      ),
      shared: this.claims.ids(),
      held: this.early.size,
    };
  }

  private queueReview(): void {
    if (this.reviewQueued) return;
    this.reviewQueued = true;
    afterTurn(() => {
      this.reviewQueued = false;
      if (this.link.up) this.review();
    });
  }

  /** Decides the claims against what this hub shares now, and publishes its description. */
  private review(): void {
    const shared = this.sharedParameters();
    this.claims.sharing(shared.keys());
    this.ownersChanged();
    this.publishMeta(this.ownMeta(shared));
  }

  /** `[id, type, access]` of each shared parameter, by connection: one pass over the graph, not one per connection. */
  private sharedParameters(): SharedParameters {
    const shared: SharedParameters = new Map();
    for (const p of this.context.graph.all()) {
      if (!this.rules.sharesWithHubs(p) || p.connectionId === this.context.id) continue;
      const list = shared.get(p.connectionId) ?? [];
      list.push([p.id, p.type, p.access]);
      shared.set(p.connectionId, list);
    }
    return shared;
  }

  /** This hub's shared connections as the others read them; claims what it shares for the first time. */
  private ownMeta(shared = this.sharedParameters()): SharedConnection[] {
    const local = this.context.hub
      .connections()
      .filter((c) => this.mirrors.isLocal(c.id) && c.id !== this.context.id && !this.claims.refused.has(c.id));
    return this.claims.describe(shared, local);
  }

  private publishMeta(described = this.ownMeta()): void {
    const meta = JSON.stringify({ hub: this.hub.id, connections: described });
    if (meta === this.lastMeta || !this.link.up) return;
    this.lastMeta = meta;
    this.link.publish(this.layout.connections(this.hub.id), meta, { qos: 1, retain: true }, 'drop');
  }

  // --- What the others publish (site.ts hands it over, signed by whom it says) --------------

  /** A hub's description of the connections it shares. */
  described(hubId: string, payload: Buffer): void {
    this.otherHubs.described(hubId, payload, () => this.claims.nextHeard());
    this.ownersChanged();
  }

  /** A value on a value topic: a mirrored connection's, or someone else's on this hub's own. */
  value(topic: string, address: string, payload: Buffer, properties: MessageProperties): void {
    const connectionId = address.slice(0, address.indexOf('/'));
    if (this.mirrors.isLocal(connectionId)) {
      // Its own value topic: its own messages never come back (No Local), so this one is
      // someone else's — a forgery, or one of its own sent again. Put the value back on the
      // broker (not for a connection another hub owns: the owner's values stand).
      if (!this.claims.refused.has(connectionId)) this.corrections.correct(topic, () => this.overwritten.next(address));
      return;
    }
    const from = this.checks.signedBy(topic, payload, properties);
    const counter = counterOf(properties.userProperties?.['n']);
    if (from === undefined || !counter) return;
    const stale = this.rules.refusesValue(from, Tokens.read(properties.userProperties?.['token']));
    if (stale !== undefined) return this.checks.refuse('refused', topic, stale);
    const by = properties.userProperties?.['by'];
    this.mirrors.value(connectionId, address, from, { text: payload.toString(), by: typeof by === 'string' ? by : '', counter });
  }

  /**
   * Values another hub sent in a burst (value-bursts.ts): taken when it signed them, in the
   * broker session its presence says now; a burst of another session was played back.
   */
  burst(hubId: string, topic: string, payload: Buffer, properties: MessageProperties): void {
    const from = this.checks.signedBy(topic, payload, properties);
    const counter = counterOf(properties.userProperties?.['n']);
    if (from !== hubId || !counter) return;
    const burst = readBurst(payload);
    if (!burst)
      return this.checks.refuse(
        'refused',
        topic,
        `hub ${hubId} sent a burst that is not one ({"session", "values": [[address, value, by], …]})`,
      );
    if (burst.session !== this.others.get(hubId)?.session)
      return this.checks.refuse('replayed', topic, `a burst of hub ${hubId} from another of its broker sessions: played back`);
    const stale = this.rules.refusesValue(hubId, burst.token);
    if (stale !== undefined) return this.checks.refuse('refused', topic, stale);
    for (const [address, text, by] of burst.values) {
      const slash = address.indexOf('/');
      if (slash <= 0) continue;
      const connectionId = address.slice(0, slash);
      // Its own connections' values are its own to say.
      if (!this.mirrors.isLocal(connectionId)) this.mirrors.value(connectionId, address, from, { text, by, counter });
    }
  }

  /**
   * A message on this hub's own presence or description topic: its own coming back confirms
   * the claims it carries; anyone else's (or one from before a restart, once up) is put right.
   */
  ownTopic(
    kind: 'presence' | 'connections' | 'answers' | 'records',
    topic: string,
    from: string | undefined,
    payload: Buffer,
    properties: MessageProperties,
  ): void {
    if (kind === 'answers') {
      if (from !== undefined) this.writes.answer(from, payload, properties);
      return;
    }
    if (from === this.hub.id && this.checks.fromThisRun(properties)) {
      if (kind === 'connections') this.claims.confirm(payload);
      return;
    }
    // Until it is up, what is there is from before: `up` publishes both anyway.
    if (!this.link.up) return;
    this.corrections.correct(topic, () => {
      if (kind === 'presence') this.publishPresence();
      else {
        this.lastMeta = '';
        this.publishMeta();
      }
    });
  }

  /** Who holds what changed: decides who owns each id (`claims.ts`), and shows the connections of others as their owners describe them. */
  ownersChanged(): void {
    const { owners, republish, refusedAny } = this.claims.decide();
    for (const [id, owner] of owners)
      if (!this.mirrors.isLocal(id) && !this.claims.refused.has(id))
        this.mirrors.mirror(id, owner.hubId, this.others.get(owner.hubId)!.connections.get(id)!);
    this.mirrors.keepOwnedBy(owners, this.rules.groupRuns);
    if (refusedAny) this.publishMeta();
    if (republish.length > 0 || refusedAny) this.publishing.next(republish);
  }

  /** A hub came or went: what this hub shows of it follows. */
  presence(hubId: string, online: boolean): void {
    this.mirrors.ownerPresence(hubId, online, this.rules.groupRuns);
  }
}
