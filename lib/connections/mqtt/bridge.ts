/**
 * Bridge out and in (R-M2, R-M3). Out: the hub's parameters that are published go to their
 * value topic on every change, retained (triggers not), and all of them again at every
 * connect; a message on a write topic writes the parameter, and is answered when it asks
 * (MQTT 5 response topic). In: each mapped topic is a parameter of this connection whose
 * value follows the payload; a write to it is published to its command topic.
 */
import type { Subscription } from 'rxjs';
import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import {
  after,
  type ConnectionContext,
  DEFAULT_TIMEOUT_MS,
  fail,
  HubError,
  ok,
  type OwnedParameter,
  type Parameter,
  type Result,
  type SetResult,
  toWire,
  type Value,
  SparseLog,
} from '../../sdk/index.ts';
import type { BrokerLink, MessageProperties } from '../../broker/broker-link.ts';
import type { WriteAnswer } from '../../broker/topics.ts';
import { NO_HUB, type Publishing, REJECTED } from '../../site/publishing.ts';
import type { MappedTopic, MqttSettings } from './settings.ts';

/** A published parameter followed: its changes' subscription, and whether they may go in bursts. */
interface Followed {
  readonly subscription: Subscription;
  gathered: boolean;
}

export class Bridge {
  private readonly followed = new Map<string, Followed>();
  private readonly mapped = new Map<string, OwnedParameter[]>();
  private readonly graphWatch: Subscription;
  private readonly warned = new Set<string>();
  /** `set` writes refused since the start (`details`, `/metrics`). */
  refusedWrites = 0;
  /** Refusals, logged at most one line in ten seconds: a flood of bad writes is one line. */
  private readonly refusals: SparseLog;

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: MqttSettings,
    private readonly link: BrokerLink,
    private readonly publishing: Publishing,
  ) {
    this.refusals = new SparseLog(context.log, context.scheduler, 'refused');
    for (const entry of settings.topics) {
      const parameter = context.define(entry.id, {
        type: entry.type,
        access: entry.access,
        forward: (value, _origin, answered) => this.command(entry, value, answered),
      });
      const list = this.mapped.get(entry.topic) ?? [];
      list.push(parameter);
      this.mapped.set(entry.topic, list);
    }
    this.graphWatch = context.graph.everyParameter(
      (parameter) => this.follow(parameter),
      (parameter) => this.unfollow(parameter.address),
    );
  }

  subscriptions(): ISubscriptionMap {
    const { qos, layout } = this.settings;
    const map: ISubscriptionMap = {};
    // Its own writes to other hubs' parameters need not come back (MQTT 5 No Local).
    map[layout.writes] = this.link.mqtt5 ? { qos, nl: true } : { qos };
    for (const topic of this.mapped.keys()) map[topic] = { qos };
    return map;
  }

  /** Publishes every published parameter's value: the broker has them all again. */
  up(): void {
    for (const address of this.followed.keys()) this.republish(address);
  }

  /** Publishes the values of a connection again: another hub may have overwritten them. */
  republishConnection(connectionId: string): void {
    for (const address of this.followed.keys()) if (address.startsWith(`${connectionId}/`)) this.republish(address);
  }

  /** Publishes a parameter's value again, when it is published. */
  republish(address: string): void {
    if (!this.followed.has(address)) return;
    const parameter = this.context.graph.get(address);
    if (parameter && parameter.type !== 'T' && parameter.value !== undefined) this.publishValue(parameter, toWire(parameter.value));
  }

  /** Follows or stops following every parameter again: what is published changed (a claim was won or lost). */
  review(): void {
    for (const parameter of this.context.graph.all()) {
      if (this.publishing.publishes(parameter)) {
        const followed = this.followed.get(parameter.address);
        if (followed) followed.gathered = this.publishing.gathers?.(parameter) === true;
        else this.follow(parameter, true);
      } else this.unfollow(parameter.address);
    }
  }

  private follow(parameter: Parameter, publishNow = false): void {
    if (this.followed.has(parameter.address) || !this.publishing.publishes(parameter)) return;
    const followed: Followed = {
      subscription: parameter.changes$.subscribe((value) => {
        const wire = toWire(value);
        if (!followed.gathered || !this.publishing.gather?.(parameter, wire)) this.publishValue(parameter, wire);
      }),
      gathered: this.publishing.gathers?.(parameter) === true,
    };
    this.followed.set(parameter.address, followed);
    if (publishNow || this.link.up) this.republish(parameter.address);
  }

  private unfollow(address: string): void {
    this.followed.get(address)?.subscription.unsubscribe();
    this.followed.delete(address);
  }

  /** Publishes a value on its value topic; `wire` its string form. */
  private publishValue(parameter: Parameter, wire: string): void {
    const { layout, qos } = this.settings;
    const trigger = parameter.type === 'T';
    const properties = this.publishing.valueProperties?.(parameter);
    const options: IClientPublishOptions = { qos, retain: !trigger, ...(properties ? { properties: { userProperties: properties } } : {}) };
    // Changes gathered for a burst came first: they go first, so that other hubs see this
    // hub's changes in the order they were made.
    this.link.sendGathered();
    // While the broker is away a value is not kept: the next connect publishes every value again.
    // A fire goes out as a trigger's string form, `true` (R-C3), like any value.
    this.link.publish(layout.value(parameter.address), wire, options, 'drop');
  }

  /** A message on a mapped topic or a write topic; false when it is neither. */
  message(topic: string, payload: Buffer, properties: MessageProperties): boolean {
    const mapped = this.mapped.get(topic);
    if (mapped) {
      for (const parameter of mapped) this.follows(parameter, topic, payload);
      return true;
    }
    const target = this.settings.layout.parameterOf(topic);
    if (target?.kind !== 'set') return false;
    this.written(topic, target.address, payload, properties);
    return true;
  }

  /** A mapped topic's payload becomes the value; one that does not convert is logged once per topic and kept out. */
  private follows(parameter: OwnedParameter, topic: string, payload: Buffer): void {
    const reported = parameter.report(parameter.type === 'T' ? null : payload.toString(), `mqtt ${topic}`);
    if (reported.ok || this.warned.has(topic)) return;
    this.warned.add(topic);
    this.context.log.warn(`${topic}: ${reported.error.message} (further payloads that do not convert are not logged)`);
  }

  /**
   * A write from the broker: made when `setAccess` allows it (or, from another hub whose
   * signature verifies, when this hub shares the parameter), answered when asked — a hub on its
   * own answer topic, a plain client only under `<prefix>/$answers/`, never anywhere else.
   */
  private written(topic: string, address: string, payload: Buffer, properties: MessageProperties): void {
    const connectionId = address.slice(0, address.indexOf('/'));
    // Writes to other hubs' connections are theirs to make and answer.
    if (!this.publishing.isLocal(connectionId)) return;
    const from = this.publishing.sender?.(topic, payload, properties) ?? NO_HUB;
    if (from === REJECTED) return this.refused(address, 'its signature does not verify (or it was replayed)');
    const { graph } = this.context;
    const parameter = graph.get(address);
    const origin = from === NO_HUB ? `mqtt ${topic}` : `hub ${from}: ${String(properties.userProperties?.['origin'] ?? '')}`;
    const { responseTopic, correlationData } = properties;
    const answer = (result: SetResult) => {
      if (!result.ok) this.refused(address, result.error.message);
      if (!responseTopic || !this.answersGoTo(responseTopic, from)) return;
      this.answer(responseTopic, correlationData, result);
    };
    // A write meant for another driver of the group (a lower token, or a later one than this hub holds) is not made (R-EG2).
    const stale = from === NO_HUB ? undefined : this.publishing.refusesWrite?.(from, properties);
    if (stale !== undefined) return answer(fail('PB_NOT_ACTIVE', `${address}: ${stale}`));
    if (!parameter) return answer(graph.lookup(address) as Result<never>);
    if (!this.takesWrites(parameter, from !== NO_HUB))
      return answer(fail('PB_FORBIDDEN', `${address} takes no writes from the broker (setAccess of ${this.context.id})`));
    const value = parameter.type === 'T' ? null : payload.toString();
    // A device's parameter answers when the device confirmed the write (R-G1).
    if (!parameter.answersLater) return answer(parameter.set(value, origin));
    const taken = parameter.set(value, origin, answer);
    if (!taken.ok) answer(taken);
  }

  private answer(responseTopic: string, correlationData: Buffer | undefined, result: SetResult): void {
    // The value it changed, when gathered in a burst, goes first: the writer hears the answer after it.
    this.link.sendGathered();
    const answer: WriteAnswer = result.ok ? { ok: true } : { ok: false, error: result.error.message, code: result.error.code };
    this.link.publish(
      responseTopic,
      JSON.stringify(answer),
      { qos: this.settings.qos, properties: { ...(correlationData ? { correlationData } : {}) } },
      'drop',
    );
  }

  private takesWrites(parameter: Parameter, fromHub: boolean): boolean {
    if (parameter.mirrored) return false;
    return this.settings.setAccess.matches(parameter.address) || (fromHub && (this.publishing.sharesWithHubs?.(parameter) ?? false));
  }

  /** Where an answer may go: never a topic of someone else's (a presence, a device's command topic). */
  private answersGoTo(responseTopic: string, from: string | typeof NO_HUB): boolean {
    const { layout } = this.settings;
    return from === NO_HUB ? responseTopic.startsWith(layout.plainAnswers) : responseTopic === layout.answers(from);
  }

  /** Counts a refused `set` write and logs it, at most one line in ten seconds with the number left unlogged. */
  private refused(address: string, reason: string): void {
    this.refusedWrites++;
    this.refusals.warn(`write on ${this.settings.layout.write(address)} refused: ${reason}`);
  }

  /** A write to a mapped topic's parameter: published to its command topic, kept while the broker is away. */
  private command(entry: MappedTopic, value: Value, answered: ((result: SetResult) => void) | undefined): SetResult {
    const payload = toWire(value);
    const address = `${this.context.id}/${entry.id}`;
    // The writer hears within the timeout (R-G1); the value stays held for the broker (R-M4).
    let answer = answered;
    const bound = answered
      ? after(this.context.scheduler, DEFAULT_TIMEOUT_MS, () => {
          answer = undefined;
          const why = `${address}: the broker did not take it within ${DEFAULT_TIMEOUT_MS} ms; it is held and sent when the broker is back (latest value per topic)`;
          answered({ ok: false, error: new HubError('PB_DEVICE_TIMEOUT', why) });
        })
      : undefined;
    this.link.publish(entry.commandTopic, payload, { qos: this.settings.qos, retain: false }, 'keep', (error) => {
      bound?.unsubscribe();
      answer?.(
        error
          ? {
              ok: false,
              error: new HubError('PB_BROKER_UNAVAILABLE', `${address}: not published to ${entry.commandTopic}: ${error.message}`),
            }
          : ok(true),
      );
      answer = undefined;
    });
    return ok(true);
  }

  stop(): void {
    this.graphWatch.unsubscribe();
    for (const { subscription } of this.followed.values()) subscription.unsubscribe();
    this.followed.clear();
  }
}
