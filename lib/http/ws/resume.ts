/**
 * What lets a WebSocket client come back for what it missed (R-W3): the replay buffer a
 * resumable topic keeps of what it sent, and the tokens that bind a resume to the login,
 * filters and options it was given to. Neither touches a socket.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long and how much a topic keeps for clients that may come back (the rest-api's `resumeWindow`, `resumeChanges`). */
export interface ResumeLimits {
  /** Milliseconds a message is kept, and a topic whose clients all left waits for one to come back. */
  readonly window: number;
  /** Messages a topic keeps at most. */
  readonly changes: number;
  /** Bytes of messages a topic keeps at most: a few long strings must not hold the hub's memory. */
  readonly bytes: number;
  /**
   * Bytes all topics of the hub keep together: a thousand clients with a filter set each must
   * not make a thousand times `bytes`. A topic that would pass it lets go of its own oldest.
   */
  readonly totalBytes: number;
}

export const defaultResumeLimits: ResumeLimits = {
  window: 30_000,
  changes: 10_000,
  bytes: 4 * 1024 * 1024,
  totalBytes: 64 * 1024 * 1024,
};

/** What the topics of one hub keep together, in bytes (see `ResumeLimits.totalBytes`). */
export class ReplayBudget {
  used = 0;
}

/**
 * The messages one resumable topic sent, with their `seq`, newest last: at most
 * `changes` of them and `bytes` of text, none older than `window`. What it lets go, it
 * remembers as a `seq` below which it can no longer replay, so a client further behind is
 * sent a snapshot instead of an incomplete replay.
 */
export class ReplayBuffer {
  private readonly seqs: number[] = [];
  private readonly messages: string[] = [];
  /** What each message is of (its parameter): a rate-limited client's replay keeps one message per key. */
  private readonly keys: unknown[] = [];
  private readonly times: number[] = [];
  /** Index of the oldest message; the arrays are a ring once they hold `changes`. */
  private head = 0;
  private count = 0;
  private held = 0;
  /** Every message with a `seq` at or below this may have been let go. */
  private lostUpTo: number;

  /** `from`: the hub's `seq` when the topic began; nothing before it was kept. */
  constructor(
    private readonly limits: ResumeLimits,
    from: number,
    private readonly budget: ReplayBudget = new ReplayBudget(),
  ) {
    this.lostUpTo = from;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes of text held (two a character at most in V8; counted as one, as `/metrics` counts sent bytes). */
  get bytes(): number {
    return this.held;
  }

  push(seq: number, key: unknown, message: string, now: number): void {
    // Resume turned off: every message is lost as soon as it is sent.
    if (this.limits.changes === 0 || this.limits.window === 0) {
      this.lostUpTo = seq;
      return;
    }
    const over = () =>
      this.count === this.limits.changes ||
      this.held + message.length > this.limits.bytes ||
      this.budget.used + message.length > this.limits.totalBytes;
    while (this.count > 0 && over()) this.dropOldest();
    this.dropOlderThan(now);
    const at = (this.head + this.count) % this.limits.changes;
    this.seqs[at] = seq;
    this.messages[at] = message;
    this.keys[at] = key;
    this.times[at] = now;
    this.count++;
    this.held += message.length;
    this.budget.used += message.length;
  }

  /** Lets go of everything: the topic is gone. */
  clear(): void {
    while (this.count > 0) this.dropOldest();
  }

  /**
   * What was sent after `seq`, in order; with `conflate`, only the last message of each
   * key (a rate-limited client resumes to the latest value of each parameter). Undefined
   * when some of it is no longer kept.
   */
  since(seq: number, conflate: boolean, now: number): { readonly messages: string[]; readonly seqs: number[] } | undefined {
    this.dropOlderThan(now);
    if (seq < this.lostUpTo) return undefined;
    const messages: string[] = [];
    const seqs: number[] = [];
    const seen = new Set<unknown>();
    // Newest first, so that a conflated replay keeps each key's last message; put in order at the end.
    for (let i = this.count - 1; i >= 0; i--) {
      const at = (this.head + i) % this.limits.changes;
      if ((this.seqs[at] as number) <= seq) break;
      if (conflate) {
        if (seen.has(this.keys[at])) continue;
        seen.add(this.keys[at]);
      }
      messages.push(this.messages[at] as string);
      seqs.push(this.seqs[at] as number);
    }
    return { messages: messages.reverse(), seqs: seqs.reverse() };
  }

  private dropOlderThan(now: number): void {
    while (this.count > 0 && (this.times[this.head] as number) < now - this.limits.window) this.dropOldest();
  }

  private dropOldest(): void {
    this.lostUpTo = this.seqs[this.head] as number;
    const length = (this.messages[this.head] as string).length;
    this.held -= length;
    this.budget.used -= length;
    this.messages[this.head] = '';
    this.keys[this.head] = undefined;
    this.head = (this.head + 1) % this.limits.changes;
    this.count--;
  }
}

/** What a resume token says of a client that comes back with it. */
export type TokenCheck =
  /** Given by this hub to the same login, filters and options: it may resume. */
  | 'ours'
  /** Given before the hub (or this rest-api connection) started again: what it missed is gone, it is sent a snapshot. */
  | 'stale'
  /** Given to another login, or to other filters or options: refused. */
  | 'foreign';

/**
 * Resume tokens: `<run>.<mac>`, the MAC of the topic's key (login, filters, options) under
 * a key made when this rest-api connection started. Nothing is kept per token: the hub
 * checks a token by making it again for the client that brings it. The token grants
 * nothing by itself (the upgrade is authenticated as any other); it only names the stream
 * the client was on.
 */
export class ResumeTokens {
  private readonly run = randomBytes(6).toString('base64url');
  private readonly key = randomBytes(32);

  tokenFor(topicKey: string): string {
    return `${this.run}.${this.mac(topicKey)}`;
  }

  check(token: string, topicKey: string): TokenCheck {
    const dot = token.indexOf('.');
    if (token.slice(0, dot) !== this.run) return 'stale';
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.mac(topicKey));
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'ours' : 'foreign';
  }

  private mac(topicKey: string): string {
    return createHmac('sha256', this.key).update(topicKey).digest('base64url').slice(0, 22);
  }
}

/** The shape of a token in an upgrade's query (checked before anything is looked up). */
export const RESUME_TOKEN = /^[A-Za-z0-9_-]{1,16}\.[A-Za-z0-9_-]{1,64}$/;

/** What a token of another shape is taken as: one of no run of this hub, so `stale` (a resync), never `foreign`. */
export const UNKNOWN_TOKEN = '';

/** `{"p":…,"v":…,"seq":n}`: a message of a resumable topic, from the message every other topic is sent. */
export const withSeq = (message: string, seq: number) => `${message.slice(0, -1)},"seq":${seq}}`;

/** The `seq` a message of a resumable topic carries (its last member, written by `withSeq`). */
export const seqOf = (message: string) => Number(message.slice(message.lastIndexOf(':') + 1, -1));
