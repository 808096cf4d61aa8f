/**
 * Hubs prove who they are on a shared broker. Every hub of a site holds the same site key;
 * each message a hub publishes carries, as MQTT 5 user properties, the hub's id (`hub`), a
 * counter (`n`: `<start ms>.<session>.<seq>`, the sender's start time, its broker session
 * and a sequence) and `sig`: an
 * HMAC-SHA256 over the topic, the counter, the other user properties, the response topic,
 * the correlation data and the payload. A receiver takes a message only when the signature
 * verifies and the counter is above the last one it took from that hub on that topic: a
 * client without the key can neither forge a message nor replay one it overheard.
 *
 * Counters outlive a run on both sides (R-AV3). A signer's start only grows, across restarts
 * and clock jumps back (the hub keeps it in its state folder); a verifier keeps the last
 * counter it took on the topics the broker retains (presence, role, description, records),
 * so a message from before its own restart, played back, is still refused. What is not
 * retained is bound instead to the receiver's broker session (site/, group/renewals.ts).
 *
 * Any holder of the site key is a hub of the site: the key is the trust boundary, kept in a
 * file or an environment variable, never in the flow file.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export { type KeySource, loadSiteKey, MIN_KEY_LENGTH } from './site-key.ts';

/** The signature: the HMAC-SHA256 in base64url, cut to 22 characters (128 bits and a little more). */
const MAC_LENGTH = 22;

/** What is signed besides topic and payload. */
export interface SignedProperties {
  userProperties?: Record<string, string | string[]>;
  responseTopic?: string;
  correlationData?: Buffer;
}

/**
 * The signature of a message. What it covers is the wire format, which hubs of other versions
 * check: the topic, then `\0name=value` for each user property but `sig`, by name, then the
 * response topic, the correlation data in hex and the payload, each after a `\0`. It takes the
 * parts rather than a properties object: a hub signs or checks every value it shares, and
 * objects made per message (spread, destructured) were half of what signing cost.
 */
function mac(
  key: Buffer,
  topic: string,
  payload: string | Buffer,
  user: Readonly<Record<string, string | string[]>> | undefined,
  responseTopic: string | undefined,
  correlationData: Buffer | undefined,
): string {
  let text = topic;
  if (user) {
    const names = Object.keys(user);
    if (names.length > 1) names.sort();
    for (const name of names) if (name !== 'sig') text += `\0${name}=${String(user[name])}`;
  }
  text += `\0${responseTopic ?? ''}\0${correlationData === undefined ? '' : correlationData.toString('hex')}\0`;
  return createHmac('sha256', key).update(text).update(payload).digest('base64url').slice(0, MAC_LENGTH);
}

/** How far ahead of this machine's clock a counter's start may be: clocks a little apart, a start kept past a clock set back. */
const AHEAD_MS = 24 * 3600 * 1000;

/** The sequence of a last will: above every message of its session, below every message of the next. */
const LAST = 'last';

/** Signs what one hub publishes. */
export class Signer {
  private session = 0;
  private sequence = 0;

  /** `start`: this run's first counter part, above every earlier run's (see `nextStart`). */
  constructor(
    private readonly key: Buffer,
    readonly hubId: string,
    private start = Date.now(),
  ) {}

  /**
   * A message of this hub's that it did not send carries counter `n` (a holder of the key
   * signed it, as this hub): this hub's counters move past it, so that what it sends next is
   * taken over it. Returns the new start to keep, when it moved.
   */
  passed(n: unknown): number | undefined {
    if (typeof n !== 'string') return undefined;
    const [start] = readCounter(n);
    if (start === undefined || !Number.isSafeInteger(start) || start < this.start) return undefined;
    this.start = start + 1;
    return this.start;
  }

  /** True when counter `n` is one this signer gave: a message of this run, not of one before a restart. */
  issued(n: unknown): boolean {
    return typeof n === 'string' && n.startsWith(`${this.start}.`);
  }

  /**
   * A new broker session begins: returns its last will's properties, signed to count after
   * everything the hub sends in the session (the broker publishes it when the session ends)
   * and before anything of the next.
   */
  nextSession(topic: string, payload: string): SignedProperties {
    this.session++;
    this.sequence = 0;
    return this.signed(topic, payload, {}, LAST);
  }

