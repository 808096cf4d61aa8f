/**
 * Hubs sharing one broker (R-M5, R-M6). One owner per connection: the hub that runs it
 * publishes its values (the bridge does) and, retained under `$hub/<hub id>/connections`,
 * its type, status and parameters; its presence is retained under `$hub/<hub id>` and its
 * last will says when it is gone. Every other hub mirrors those connections at the same
 * addresses: values follow the owner's value topics, writes go to the owner's write
 * topics with a response topic, and the writer is told the owner's answer.
 *
 * Who owns an id that two hubs run: the hub that shared it first (its `since`), the lower
 * hub id on a tie. Every hub decides alike from the same retained messages; the later hub
 * fails its own connection with PB_CONNECTION_OWNED and the owner publishes its values again.
 */
import type { Subscription } from 'rxjs';
import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import { fail, HubError, ok } from '../../core/errors.ts';
import type { Access, Answered, Parameter, ProxyParameter, SetResult } from '../../core/parameter.ts';
import { afterTurn, every } from '../../core/scheduler.ts';
import { toWire, type Value, type ValueType, valueTypes } from '../../core/value.ts';
import { type ConnectionInfo, type ServingContext, type MirroredConnection, Status } from '../connection.ts';
import type { AddressPatterns } from '../../core/address-pattern.ts';
import type { BrokerLink, MessageProperties } from './broker-link.ts';
import type { Publishing, WriteAnswer } from './bridge.ts';
import type { MqttSettings } from './settings.ts';
import type { TopicLayout } from './topics.ts';

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
  /** When the owner began to share it (ms since the epoch): the earliest claim wins. */
  readonly since: number;
  /** `[id, type, access]` of each shared parameter. */
  readonly parameters: readonly (readonly [string, ValueType, Access])[];
}

interface OtherHub {
  online: boolean;
  connections: ReadonlyMap<string, SharedConnection>;
}

interface Mirror {
  readonly owner: string;
  readonly handle: MirroredConnection;
  readonly parameters: Map<string, { readonly parameter: ProxyParameter; readonly key: string }>;
}

/** A value that came before the description of its connection. */
interface EarlyValue {
  readonly payload: Buffer;
  readonly properties: MessageProperties;
}

/** How long a writer waits for the owner's answer to a forwarded write. */
const ANSWER_WITHIN_MS = 5000;

export class HubShare implements Publishing {
  private readonly others = new Map<string, OtherHub>();
  private readonly mirrors = new Map<string, Mirror>();
  /** This hub's shared connections and when it began to share each. */
  private readonly claims = new Map<string, number>();
  /** Its connections another hub owns: failed here, never claimed again by this run. */
  private readonly refused = new Set<string>();
  private readonly early = new Map<string, EarlyValue>();
  private readonly waiting = new Map<string, { readonly answered: Answered; readonly deadline: number; readonly address: string }>();
  private sweep: Subscription | undefined;
  private nextCorrelation = 0;
  private lastMeta = '';
  private reviewQueued = false;
  private readonly watches: Subscription;
  /** Told when what this hub publishes changed: a claim was lost or won. */
  onPublishingChanged: (republish: readonly string[]) => void = () => {};

  static will(layout: TopicLayout, hubId: string): { topic: string; payload: string } {
    return { topic: layout.presence(hubId), payload: JSON.stringify({ online: false }) };
  }

  constructor(
    private readonly context: ServingContext,
    private readonly settings: MqttSettings,
    private readonly hub: { readonly id: string; readonly share: AddressPatterns },
    private readonly link: BrokerLink,
    private readonly publishPatterns: AddressPatterns,
  ) {
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
    // Its own values and hub messages need not come back (MQTT 5 No Local).
    return { [this.layout.values]: { qos, nl: true }, [this.layout.hubs]: { qos, nl: true } };
  }

  // --- What this hub publishes -------------------------------------------------------

  publishes(parameter: Parameter): boolean {
    return !parameter.remote && (this.publishPatterns.matches(parameter.address) || this.shares(parameter));
  }

  /** True when the other hubs see this parameter: `share` matches it, and its connection is this hub's. */
  private shares(parameter: Parameter): boolean {
    const { connectionId } = parameter;
    return (
      !parameter.remote &&
      this.hub.share.matches(parameter.address) &&
      !parameter.id.startsWith('_') &&
      !this.refused.has(connectionId) &&
      !this.mirrors.has(connectionId)
    );
  }

