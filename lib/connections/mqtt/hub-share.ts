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
 */
import { randomBytes } from 'node:crypto';
import type { Subscription } from 'rxjs';
import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import {
  type Access,
  after,
  afterTurn,
  type Answered,
  every,
  fail,
  HubError,
  ok,
  type Parameter,
  type SetResult,
  Status,
} from '../../sdk/index.ts';
import type { Carried, ConnectionInfo, MirroredConnection, ProxyParameter, ServingContext } from '../serving.ts';
import { type Json, toWire, type Value, type ValueType, valueTypes } from '../../core/value.ts';
import type { BrokerLink, MessageProperties } from './broker-link.ts';
import { NO_HUB, type Publishing, REJECTED, type WriteAnswer } from './bridge.ts';
import type { MqttOverruns } from './settings.ts';
import type { HubSettings, MqttSettings } from './settings.ts';
import type { Rejection, Signer, Verifier } from './signing.ts';
import { SparseLog } from '../../core/sparse-log.ts';
import type { TopicLayout } from './topics.ts';
import { GroupDirectory, type GroupSharing, readRecord, type RedundancyGroup, type RoleRecord, SILENCE_MS } from './group.ts';

/** A connection as its owner describes it on the broker. */
interface SharedConnection {
  readonly id: string;
  readonly type: string;
  readonly status: ConnectionInfo['status'];
  readonly reason: string;
  readonly code?: string;
  readonly description: string;
  readonly location: string;
  readonly group: string;
  /** `[id, type, access]` of each shared parameter. */
  readonly parameters: readonly (readonly [string, ValueType, Access])[];
}

/** The site key at work: what signs this hub's messages and checks the others'. */
export interface SiteTrust {
  readonly signer: Signer;
  readonly verifier: Verifier;
}

/** Another hub's connection, and when this hub first heard it claimed: the first claim heard owns the id. */
interface Claimed extends SharedConnection {
  readonly heard: number;
}

interface OtherHub {
  online: boolean;
  /** Its broker session, as its presence says: what a write forwarded to it, or a renewal sent to it, is bound to. */
  session: string | undefined;
  connections: ReadonlyMap<string, Claimed>;
}

interface Mirror {
  readonly owner: string;
  readonly handle: MirroredConnection;
  readonly parameters: Map<string, { readonly parameter: ProxyParameter; readonly key: string }>;
}

/** A value that came, signed by `from`, before the description of its connection. */
interface EarlyValue {
  readonly from: string;
  readonly payload: Buffer;
  readonly properties: MessageProperties;
  readonly at: number;
}

/** What the log says of a message that is not taken. */
const REJECTIONS: Record<Rejection, string> = {
  unsigned: 'not signed with the site key (a client that is not a hub of the site)',
  'bad signature':
    "its signature does not verify with this hub's site key: a hub with another key (do all hubs of the site hold the same one?), or a forgery",
  replayed: 'a message that was taken before, sent again (replayed)',
  duplicate: 'the same message again',
};

/** How long a writer waits for the owner's answer to a forwarded write. */
const ANSWER_WITHIN_MS = 5000;
/** How long a value waits for the description of its connection. */
const HELD_FOR_MS = 60_000;
/** The shortest time between two corrections of one topic: two hubs that both think it theirs do not flood the broker. */
const CORRECT_AFTER_MS = 1000;