  /** The properties with `hub`, `n` and `sig` set: what goes out with the message. */
  sign<P extends SignedProperties>(topic: string, payload: string | Buffer, properties: P): P {
    return this.signed(topic, payload, properties, String(++this.sequence));
  }

  private signed<P extends SignedProperties>(topic: string, payload: string | Buffer, properties: P, sequence: string): P {
    const userProperties: Record<string, string | string[]> = {};
    const given = properties.userProperties;
    if (given) for (const name of Object.keys(given)) userProperties[name] = given[name]!;
    userProperties['hub'] = this.hubId;
    userProperties['n'] = `${this.start}.${this.session}.${sequence}`;
    userProperties['sig'] = mac(this.key, topic, payload, userProperties, properties.responseTopic, properties.correlationData);
    return { ...properties, userProperties };
  }
}

/**
 * The start of a signer's run: now, or one past the start of the run before when the clock
 * says earlier (it was set back): counters then grow across restarts whatever the clock does.
 */
export function nextStart(before: unknown, now = Date.now()): number {
  return typeof before === 'number' && Number.isSafeInteger(before) && before >= now ? before + 1 : now;
}

/** Why a message was not taken: `duplicate` is the same message again (a retained one after a reconnect). */
export type Rejection = 'unsigned' | 'bad signature' | 'replayed' | 'duplicate';

/** The hub that signed a message, or why it is not taken. */
export type Verified = { readonly ok: true; readonly hub: string } | { readonly ok: false; readonly why: Rejection };

/** The last counter taken on topics whose marks outlive the run: kept in the hub's state folder. */
export interface KeptMarks {
  /** True for a topic whose mark is kept (what the broker retains). */
  keeps(topic: string): boolean;
  get(key: string): string | undefined;
  set(key: string, n: string): void;
}

/** Checks what other hubs (and anyone else) publish. */
export class Verifier {
  /** The last counter taken per hub and topic. */
  private readonly last = new Map<string, readonly number[]>();

  constructor(
    private readonly key: Buffer,
    private readonly kept?: KeptMarks,
  ) {}

  verify(topic: string, payload: Buffer, properties: SignedProperties): Verified {
    const user = properties.userProperties;
    const hub = user?.['hub'];
    const n = user?.['n'];
    const sig = user?.['sig'];
    if (typeof hub !== 'string' || typeof n !== 'string' || typeof sig !== 'string') return { ok: false, why: 'unsigned' };
    const expected = Buffer.from(mac(this.key, topic, payload, user, properties.responseTopic, properties.correlationData));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: 'bad signature' };
    const counter = readCounter(n);
    const key = `${hub}\0${topic}`;
    const before = this.last.get(key);
    let order = before ? compareCounters(counter, before) : 1;
    const kept = this.kept?.keeps(topic) ? this.kept : undefined;
    const mark = !before && kept?.get(key);
    // The message taken last before a restart, still retained, is taken again once.
    if (mark) order = compareCounters(counter, readCounter(mark)) < 0 ? -1 : 1;
    if (order === 0) return { ok: false, why: 'duplicate' };
    // A start far ahead of the clock would hold every later message of the hub on the topic back.
    if (order < 0 || counter.length !== 3 || counter.some(Number.isNaN) || counter[0]! > Date.now() + AHEAD_MS)
      return { ok: false, why: 'replayed' };
    this.last.set(key, counter);
    kept?.set(key, n);
    return { ok: true, hub };
  }
}

/** A counter read as numbers: what orders a hub's messages across its topics. */
export type Counter = readonly number[];

/** The counter of a signed message's `n`; undefined when it carries none. */
export function counterOf(n: unknown): Counter | undefined {
  return typeof n === 'string' ? readCounter(n) : undefined;
}

/** A counter `<start>.<session>.<seq|last>` as numbers; NaN parts for anything else. */
function readCounter(n: string): number[] {
  const first = n.indexOf('.');
  const second = n.indexOf('.', first + 1);
  if (first < 0 || second < 0) return [Number.NaN];
  const sequence = n.slice(second + 1);
  return [Number(n.slice(0, first)), Number(n.slice(first + 1, second)), sequence === LAST ? Number.POSITIVE_INFINITY : Number(sequence)];
}

/** Orders two counters of one signer part by part: negative when `a` came first. */
export function compareCounters(a: Counter, b: Counter): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