  isLocal(connectionId: string): boolean {
    return !this.mirrors.has(connectionId) && this.context.graph.hasConnection(connectionId);
  }

  valueProperties(parameter: Parameter): Record<string, string> {
    return { hub: this.hub.id, by: parameter.lastChange?.by ?? '' };
  }

  /** Connected, every retained message in: say this hub is here, and what it runs. */
  up(): void {
    if (!this.link.mqtt5) {
      this.context.log.error('sharing connections with other hubs needs a broker that speaks MQTT 5; this one does not');
      return;
    }
    this.resolveClaims();
    this.link.publish(this.layout.presence(this.hub.id), JSON.stringify({ online: true }), { qos: 1, retain: true }, 'drop');
    this.lastMeta = '';
    this.publishMeta();
    for (const [id, mirror] of this.mirrors) this.show(id, mirror);
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
    };
  }

  private queueReview(): void {
    if (this.reviewQueued) return;
    this.reviewQueued = true;
    afterTurn(() => {
      this.reviewQueued = false;
      if (!this.link.up) return;
      this.resolveClaims();
      this.publishMeta();
    });
  }

  /** This hub's shared connections as the others read them; claims what it shares for the first time. */
  private ownMeta(): SharedConnection[] {
    const { graph } = this.context;
    const local = this.context.hub
      .connections()
      .filter((c) => !this.mirrors.has(c.id) && c.id !== this.context.id && !this.refused.has(c.id) && graph.hasConnection(c.id));
    // One pass over the graph, not one per connection.
    const shared = new Map<string, (readonly [string, ValueType, Access])[]>();
    for (const p of graph.all()) {
      if (!this.shares(p)) continue;
      const list = shared.get(p.connectionId) ?? [];
      list.push([p.id, p.type, p.access]);
      shared.set(p.connectionId, list);
    }
    const described: SharedConnection[] = [];
    for (const info of local) {
      const parameters = shared.get(info.id) ?? [];
      if (parameters.length === 0 && !this.claims.has(info.id)) continue;
      if (!this.claims.has(info.id)) this.claims.set(info.id, this.context.scheduler.now());
      const { id, type, status, reason, code, description, location, group } = info;
      described.push({
        id,
        type,
        status,
        reason,
        ...(code ? { code } : {}),
        description,
        location,
        group,
        since: this.claims.get(id)!,
        parameters,
      });
    }
    const present = new Set(local.map((c) => c.id));
    for (const id of this.claims.keys()) if (!present.has(id)) this.claims.delete(id);
    return described;
  }

  private publishMeta(): void {
    const meta = JSON.stringify({ hub: this.hub.id, connections: this.ownMeta() });
    if (meta === this.lastMeta || !this.link.up) return;
    this.lastMeta = meta;
    this.link.publish(this.layout.connections(this.hub.id), meta, { qos: 1, retain: true }, 'drop');
  }

  // --- What the others publish -------------------------------------------------------

  /** Handles hub topics and the values of mirrored connections; false for anything else. */
  message(topic: string, payload: Buffer, properties: MessageProperties): boolean {
    const hubTopic = this.layout.hubTopic(topic);
    if (hubTopic) {
      if (hubTopic.hubId === this.hub.id) {
        if (hubTopic.kind === 'answers') this.answer(payload, properties);
        return true;
      }
      if (hubTopic.kind === 'presence') this.presence(hubTopic.hubId, payload);
      else if (hubTopic.kind === 'connections') this.described(hubTopic.hubId, payload);
      return true;
    }
    const target = this.layout.parameterOf(topic);
    if (target?.kind !== 'val') return false;
    const connectionId = target.address.slice(0, target.address.indexOf('/'));
    if (this.isLocal(connectionId)) return true;
    const mirror = this.mirrors.get(connectionId);
    const entry = mirror?.parameters.get(target.address.slice(connectionId.length + 1));
    if (mirror && entry) this.follow(mirror, entry.parameter, payload, properties);
    else this.early.set(target.address, { payload, properties });
    return true;
  }

  private presence(hubId: string, payload: Buffer): void {
    const online = payload.length > 0 && parseJson(payload)?.['online'] === true;
    const other = this.other(hubId);
    if (other.online === online) return;
    other.online = online;
    this.context.log.info(`hub ${hubId} ${online ? 'is here' : 'went away'}`);
    for (const [id, mirror] of this.mirrors) {
      if (mirror.owner !== hubId) continue;
      // Gone: its values are unknown until it is back and sends them again.
      if (!online) for (const { parameter } of mirror.parameters.values()) mirror.handle.forget(parameter);
      this.show(id, mirror);
    }
  }

  private described(hubId: string, payload: Buffer): void {
    const data = payload.length > 0 ? parseJson(payload) : { connections: [] };
    const list = Array.isArray(data?.['connections']) ? (data['connections'] as unknown[]).flatMap(readShared) : [];
    this.other(hubId).connections = new Map(list.map((c) => [c.id, c]));
    this.resolveClaims();
  }

  private other(hubId: string): OtherHub {
    let other = this.others.get(hubId);
    if (!other) this.others.set(hubId, (other = { online: false, connections: new Map() }));
    return other;
  }

  /**
   * Decides every id some hub shares: this hub's own connection loses to an earlier claim
   * (it is refused), wins against a later one (its values go out again, over the other's),
   * and the connections it does not run are mirrored from their owner.
   */
  private resolveClaims(): void {
    const owners = new Map<string, { hubId: string; since: number }>();
    for (const [hubId, other] of this.others) {
      for (const shared of other.connections.values()) {
        const best = owners.get(shared.id);
        if (!best || earlier({ hubId, since: shared.since }, best)) owners.set(shared.id, { hubId, since: shared.since });
      }
    }
    const republish: string[] = [];
    let refusedAny = false;
    for (const [id, owner] of owners) {
      const mine = this.claims.get(id);
      const runsHere = this.isLocal(id) && !this.refused.has(id);
      if (runsHere) {
        if (mine !== undefined && earlier({ hubId: this.hub.id, since: mine }, owner)) {
          republish.push(id);
          continue;
        }
        this.refused.add(id);
        this.claims.delete(id);
        refusedAny = true;
        const since = new Date(owner.since).toISOString();
        this.context.hub.refuse(
          id,
          new HubError(
            'PB_CONNECTION_OWNED',
            `hub ${owner.hubId} runs a connection "${id}" (shared since ${since}); connection ids are unique among the hubs on the broker`,
          ),
        );
        continue;
      }
      if (this.refused.has(id) || (this.context.graph.hasConnection(id) && !this.mirrors.has(id))) continue;
      this.mirror(id, owner.hubId, this.others.get(owner.hubId)!.connections.get(id)!);
    }
    for (const [id, mirror] of this.mirrors) {
      if (owners.get(id)?.hubId === mirror.owner) continue;
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
        this.follow(mirror, parameter, early.payload, early.properties);
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

  /** A value from the owner: taken when it is the owner's (a hub that lost the id may have sent one too). */
  private follow(mirror: Mirror, parameter: ProxyParameter, payload: Buffer, properties: MessageProperties): void {
    const from = properties.userProperties?.['hub'];
    if (from !== undefined && from !== mirror.owner) return;
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
    const userProperties = { hub: this.hub.id, origin: origin ?? '' };
    let properties: IClientPublishOptions['properties'] = { userProperties };
    if (answered) {
      const correlation = String(++this.nextCorrelation);
      properties = { userProperties, responseTopic: this.layout.answers(this.hub.id), correlationData: Buffer.from(correlation) };
      this.waiting.set(correlation, { answered, deadline: this.context.scheduler.now() + ANSWER_WITHIN_MS, address });
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

  private answer(payload: Buffer, properties: MessageProperties): void {
    const correlation = properties.correlationData?.toString();
    const waiting = correlation === undefined ? undefined : this.waiting.get(correlation);
    if (!waiting || correlation === undefined) return;
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

/** True when claim `a` came before `b`: earlier, or as early and of the lower hub id. */
function earlier(a: { hubId: string; since: number }, b: { hubId: string; since: number }): boolean {
  return a.since < b.since || (a.since === b.since && a.hubId < b.hubId);
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
  if (!text('id') || typeof c['since'] !== 'number' || !STATUSES.has(text('status')) || !Array.isArray(c['parameters'])) return [];
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
      since: c['since'] as number,
      parameters,
    },
  ];
}