export class HubShare implements Publishing, GroupSharing {
  /** Who holds each redundancy group's lease: a hub of a group owns connections only while it does (R-B1). */
  readonly groups = new GroupDirectory();
  /** This hub's own group, when it is in one. */
  group: RedundancyGroup | undefined;
  /** The last values of the active hub's connections, kept when it went away: a takeover starts from them. */
  private leftValues = new Map<string, Value>();
  /** The records each hub of the group publishes of its connections, while it is active. */
  private readonly recordsOf = new Map<string, Map<string, [string, Json][]>>();
  private readonly others = new Map<string, OtherHub>();
  private readonly mirrors = new Map<string, Mirror>();
  /** This hub's shared connections: confirmed once the claim came back from the broker before any other hub's. */
  private readonly claims = new Map<string, { confirmed: boolean }>();
  /** Its connections with something to share, as of the latest review. */
  private shareable = new Set<string>();
  private heard = 0;
  /** Its connections another hub owns: failed here, never claimed again by this run. */
  private readonly refused = new Set<string>();
  private readonly early = new Map<string, EarlyValue>();
  private readonly waiting = new Map<
    string,
    { readonly answered: Answered; readonly deadline: number; readonly address: string; readonly owner: string }
  >();
  private sweep: Subscription | undefined;
  private readonly ageing: Subscription;
  /** Topics of this hub's someone else published on, and when each was last put back. */
  private readonly corrections = new Map<string, { at: number; queued?: Subscription | undefined }>();
  private readonly ignored: SparseLog;
  private lastMeta = '';
  private reviewQueued = false;
  private readonly watches: Subscription;
  /**
   * This hub's broker session, new at every connect and said in its presence: the other hubs
   * bind the writes they forward to it, and their lease renewals, so that none of them played
   * back later (after a restart, a takeover, a reconnect) is taken (R-AV3).
   */
  private session = newSession();
  /** `scheduler.now()` when the session began: the others may bind to the one before for a moment. */
  private sessionSince = 0;
  /** Role records of the group's hubs whose epoch is more than one step ahead: taken once that hub's own fresh renewals say the same epoch. */
  private readonly unconfirmed = new Map<string, RoleRecord>();
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
    private readonly trust: SiteTrust,
    private readonly overruns: MqttOverruns,
  ) {
    this.ignored = new SparseLog(context.log, context.scheduler, 'ignored');
    const review = () => this.queueReview();
    this.ageing = every(context.scheduler, HELD_FOR_MS / 6, () => this.ageHeld());
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
      !this.refused.has(parameter.connectionId) &&
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
      !this.refused.has(connectionId) &&
      !this.mirrors.has(connectionId)
    );
  }

  /** True for a connection only the active hub of this hub's group runs: the standbys show all of it, and carry it on at a takeover. */
  private groupRuns(connectionId: string): boolean {
    return this.group !== undefined && this.context.hub.redundancy.activeOnly().includes(connectionId);
  }

  isLocal(connectionId: string): boolean {
    return !this.mirrors.has(connectionId) && this.context.graph.hasConnection(connectionId);
  }

  /** Who changed it; the signature adds which hub. */
  valueProperties(parameter: Parameter): Record<string, string> {
    return { by: parameter.lastChange?.by ?? '' };
  }

  /** Who sent a write on a `set` topic: a hub's write counts only when it is bound to this hub's session now (R-AV3). */
  sender(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED {
    const from = this.verified(topic, payload, properties);
    if (typeof from !== 'string') return from;
    const user = properties.userProperties;
    if (user?.['to'] === this.hub.id && user['session'] === this.session) return from;
    this.refuse(
      'replayed',
      topic,
      `a write of hub ${from} for ${describeBinding(user, this.hub.id)}: played back, or sent before this hub reconnected`,
    );
    return REJECTED;
  }

  /** The hub that signed a message; `none` when unsigned, `rejected` (counted) when it does not verify or was taken before. */
  private verified(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED {
    if (properties.userProperties?.['sig'] === undefined) return NO_HUB;
    const verified = this.trust.verifier.verify(topic, payload, properties);
    if (verified.ok) return verified.hub;
    // The same retained message again (after a reconnect) is no attack.
    if (verified.why !== 'duplicate') this.unverified(topic, verified.why);
    return REJECTED;
  }

  /** Counts a message that is not taken, and says so: at most one line in ten seconds (all are counted in /metrics). */
  private unverified(topic: string, why: Rejection): void {
    if (why === 'replayed') return this.refuse('replayed', topic, REJECTIONS[why]);
    this.overruns.dropped('unverified', why, 1, true);
    this.ignored.warn(`ignored a message on ${topic}: ${REJECTIONS[why]}`);
  }

  /** Counts a signed message that is not taken: played back (`replayed`), or a role record the group's rules do not allow (`refused`). */
  private refuse(kind: 'replayed' | 'refused', topic: string, why: string): void {
    this.overruns.dropped(kind, why, 1, true);
    this.ignored.warn(`ignored a message on ${topic}: ${why}`);
  }

  /** The hub that signed a message on a hub or value topic; undefined (counted) for anything else. */
  private signedBy(topic: string, payload: Buffer, properties: MessageProperties): string | undefined {
    const from = this.verified(topic, payload, properties);
    if (from === NO_HUB) this.unverified(topic, 'unsigned');
    // Signed as this hub, not by this run: what it sends next must count after it.
    else if (from === this.hub.id && !this.fromThisRun(properties)) this.passSigned(properties);
    return typeof from === 'string' ? from : undefined;
  }

  /** Connected, every retained message in: say this hub is here, and what it runs. */
  up(): void {
    if (!this.link.mqtt5) {
      this.context.log.error('sharing connections with other hubs needs a broker that speaks MQTT 5; this one does not');
      return;
    }
    this.session = newSession();
    this.sessionSince = this.context.scheduler.now();
    this.publishPresence();
    this.lastMeta = '';
    this.review();
    for (const [id, mirror] of this.mirrors) this.show(id, mirror);
  }

  private publishPresence(): void {
    const presence = JSON.stringify({ online: true, session: this.session });
    this.link.publish(this.layout.presence(this.hub.id), presence, { qos: 1, retain: true }, 'drop');
  }

  down(reason: string): void {
    for (const mirror of this.mirrors.values()) {
      mirror.handle.show({
        ...this.describe(mirror),
        status: Status.Degraded,
        reason: `values may be stale: ${reason}`,
        code: 'PB_BROKER_UNAVAILABLE',
      });
    }
  }

  /** Stops sharing; what to publish before disconnecting: this hub is gone. */
  stop(): { topic: string; payload: string; options: IClientPublishOptions }[] {
    this.watches.unsubscribe();
    this.sweep?.unsubscribe();
    this.ageing.unsubscribe();
    for (const { queued } of this.corrections.values()) queued?.unsubscribe();
    for (const [, waiting] of this.waiting)
      waiting.answered(fail('PB_OWNER_UNAVAILABLE', `${waiting.address}: the mqtt connection stopped before the owner answered`));
    this.waiting.clear();
    for (const mirror of this.mirrors.values()) mirror.handle.close();
    this.mirrors.clear();
    return [{ topic: this.layout.presence(this.hub.id), payload: JSON.stringify({ online: false }), options: { qos: 1, retain: true } }];
  }

  details(): Record<string, unknown> {
    return {
      hubs: Object.fromEntries(
        [...this.others].map(([id, other]) => [id, { online: other.online, connections: [...other.connections.keys()] }]),
      ),
      shared: [...this.claims.keys()],
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
    this.shareable = new Set(shared.keys());
    this.resolveClaims();
    this.publishMeta(shared);
  }

  /** `[id, type, access]` of each shared parameter, by connection: one pass over the graph, not one per connection. */
  private sharedParameters(): Map<string, (readonly [string, ValueType, Access])[]> {
    const shared = new Map<string, (readonly [string, ValueType, Access])[]>();
    for (const p of this.context.graph.all()) {
      if (!this.sharesWithHubs(p) || p.connectionId === this.context.id) continue;
      const list = shared.get(p.connectionId) ?? [];
      list.push([p.id, p.type, p.access]);
      shared.set(p.connectionId, list);
    }
    return shared;
  }

  /** This hub's shared connections as the others read them; claims what it shares for the first time. */
  private ownMeta(shared: Map<string, (readonly [string, ValueType, Access])[]>): SharedConnection[] {
    const local = this.context.hub
      .connections()
      .filter(
        (c) => !this.mirrors.has(c.id) && c.id !== this.context.id && !this.refused.has(c.id) && this.context.graph.hasConnection(c.id),
      );
    const described: SharedConnection[] = [];
    for (const info of local) {
      const parameters = shared.get(info.id) ?? [];
      if (parameters.length === 0 && !this.claims.has(info.id)) continue;
      if (!this.claims.has(info.id)) this.claims.set(info.id, { confirmed: false });
      const { id, type, status, reason, code, description, location, group } = info;
      described.push({ id, type, status, reason, ...(code ? { code } : {}), description, location, group, parameters });
    }
    const present = new Set(local.map((c) => c.id));
    for (const id of this.claims.keys()) if (!present.has(id)) this.claims.delete(id);
    return described;
  }

  private publishMeta(shared = this.sharedParameters()): void {
    const meta = JSON.stringify({ hub: this.hub.id, connections: this.ownMeta(shared) });
    if (meta === this.lastMeta || !this.link.up) return;
    this.lastMeta = meta;
    this.link.publish(this.layout.connections(this.hub.id), meta, { qos: 1, retain: true }, 'drop');
  }

  // --- What the others publish -------------------------------------------------------

  /** Handles hub topics and the values of mirrored connections; false for anything else. */
  message(topic: string, payload: Buffer, properties: MessageProperties): boolean {
    const renewing = this.layout.leaseOf(topic);
    if (renewing !== undefined) {
      if (this.group && this.signedBy(topic, payload, properties) === renewing) this.renewal(topic, renewing, payload);
      return true;
    }
    const hubTopic = this.layout.hubTopic(topic);
    if (hubTopic) {
      // Answers to the writes of other hubs are theirs to read.
      if (hubTopic.kind === 'answers' && hubTopic.hubId !== this.hub.id) return true;
      const from = this.signedBy(topic, payload, properties);
      if (hubTopic.kind === 'role') {
        if (from === hubTopic.hubId) this.roleRecord(topic, from, payload, properties);
        return true;
      }
      if (hubTopic.kind === 'records') {
        if (from === hubTopic.hubId && 'connectionId' in hubTopic && this.admits(from)) this.records(from, hubTopic.connectionId, payload);
        return true;
      }
      if (hubTopic.hubId === this.hub.id) this.ownTopic(hubTopic.kind, topic, from, payload, properties);
      else if (from === hubTopic.hubId && this.admits(from)) {
        if (hubTopic.kind === 'presence') this.presence(from, payload);
        else if (hubTopic.kind === 'connections') this.described(from, payload);
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
      if (!this.refused.has(connectionId)) this.correct(topic, () => this.onValueOverwritten(target.address));
      return true;
    }
    const from = this.signedBy(topic, payload, properties);
    if (from === undefined) return true;
    const mirror = this.mirrors.get(connectionId);
    const entry = mirror?.parameters.get(target.address.slice(connectionId.length + 1));
    if (mirror && entry) this.follow(mirror, entry.parameter, from, payload, properties);
    else this.hold(target.address, { from, payload, properties, at: this.context.scheduler.now() });
    return true;
  }

  /**
   * A renewal of a hub of the group: it counts when it is bound to this hub's session (one
   * played back from before is not), and it confirms a record of that hub's that was more
   * than one epoch ahead.
   */
  private renewal(topic: string, hubId: string, payload: Buffer): void {
    const renewal = parseJson(payload);
    const seen = renewal?.['seen'] as Record<string, unknown> | undefined;
    if (seen?.[this.hub.id] !== this.session) {
      // Sent before that hub heard this session's presence: not counted for a moment after a connect.
      if (this.context.scheduler.now() > this.sessionSince + 2 * SILENCE_MS)
        this.refuse('replayed', topic, `a renewal of hub ${hubId} not bound to this session: played back`);
      return;
    }
    this.group?.renewalHeard(hubId);
    const unconfirmed = this.unconfirmed.get(hubId);
    if (unconfirmed && renewal?.['epoch'] === unconfirmed.epoch) {
      this.unconfirmed.delete(hubId);
      this.takeRecord(hubId, unconfirmed);
    }
  }

  /** The hubs whose records say they are active in a later epoch than this hub knows, not confirmed yet. */
  unconfirmedActive(): string[] {
    return [...this.unconfirmed].filter(([, record]) => record.role === 'active').map(([hubId]) => hubId);
  }

  /** The broker sessions of the other hubs of the group that are here: a renewal names them, bound to each. */
  sessions(): Record<string, string> {
    const sessions: Record<string, string> = {};
    for (const [hubId, other] of this.others)
      if (other.online && other.session && (this.group?.isPeer(hubId) || this.unconfirmed.has(hubId))) sessions[hubId] = other.session;
    return sessions;
  }

  /** A hub's role in a redundancy group, as the group's rules allow it: who owns a group's connections may have changed. */
  private roleRecord(topic: string, hubId: string, payload: Buffer, properties: MessageProperties): void {
    const record = readRecord(payload);
    if (!record) return;
    if (this.group) {
      // Its own record from before (not of this run), once up: someone else's doing, put right.
      const own = hubId === this.hub.id && this.link.up && !this.fromThisRun(properties);
      const refusal = this.group.refusal(hubId, record, own);
      if (refusal === 'unconfirmed') {
        this.unconfirmed.set(hubId, record);
        return this.refuse(
          'refused',
          topic,
          `hub ${hubId} says epoch ${record.epoch}, more than one step ahead: taken once its renewals confirm it`,
        );
      }
      if (refusal !== undefined) {
        this.refuse('refused', topic, refusal);
        if (own) this.correct(topic, () => this.group?.republishRecord());
        return;
      }
      this.unconfirmed.delete(hubId);
    }
    this.takeRecord(hubId, record);
  }

  private takeRecord(hubId: string, record: RoleRecord): void {
    const before = this.groups.recordOf(hubId);
    this.groups.heard(hubId, record);
    this.group?.record(hubId, record);
    if (before === undefined || before.role !== record.role || before.epoch !== record.epoch || before.group !== record.group)
      this.resolveClaims();
  }

  /** Records of a hub's connections, signed by it: kept, in case it is the active hub of this hub's group when it goes (R-B4). */
  private records(hubId: string, connectionId: string, payload: Buffer): void {
    if (!this.group) return;
    const data = payload.length > 0 ? parseJson(payload) : undefined;
    const kept = this.recordsOf.get(hubId) ?? new Map<string, [string, Json][]>();
    this.recordsOf.set(hubId, kept);
    if (data) kept.set(connectionId, Object.entries(data) as [string, Json][]);
    else kept.delete(connectionId);
  }

  /** The values this hub shows of the connections only its group's active hub runs, and that hub's records: what a takeover starts from (R-B2, R-B4). */
  carried(owner: string | undefined): Carried {
    const records = new Map(owner === undefined ? [] : this.recordsOf.get(owner));
    return { values: this.carriedValues(), records };
  }

  private carriedValues(): ReadonlyMap<string, Value> {
    const carried = new Map(this.leftValues);
    this.leftValues = new Map();
    for (const [id, mirror] of this.mirrors)
      if (this.groupRuns(id)) for (const [address, value] of this.valuesOf(mirror)) carried.set(address, value);
    return carried;
  }

  private valuesOf(mirror: Mirror): Map<string, Value> {
    const values = new Map<string, Value>();
    for (const { parameter } of mirror.parameters.values())
      if (parameter.value !== undefined) values.set(parameter.address, parameter.value);
    return values;
  }

  roleChanged(): void {
    this.resolveClaims();
    this.queueReview();
  }

  private passSigned(properties: MessageProperties): void {
    const start = this.trust.signer.passed(properties.userProperties?.['n']);
    if (start !== undefined) this.context.records.set('signer start', start);
  }

  /** True when the message was signed by this run of this hub (not one before a restart). */
  private fromThisRun(properties: MessageProperties): boolean {
    return this.trust.signer.issued(properties.userProperties?.['n']);
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
      if (from !== undefined) this.answer(from, payload, properties);
      return;
    }
    if (from === this.hub.id && this.fromThisRun(properties)) {
      if (kind === 'connections') this.confirm(payload);
      return;
    }
    // Until it is up, what is there is from before: `up` publishes both anyway.
    if (!this.link.up) return;
    this.correct(topic, () => {
      if (kind === 'presence') this.publishPresence();
      else {
        this.lastMeta = '';
        this.publishMeta();
      }
    });
  }

  /** Publishes again what someone else overwrote: at once, then at most once a second per topic. */
  private correct(topic: string, republish: () => void): void {
    const now = this.context.scheduler.now();
    const last = this.corrections.get(topic) ?? { at: Number.NEGATIVE_INFINITY };
    this.corrections.set(topic, last);
    if (last.queued) return;
    const run = () => {
      last.queued = undefined;
      last.at = this.context.scheduler.now();
      if (this.link.up) republish();
    };
    const wait = last.at + CORRECT_AFTER_MS - now;
    if (wait <= 0) return run();
    last.queued = after(this.context.scheduler, wait, run);
  }

  /** Its own description came back: the claims in it came before any other hub's claim not yet heard. */
  private confirm(payload: Buffer): void {
    const listed = parseJson(payload)?.['connections'];
    if (!Array.isArray(listed)) return;
    for (const item of listed) {
      const id = (item as { id?: unknown } | null)?.id;
      const claim = typeof id === 'string' ? this.claims.get(id) : undefined;
      if (claim) claim.confirmed = true;
    }
  }

  /** True when another hub may be shown: it is known already, or there is room under `limits.hubs`. */
  private admits(hubId: string): boolean {
    if (this.others.has(hubId)) return true;
    const { hubs } = this.settings.limits;
    if (this.others.size < hubs) return true;
    this.overruns.dropped('hubs', `hub ${hubId} is one more than the ${hubs} other hubs shown`);
    return false;
  }

  /** Holds a value for a parameter not shown yet, within `limits.heldValues`. */
  private hold(address: string, value: EarlyValue): void {
    const { heldValues } = this.settings.limits;
    if (this.early.size >= heldValues && !this.early.has(address))
      return this.overruns.dropped('held', `a value for ${address} is one more than the ${heldValues} held for parameters not shown yet`);
    this.early.delete(address);
    this.early.set(address, value);
  }

  /** Drops held values older than a minute: their parameters did not come. Oldest first, in the order they came. */
  private ageHeld(): void {
    const before = this.context.scheduler.now() - HELD_FOR_MS;
    for (const [address, value] of this.early) {
      if (value.at > before) break;
      this.early.delete(address);
    }
  }

  private presence(hubId: string, payload: Buffer): void {
    const data = payload.length > 0 ? parseJson(payload) : undefined;
    const online = data?.['online'] === true;
    const other = this.other(hubId);
    other.session = online && typeof data?.['session'] === 'string' ? data['session'] : undefined;
    if (other.online === online) return;
    other.online = online;
    this.context.log.info(`hub ${hubId} ${online ? 'is here' : 'went away'}`);
    this.group?.presence(hubId, online);
    for (const [id, mirror] of this.mirrors) {
      if (mirror.owner !== hubId) continue;
      // Gone: its values are unknown until it is back and sends them again. The active hub of
      // this hub's group leaves them to the takeover, which starts from them.
      if (!online && this.groupRuns(id)) this.leftValues = new Map([...this.leftValues, ...this.valuesOf(mirror)]);
      if (!online) for (const { parameter } of mirror.parameters.values()) mirror.handle.forget(parameter);
      this.show(id, mirror);
    }
  }

  private described(hubId: string, payload: Buffer): void {
    const data = payload.length > 0 ? parseJson(payload) : { connections: [] };
    const list = Array.isArray(data?.['connections']) ? (data['connections'] as unknown[]).flatMap(readShared) : [];
    const { connectionsPerHub, parametersPerHub } = this.settings.limits;
    if (list.length > connectionsPerHub)
      this.overruns.dropped(
        'connections',
        `hub ${hubId} describes ${list.length} connections, over ${connectionsPerHub}`,
        list.length - connectionsPerHub,
      );
    const other = this.other(hubId);
    const kept = new Map<string, Claimed>();
    let room = parametersPerHub;
    for (const shared of list.slice(0, connectionsPerHub)) {
      const parameters = shared.parameters.slice(0, Math.max(room, 0));
      room -= shared.parameters.length;
      kept.set(shared.id, { ...shared, parameters, heard: other.connections.get(shared.id)?.heard ?? ++this.heard });
    }
    if (room < 0)
      this.overruns.dropped('parameters', `hub ${hubId} describes ${parametersPerHub - room} parameters, over ${parametersPerHub}`, -room);
    other.connections = kept;
    this.resolveClaims();
  }

  private other(hubId: string): OtherHub {
    let other = this.others.get(hubId);
    if (!other) this.others.set(hubId, (other = { online: false, session: undefined, connections: new Map() }));
    return other;
  }

  /**
   * Decides every id some other hub claims. This hub's own shared connection keeps the id
   * when its claim came back from the broker before the other's (its values go out again,
   * over the other's), and is refused when the other's came first; a connection it runs but
   * shares nothing of is left alone. The connections it does not run are mirrored from the
   * hub whose claim it heard first.
   */
  private resolveClaims(): void {
    const owners = new Map<string, { hubId: string; heard: number }>();
    for (const [hubId, other] of this.others) {
      // A hub of a redundancy group runs its group's connections only while it holds the lease.
      if (this.group?.isPeer(hubId) ? this.group.owner() !== hubId : !this.groups.owns(hubId)) continue;
      for (const shared of other.connections.values()) {
        const first = owners.get(shared.id);
        if (!first || shared.heard < first.heard) owners.set(shared.id, { hubId, heard: shared.heard });
      }
    }
    const republish: string[] = [];
    let refusedAny = false;
    for (const [id, owner] of owners) {
      if (this.isLocal(id)) {
        // The hubs of one group run the same flow: what serves each hub runs on all of them.
        if (this.refused.has(id) || this.group?.isPeer(owner.hubId)) continue;
        const mine = this.claims.get(id);
        if (mine?.confirmed) {
          republish.push(id);
          continue;
        }
        // Never the rest-api, the mqtt connection or any connection with nothing shared.
        if (!mine && !this.shareable.has(id)) continue;
        this.refused.add(id);
        this.claims.delete(id);
        refusedAny = true;
        this.context.hub.refuse(
          id,
          new HubError(
            'PB_CONNECTION_OWNED',
            `hub ${owner.hubId} runs a connection "${id}" already; connection ids are unique among the hubs on the broker`,
          ),
        );
        continue;
      }
      if (this.refused.has(id)) continue;
      this.mirror(id, owner.hubId, this.others.get(owner.hubId)!.connections.get(id)!);
    }
    for (const [id, mirror] of this.mirrors) {
      if (owners.get(id)?.hubId === mirror.owner) continue;
      // The active hub of this hub's group that stood down (or stopped) leaves its last values to a takeover.
      if (this.groupRuns(id)) this.leftValues = new Map([...this.leftValues, ...this.valuesOf(mirror)]);
      mirror.handle.close();
      this.mirrors.delete(id);
    }
    if (refusedAny) this.publishMeta();
    if (republish.length > 0 || refusedAny) this.onPublishingChanged(republish);
  }

  /** Shows `id` as its owner describes it: parameters added, removed or retyped to match. */
  private mirror(id: string, owner: string, shared: SharedConnection): void {
    let mirror = this.mirrors.get(id);
    if (mirror && mirror.owner !== owner) {
      mirror.handle.close();
      this.mirrors.delete(id);
      mirror = undefined;
    }
    if (!mirror) {
      const opened = this.context.hub.mirror(id, owner);
      if (!opened.ok) {
        this.context.log.warn(`connection "${id}" of hub ${owner} is not shown: ${opened.error.message}`);
        return;
      }
      mirror = { owner, handle: opened.value, parameters: new Map() };
      this.mirrors.set(id, mirror);
    }
    const wanted = new Map(
      shared.parameters.map(([parameterId, type, access]) => [parameterId, { type, access, key: `${type} ${access}` }]),
    );
    for (const [parameterId, entry] of mirror.parameters) {
      if (wanted.get(parameterId)?.key === entry.key) continue;
      mirror.handle.remove(parameterId);
      mirror.parameters.delete(parameterId);
    }
    for (const [parameterId, { type, access, key }] of wanted) {
      if (mirror.parameters.has(parameterId)) continue;
      const address = `${id}/${parameterId}`;
      let parameter: ProxyParameter;
      try {
        parameter = mirror.handle.define(parameterId, {
          type,
          access,
          forward: (value, origin, answered) => this.forward(address, type, value, origin, answered),
        });
      } catch (error) {
        this.context.log.warn(`${address} of hub ${owner} is not shown: ${(error as Error).message}`);
        continue;
      }
      mirror.parameters.set(parameterId, { parameter, key });
      const early = this.early.get(address);
      if (early) {
        this.early.delete(address);
        this.follow(mirror, parameter, early.from, early.payload, early.properties);
      }
    }
    this.show(id, mirror);
  }

  private describe(mirror: Mirror): Omit<ConnectionInfo, 'id' | 'status' | 'reason'> {
    const shared = this.others.get(mirror.owner)?.connections.get(mirror.handle.id);
    return {
      type: shared?.type ?? '',
      description: shared?.description ?? '',
      location: shared?.location ?? '',
      group: shared?.group ?? '',
      details: { hub: mirror.owner },
    };
  }

  private show(id: string, mirror: Mirror): void {
    const owner = this.others.get(mirror.owner);
    const shared = owner?.connections.get(id);
    const base = this.describe(mirror);
    if (!owner?.online || !shared) {
      mirror.handle.show({
        ...base,
        status: Status.Failed,
        reason: `hub ${mirror.owner} is away (its broker connection ended)`,
        code: 'PB_OWNER_UNAVAILABLE',
      });
      return;
    }
    const code = shared.code as ConnectionInfo['code'];
    mirror.handle.show({ ...base, status: shared.status, reason: shared.reason, ...(code ? { code } : {}) });
  }

  /** A value signed by `from`: taken when it is the owner's (a hub that lost the id may have sent one too). */
  private follow(mirror: Mirror, parameter: ProxyParameter, from: string, payload: Buffer, properties: MessageProperties): void {
    if (from !== mirror.owner) return;
    if (payload.length === 0 && parameter.type !== 'S' && parameter.type !== 'T') return mirror.handle.forget(parameter);
    const by = properties.userProperties?.['by'];
    parameter.report(
      parameter.type === 'T' ? null : payload.toString(),
      `hub ${mirror.owner}${typeof by === 'string' && by ? `: ${by}` : ''}`,
    );
  }

  // --- Writes to other hubs' parameters ----------------------------------------------

  private forward(address: string, type: ValueType, value: Value, origin: string | undefined, answered: Answered | undefined): SetResult {
    const connectionId = address.slice(0, address.indexOf('/'));
    const mirror = this.mirrors.get(connectionId);
    // Without the broker nothing reaches the owner: say so, rather than that the owner is away.
    if (!this.link.up)
      return fail('PB_BROKER_UNAVAILABLE', `${address}: not sent: ${this.link.downReason || 'the broker is not connected yet'}`);
    if (!mirror || !this.others.get(mirror.owner)?.online)
      return fail('PB_OWNER_UNAVAILABLE', `${address}: hub ${mirror?.owner ?? '?'} is away`);
    // Bound to the owner and its session now: played back later, to it or to a hub that took over, it is refused (R-AV3).
    const userProperties = { origin: origin ?? '', to: mirror.owner, session: this.others.get(mirror.owner)?.session ?? '' };
    let properties: IClientPublishOptions['properties'] = { userProperties };
    if (answered) {
      // Random: no one who reads the broker can guess which answer a write waits for.
      const correlation = randomBytes(16);
      properties = { userProperties, responseTopic: this.layout.answers(this.hub.id), correlationData: correlation };
      const deadline = this.context.scheduler.now() + ANSWER_WITHIN_MS;
      this.waiting.set(correlation.toString('hex'), { answered, deadline, address, owner: mirror.owner });
      this.sweep ??= every(this.context.scheduler, 500, () => this.expire());
    }
    this.link.publish(
      this.layout.write(address),
      type === 'T' ? '' : toWire(value),
      { qos: this.settings.qos, retain: false, properties },
      'keep',
    );
    return ok(true);
  }

  /** An answer signed by `from`: taken only from the hub the write went to. */
  private answer(from: string, payload: Buffer, properties: MessageProperties): void {
    const correlation = properties.correlationData?.toString('hex');
    const waiting = correlation === undefined ? undefined : this.waiting.get(correlation);
    if (!waiting || correlation === undefined || waiting.owner !== from) return;
    this.waiting.delete(correlation);
    const answer = parseJson(payload) as Partial<WriteAnswer> | undefined;
    if (answer?.ok === true) return waiting.answered(ok(true));
    const code =
      answer && 'code' in answer && typeof answer.code === 'string' && answer.code.startsWith('PB_') ? answer.code : 'PB_INTERNAL';
    const message =
      answer && 'error' in answer && typeof answer.error === 'string' ? answer.error : 'the owner sent an answer that cannot be read';
    waiting.answered({ ok: false, error: new HubError(code as HubError['code'], message) });
  }

  private expire(): void {
    const now = this.context.scheduler.now();
    for (const [correlation, waiting] of this.waiting) {
      if (waiting.deadline > now) continue;
      this.waiting.delete(correlation);
      waiting.answered(fail('PB_OWNER_UNAVAILABLE', `${waiting.address}: its owner did not answer within ${ANSWER_WITHIN_MS / 1000} s`));
    }
    if (this.waiting.size === 0) {
      this.sweep?.unsubscribe();
      this.sweep = undefined;
    }
  }
}

/** A new broker session's name: random, so that no one can bind a message to a session before it begins. */
function newSession(): string {
  return randomBytes(12).toString('base64url');
}

/** What a write was bound to, as a reason says it. */
function describeBinding(user: MessageProperties['userProperties'], hubId: string): string {
  const to = user?.['to'];
  if (typeof to !== 'string' || to === '') return 'no hub (from a hub that binds no writes)';
  return to === hubId ? 'an earlier session of this hub' : `hub ${to}`;
}

function parseJson(payload: Buffer): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(payload.toString());
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const STATUSES = new Set<string>(Object.values(Status));
const ACCESSES = new Set<string>(['read-only', 'write-only', 'read-write']);

/** One connection of a hub's description, when it reads as one; nothing otherwise. */
function readShared(item: unknown): SharedConnection[] {
  if (item === null || typeof item !== 'object') return [];
  const c = item as Record<string, unknown>;
  const text = (key: string) => (typeof c[key] === 'string' ? (c[key] as string) : '');
  if (!text('id') || !STATUSES.has(text('status')) || !Array.isArray(c['parameters'])) return [];
  const parameters = (c['parameters'] as unknown[]).filter(
    (p): p is [string, ValueType, Access] =>
      Array.isArray(p) && typeof p[0] === 'string' && valueTypes.includes(p[1] as ValueType) && ACCESSES.has(p[2] as string),
  );
  return [
    {
      id: text('id'),
      type: text('type'),
      status: text('status') as SharedConnection['status'],
      reason: text('reason'),
      ...(text('code') ? { code: text('code') } : {}),
      description: text('description'),
      location: text('location'),
      group: text('group'),
      parameters,
    },
  ];
}
