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
 * This file keeps who owns what and dispatches what the broker brings; the jobs are the
 * folder's other files: `checks.ts` (signatures, replays, the session), `description.ts`
 * (what hubs say of themselves, read defensively), `mirrors.ts` (other hubs' connections
 * shown here), `early-values.ts`, `remote-writes.ts`, `corrections.ts` and
 * `group-records.ts` (a redundancy group's role records, renewals and connection records).
 */
import type { Subscription } from 'rxjs';
import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import type { Answered, Parameter, SetResult, Value, ValueType } from '../../../sdk/index.ts';
import { afterTurn, fail, SparseLog } from '../../../sdk/index.ts';
import type { Carried, ServingContext } from '../../serving.ts';
import type { BrokerLink, MessageProperties } from '../broker-link.ts';
import type { NO_HUB, Publishing, REJECTED } from '../bridge.ts';
import { GroupDirectory } from '../group/directory.ts';
import type { RedundancyGroup } from '../group/group.ts';
import type { GroupSharing } from '../group/sharing.ts';
import type { HubSettings, MqttOverruns, MqttSettings } from '../settings.ts';
import type { TopicLayout } from '../topics.ts';
import { SiteChecks, type SiteTrust } from './checks.ts';
import { Claims, type SharedParameters } from './claims.ts';
import { Corrections } from './corrections.ts';
import type { OtherHub, SharedConnection } from './description.ts';
import { EarlyValues } from './early-values.ts';
import { GroupRecords } from './group-records.ts';
import { Mirrors } from './mirrors.ts';
import { OtherHubs } from './others.ts';
import { RemoteWrites } from './remote-writes.ts';

export type { SiteTrust } from './checks.ts';

export class SiteShare implements Publishing, GroupSharing {
  /** Who holds each redundancy group's lease: a hub of a group owns connections only while it does (R-B1). */
  readonly groups = new GroupDirectory();
  /** This hub's own group, when it is in one. */
  group: RedundancyGroup | undefined;
  private readonly otherHubs: OtherHubs;
  private readonly others: ReadonlyMap<string, OtherHub>;
  private readonly checks: SiteChecks;
  private readonly corrections: Corrections;
  private readonly early: EarlyValues;
  private readonly mirrors: Mirrors;
  private readonly writes: RemoteWrites;
  private readonly records: GroupRecords;
  private readonly claims: Claims;
  private lastMeta = '';
  private reviewQueued = false;
  private readonly watches: Subscription;
  /** Told when what this hub publishes changed: a claim was lost or won. */
  onPublishingChanged: (republish: readonly string[]) => void = () => {};
  /** Told to publish a parameter's value again: someone else published on its value topic. */
  onValueOverwritten: (address: string) => void = () => {};

  /** The last will: this hub's presence, gone (the link signs it). */
  static will(layout: TopicLayout, hubId: string): { topic: string; payload: string } {
    return { topic: layout.presence(hubId), payload: JSON.stringify({ online: false }) };
  }

  constructor(
    private readonly context: ServingContext,
    private readonly settings: MqttSettings,
    private readonly hub: HubSettings,
    private readonly link: BrokerLink,
    trust: SiteTrust,
    overruns: MqttOverruns,
  ) {
    const { scheduler } = context;
    const ignored = new SparseLog(context.log, scheduler, 'ignored');
    this.otherHubs = new OtherHubs(settings.limits, overruns, context.log);
    this.others = this.otherHubs.byId;
    this.checks = new SiteChecks(hub.id, trust, overruns, ignored, context.records);
    this.corrections = new Corrections(scheduler, () => link.up);
    this.early = new EarlyValues(scheduler, settings.limits.heldValues, overruns);
    this.writes = new RemoteWrites(hub.id, link, settings.layout, settings.qos, scheduler);
    this.mirrors = new Mirrors(context, this.others, this.early, (address, type, value, origin, answered) =>
      this.forward(address, type, value, origin, answered),
    );
    this.records = new GroupRecords(
      hub.id,
      {
        group: () => this.group,
        groups: this.groups,
        others: this.others,
        up: () => link.up,
        ownersChanged: () => this.resolveClaims(),
      },
      this.checks,
      this.corrections,
      scheduler,
    );
    this.claims = new Claims(context, {
      others: this.others,
      groups: this.groups,
      group: () => this.group,
      isLocal: (connectionId) => this.isLocal(connectionId),
    });
    const review = () => this.queueReview();
    this.watches = context.hub.connectionChanges$.subscribe(review);
    this.watches.add(context.graph.added$.subscribe(review));
    this.watches.add(context.graph.removed$.subscribe(review));
    this.watches.add(context.graph.tables$.subscribe(review));
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
      [this.layout.hubs]: { qos },
      // In a group, every hub's renewals: a standby takes over from an active hub that fell silent.
      ...(this.group ? { [this.layout.leases]: { qos: 1, nl: true } } : {}),
    };
  }

  // --- What this hub publishes -------------------------------------------------------

  /** Its own parameters that `publish` or `share` match, but none of a connection another hub owns. */
  publishes(parameter: Parameter): boolean {
    return (
      !parameter.mirrored &&
      !this.claims.refused.has(parameter.connectionId) &&
      (this.settings.publish.matches(parameter.address) || this.sharesWithHubs(parameter))
    );
  }

  /** True when the other hubs see (and may write) this parameter: `share` matches it, and its connection is this hub's. */
  sharesWithHubs(parameter: Parameter): boolean {
    const { connectionId } = parameter;
    return (
      !parameter.mirrored &&
      (this.hub.share.matches(parameter.address) || this.groupRuns(connectionId)) &&
      !parameter.id.startsWith('_') &&
      !this.claims.refused.has(connectionId) &&
      !this.mirrors.has(connectionId)
    );
  }

  /** True for a connection only the active hub of this hub's group runs: the standbys show all of it, and carry it on at a takeover. */
  private readonly groupRuns = (connectionId: string): boolean =>
    this.group !== undefined && this.context.hub.redundancy.activeOnly().includes(connectionId);

  isLocal(connectionId: string): boolean {
    return !this.mirrors.has(connectionId) && this.context.graph.hasConnection(connectionId);
  }

  /** Who changed it; the signature adds which hub. */
  valueProperties(parameter: Parameter): Record<string, string> {
    return { by: parameter.lastChange?.by ?? '' };
  }

  /** Who sent a write on a `set` topic: a hub's write counts only when it is bound to this hub's session now (R-AV3). */
  sender(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED {
    return this.checks.sender(topic, payload, properties);
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
    this.early.stop();
    this.corrections.stop();
    this.writes.stop();
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
    this.resolveClaims();
    this.publishMeta(this.ownMeta(shared));
  }

  /** `[id, type, access]` of each shared parameter, by connection: one pass over the graph, not one per connection. */
  private sharedParameters(): SharedParameters {
    const shared: SharedParameters = new Map();
    for (const p of this.context.graph.all()) {
      if (!this.sharesWithHubs(p) || p.connectionId === this.context.id) continue;
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
      .filter(
        (c) =>
          !this.mirrors.has(c.id) && c.id !== this.context.id && !this.claims.refused.has(c.id) && this.context.graph.hasConnection(c.id),
      );
    return this.claims.describe(shared, local);
  }

  private publishMeta(described = this.ownMeta()): void {
    const meta = JSON.stringify({ hub: this.hub.id, connections: described });
    if (meta === this.lastMeta || !this.link.up) return;
    this.lastMeta = meta;
    this.link.publish(this.layout.connections(this.hub.id), meta, { qos: 1, retain: true }, 'drop');
  }

  // --- What the others publish -------------------------------------------------------

  /** Handles hub topics and the values of mirrored connections; false for anything else. */
  message(topic: string, payload: Buffer, properties: MessageProperties): boolean {
    const renewing = this.layout.leaseOf(topic);
    if (renewing !== undefined) {
      if (this.group && this.checks.signedBy(topic, payload, properties) === renewing) this.records.renewal(topic, renewing, payload);
      return true;
    }
    const hubTopic = this.layout.hubTopic(topic);
    if (hubTopic) {
      // Answers to the writes of other hubs are theirs to read.
      if (hubTopic.kind === 'answers' && hubTopic.hubId !== this.hub.id) return true;
      const from = this.checks.signedBy(topic, payload, properties);
      if (hubTopic.kind === 'role') {
        if (from === hubTopic.hubId) this.records.roleRecord(topic, from, payload, properties);
        return true;
      }
      if (hubTopic.kind === 'records') {
        if (from === hubTopic.hubId && 'connectionId' in hubTopic && this.otherHubs.admits(from))
          this.records.records(from, hubTopic.connectionId, payload);
        return true;
      }
      if (hubTopic.hubId === this.hub.id) this.ownTopic(hubTopic.kind, topic, from, payload, properties);
      else if (from === hubTopic.hubId && this.otherHubs.admits(from)) {
        if (hubTopic.kind === 'presence') this.presence(from, payload);
        else if (hubTopic.kind === 'connections') {
          this.otherHubs.described(from, payload, () => this.claims.nextHeard());
          this.resolveClaims();
        }
      }
      return true;
    }
    const target = this.layout.parameterOf(topic);
    if (target?.kind !== 'val') return false;
    const connectionId = target.address.slice(0, target.address.indexOf('/'));
    if (this.isLocal(connectionId)) {
      // Its own value topic: its own messages never come back (No Local), so this one is
      // someone else's — a forgery, or one of its own sent again. Put the value back on the
      // broker (not for a connection another hub owns: the owner's values stand).
      if (!this.claims.refused.has(connectionId)) this.corrections.correct(topic, () => this.onValueOverwritten(target.address));
      return true;
    }
    const from = this.checks.signedBy(topic, payload, properties);
    if (from !== undefined) this.mirrors.value(connectionId, target.address, from, payload, properties);
    return true;
  }

  /** The hubs whose records say they are active in a later epoch than this hub knows, not confirmed yet. */
  unconfirmedActive(): string[] {
    return this.records.unconfirmedActive();
  }

  /** The broker sessions of the other hubs of the group that are here: a renewal names them, bound to each. */
  sessions(): Record<string, string> {
    return this.records.sessions();
  }

  /** The values this hub shows of the connections only its group's active hub runs, and that hub's records: what a takeover starts from (R-B2, R-B4). */
  carried(owner: string | undefined): Carried {
    return { values: this.mirrors.carried(this.groupRuns), records: this.records.recordsOfHub(owner) };
  }

  roleChanged(): void {
    this.resolveClaims();
    this.queueReview();
  }

  /**
   * A message on this hub's own presence or description topic: its own coming back confirms
   * the claims it carries; anyone else's (or one from before a restart, once up) is put right.
   */
  private ownTopic(
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

  /** Decides who owns each id (`claims.ts`), and shows the connections of others as their owners describe them. */
  private resolveClaims(): void {
    const { owners, republish, refusedAny } = this.claims.decide();
    for (const [id, owner] of owners)
      if (!this.isLocal(id) && !this.claims.refused.has(id))
        this.mirrors.mirror(id, owner.hubId, this.others.get(owner.hubId)!.connections.get(id)!);
    this.mirrors.keepOwnedBy(owners, this.groupRuns);
    if (refusedAny) this.publishMeta();
    if (republish.length > 0 || refusedAny) this.onPublishingChanged(republish);
  }

  /** A hub came or went: its group (when it is of this hub's) and what this hub shows of it are told. */
  private presence(hubId: string, payload: Buffer): void {
    if (!this.otherHubs.presence(hubId, payload)) return;
    const online = this.others.get(hubId)?.online === true;
    this.group?.presence(hubId, online);
    this.mirrors.ownerPresence(hubId, online, this.groupRuns);
  }

  // --- Writes to other hubs' parameters ----------------------------------------------

  private forward(address: string, type: ValueType, value: Value, origin: string | undefined, answered: Answered | undefined): SetResult {
    const mirror = this.mirrors.get(address.slice(0, address.indexOf('/')));
    // Without the broker nothing reaches the owner: say so, rather than that the owner is away.
    if (!this.link.up)
      return fail('PB_BROKER_UNAVAILABLE', `${address}: not sent: ${this.link.downReason || 'the broker is not connected yet'}`);
    const owner = mirror && this.others.get(mirror.owner);
    if (!mirror || !owner?.online) return fail('PB_OWNER_UNAVAILABLE', `${address}: hub ${mirror?.owner ?? '?'} is away`);
    return this.writes.send(address, type, value, origin, answered, { hubId: mirror.owner, session: owner.session ?? '' });
  }
}
