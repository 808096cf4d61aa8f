/**
 * Writes to another hub's parameters (R-M5): published on the owner's write topic, bound to
 * the owner and its broker session (R-AV3), with a random correlation so that the owner's
 * answer on this hub's answer topic reaches the writer — or, after five seconds without
 * one, the writer is told the owner did not answer.
 */
import { randomBytes } from 'node:crypto';
import type { Subscription } from 'rxjs';
import type { IClientPublishOptions } from 'mqtt';
import {
  type Answered,
  every,
  fail,
  HubError,
  ok,
  type Scheduler,
  type SetResult,
  toWire,
  type Value,
  type ValueType,
} from '../../sdk/index.ts';
import type { BrokerLink, MessageProperties } from '../../broker/broker-link.ts';
import type { TopicLayout, WriteAnswer } from '../../broker/topics.ts';
import { type OtherHub, parseJson } from '../peers/description.ts';

/** How long a writer waits for the owner's answer to a forwarded write. */
const ANSWER_WITHIN_MS = 5000;

export class RemoteWrites {
  private readonly waiting = new Map<
    string,
    { readonly answered: Answered; readonly deadline: number; readonly address: string; readonly owner: string }
  >();
  private sweep: Subscription | undefined;

  constructor(
    private readonly hubId: string,
    private readonly link: BrokerLink,
    private readonly others: ReadonlyMap<string, OtherHub>,
    private readonly layout: TopicLayout,
    private readonly qos: 0 | 1 | 2,
    private readonly scheduler: Scheduler,
    /** The fencing token a write to `owner` carries (share/tokens.ts): undefined when the owner is in no group. */
    private readonly tokenFor: (owner: string) => number | undefined = () => undefined,
  ) {}

  /** Sends a write of `address` to the hub that owns it; `answered`, when given, is told the owner's answer. */
  send(
    address: string,
    owner: string | undefined,
    type: ValueType,
    value: Value,
    origin: string | undefined,
    answered: Answered | undefined,
  ): SetResult {
    // Without the broker nothing reaches the owner: say so, rather than that the owner is away.
    if (!this.link.up)
      return fail('PB_BROKER_UNAVAILABLE', `${address}: not sent: ${this.link.downReason || 'the broker is not connected yet'}`);
    const other = owner === undefined ? undefined : this.others.get(owner);
    if (owner === undefined || !other?.online) return fail('PB_OWNER_UNAVAILABLE', `${address}: hub ${owner ?? '?'} is away`);
    // Bound to the owner and its session now: played back later, to it or to a hub that took over, it is refused (R-AV3).
    // And fenced (R-EG2): the owner refuses it when it knows a later driver of its group than the writer does.
    const token = this.tokenFor(owner);
    const userProperties = {
      origin: origin ?? '',
      to: owner,
      session: other.session ?? '',
      ...(token === undefined ? {} : { token: String(token) }),
    };
    let properties: IClientPublishOptions['properties'] = { userProperties };
    if (answered) {
      // Random: no one who reads the broker can guess which answer a write waits for.
      const correlation = randomBytes(16);
      properties = { userProperties, responseTopic: this.layout.answers(this.hubId), correlationData: correlation };
      const deadline = this.scheduler.now() + ANSWER_WITHIN_MS;
      this.waiting.set(correlation.toString('hex'), { answered, deadline, address, owner });
      this.sweep ??= every(this.scheduler, 500, () => this.expire());
    }
    this.link.publish(this.layout.write(address), type === 'T' ? '' : toWire(value), { qos: this.qos, retain: false, properties }, 'keep');
    return ok(true);
  }

  /** An answer signed by `from`: taken only from the hub the write went to. */
  answer(from: string, payload: Buffer, properties: MessageProperties): void {
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

  /** Every writer still waiting is told the connection stopped. */
  stop(): void {
    this.sweep?.unsubscribe();
    for (const [, waiting] of this.waiting)
      waiting.answered(fail('PB_OWNER_UNAVAILABLE', `${waiting.address}: the mqtt connection stopped before the owner answered`));
    this.waiting.clear();
  }

  private expire(): void {
    const now = this.scheduler.now();
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
