/**
 * The topics clients share, and what the server lets out at all. Clients with the same
 * filters, access, options and rate (on the ladder) share one topic, made when the first
 * joins and gone when the last leaves — or, for a resumable topic (R-W3), kept for
 * `resumeWindow` in case one comes back. A resume token is the topic key's MAC, so a token
 * brought back to other filters or another login is refused.
 */
import { type Observable, Subject } from 'rxjs';
import type { Pattern } from '../../core/regex.ts';
import { after, type Scheduler } from '../../core/scheduler.ts';
import { rateAtOrBelow, rateLadder } from './rate-ladder.ts';
import { defaultResumeLimits, ReplayBudget, ReplayBuffer, type ResumeLimits, ResumeTokens, type TokenCheck } from './resume.ts';
import { Topic, type WsClient } from './state.ts';

/**
 * Topics whose clients all left and that wait `resumeWindow` for one to come back, at most:
 * past it the longest waiting goes (its clients get a snapshot). Each holds up to its
 * `ResumeLimits`, so this bounds what clients that never come back cost.
 */
const WAITING_TOPICS_AT_MOST = 64;

/**
 * The key of the topic a client belongs to: what it is sent and how (options, rate on the
 * ladder), the login's access and its filters. A resume token is this key's MAC.
 */
function topicKeyOf({ filters, access, batch, maxHz, origins, meta, resume }: WsClient): string {
  const rate = rateAtOrBelow(maxHz) ?? rateLadder[0];
  const sources = filters.map((f) => f.source).sort();
  return `${batch ? 'batch' : ''} ${rate}${origins ? ' origins' : ''}${meta ? ' meta' : ''}${resume ? ' resume' : ''}\n${access.name}\n${sources.join('\n')}`;
}

export class Topics {
  private readonly byKey = new Map<string, Topic>();
  private turnover = 0;
  private made = 0;
  private readonly tokens = new ResumeTokens();
  /** What every resumable topic keeps together (`ResumeLimits.totalBytes`). */
  private readonly replayBudget = new ReplayBudget();
  /** Resumable topics without members, waiting for a client to come back; the longest waiting first. */
  private readonly idle = new Set<Topic>();
  /** Clients that came back (R-W3): resumed, sent a snapshot instead, refused at the upgrade. */
  private readonly comebacks = { resumed: 0, resynced: 0, refused: 0 };
  private readonly drops = new Subject<Topic>();
  /** Topics as they go: what their clients' parts kept for them (a tick under way) ends with them. */
  readonly dropped$: Observable<Topic> = this.drops.asObservable();

  constructor(
    private readonly serverFilters: readonly Pattern[],
    private readonly scheduler: Scheduler,
    private readonly resume: ResumeLimits = defaultResumeLimits,
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  /** Bumped when a topic comes or goes: each entry's list of topics is found again at its next change. */
  get version(): number {
    return this.turnover;
  }

  values(): IterableIterator<Topic> {
    return this.byKey.values();
  }

  /** Whether the topic is still one of the hub's (a topic that went leaves its slices of work behind). */
  has(topic: Topic): boolean {
    return this.byKey.get(topic.key) === topic;
  }

  /** Whether the server's filters let the parameter at `address` out at all. */
  exposes(address: string): boolean {
    return this.serverFilters.length === 0 || this.serverFilters.some((filter) => filter.test(address));
  }

  /** Whether the topic's clients are sent the parameter at `address`. */
  passes(topic: Topic, address: string): boolean {
    return this.exposes(address) && topic.matches(address);
  }

  /** Whether a topic's snapshot goes through the graph itself, nothing found first: it and the server filter nothing. */
  passesAll(topic: Topic): boolean {
    return topic.passesAll && this.serverFilters.length === 0;
  }

  /**
   * The topic a client joins, one more member: made for the first of its kind, taken back
   * from waiting when a client comes back to it. A resumable topic keeps what it sends from
   * the hub's change count `now` on.
   */
  enter(client: WsClient, now: number): Topic {
    const key = topicKeyOf(client);
    let topic = this.byKey.get(key);
    if (!topic) {
      // On the rate ladder, however the client was made: the topics of one filter set stay few.
      const maxHz = rateAtOrBelow(client.maxHz) ?? rateLadder[0];
      const { filters, access, batch, origins, meta, resume } = client;
      const interval = maxHz > 0 ? 1000 / maxHz : 0;
      const replay = resume ? new ReplayBuffer(this.resume, now, this.replayBudget) : undefined;
      const token = resume ? this.tokens.tokenFor(key) : '';
      topic = new Topic(`t${++this.made}`, key, filters, access, batch, interval, origins, meta, replay, token);
      this.byKey.set(key, topic);
      this.turnover++;
    }
    if (topic.goes) {
      topic.goes.unsubscribe();
      topic.goes = undefined;
      this.idle.delete(topic);
    }
    topic.members++;
    return topic;
  }

  /** A member left: the last one out drops the topic, or has a resumable one wait for a client to come back. */
  left(topic: Topic): void {
    if (--topic.members > 0) return;
    if (topic.replay && this.resume.window > 0) this.waitForComeback(topic);
    else this.drop(topic);
  }

  /**
   * What the token a client brings back says of it (R-W3), before it is let in: one given
   * to another login or to other filters or options is `foreign`, and refused; undefined
   * for a client that brings none.
   */
  checkResume(client: WsClient): TokenCheck | undefined {
    const token = client.resume?.token;
    if (token === undefined) return undefined;
    const check = this.tokens.check(token, topicKeyOf(client));
    if (check === 'foreign') this.comebacks.refused++;
    return check;
  }

  /**
   * What a client that came back with `token` and the last `seq` it received missed (R-W3),
   * when the topic holds all it sent after that `seq`; undefined when it does not (the
   * client is sent a snapshot). `count`: the hub's change count now. Counted either way.
   */
  missedBy(topic: Topic, token: string, seq: number | undefined, count: number): { readonly messages: string[] } | undefined {
    const missed =
      seq !== undefined && seq <= count && this.tokens.check(token, topic.key) === 'ours'
        ? topic.replay?.since(seq, topic.interval > 0, this.scheduler.now())
        : undefined;
    if (missed) this.comebacks.resumed++;
    else this.comebacks.resynced++;
    return missed;
  }

  /** What resumable topics keep, with how clients that came back fared: for `/metrics`. */
  resumeStats(): { topics: number; messages: number; bytes: number; resumed: number; resynced: number; refused: number } {
    let [topics, messages, bytes] = [0, 0, 0];
    for (const topic of this.byKey.values()) {
      if (!topic.replay) continue;
      topics++;
      messages += topic.replay.size;
      bytes += topic.replay.bytes;
    }
    return { topics, messages, bytes, ...this.comebacks };
  }

  /** Every topic's wait for a client to come back ended: the hub stops. */
  stop(): void {
    for (const topic of this.byKey.values()) topic.goes?.unsubscribe();
  }

  /** A resumable topic whose clients all left waits `window` for one to come back, still keeping what it would send. */
  private waitForComeback(topic: Topic): void {
    topic.goes = after(this.scheduler, this.resume.window, () => this.drop(topic));
    this.idle.add(topic);
    if (this.idle.size > WAITING_TOPICS_AT_MOST) this.drop(this.idle.values().next().value as Topic);
  }

  private drop(topic: Topic): void {
    topic.goes?.unsubscribe();
    topic.replay?.clear();
    this.idle.delete(topic);
    this.byKey.delete(topic.key);
    this.turnover++;
    this.drops.next(topic);
  }
}
