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
 * Any holder of the site key is a hub of the site: the key is the trust boundary, kept in a
 * file or an environment variable, never in the flow file.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fail, ok, type Result } from '../../sdk/index.ts';

/** Where the site key comes from: a file (its absolute path) or an environment variable. */
export type KeySource = { readonly file: string } | { readonly env: string };

/** The shortest key taken, in characters: `openssl rand -hex 32` makes 64 (256 random bits). */
export const MIN_KEY_LENGTH = 32;
/** The signature: the HMAC-SHA256 in base64url, cut to 22 characters (128 bits and a little more). */
const MAC_LENGTH = 22;

/** Reads the site key; the reason when it is missing or too short. */
export function loadSiteKey(source: KeySource): Result<Buffer> {
  let text: string | undefined;
  let where: string;
  if ('file' in source) {
    where = `the key file ${source.file}`;
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      return fail('PB_START_FAILED', `${where} cannot be read: ${(error as Error).message}`);
    }
  } else {
    where = `the environment variable ${source.env}`;
    text = process.env[source.env];
    if (text === undefined || text === '')
      return fail('PB_START_FAILED', `${where} is not set: hubs that share a broker need the site key`);
  }
  const key = Buffer.from(text.trim(), 'utf8');
  if (key.length < MIN_KEY_LENGTH)
    return fail(
      'PB_START_FAILED',
      `${where} holds ${key.length} characters; a site key has at least ${MIN_KEY_LENGTH} (make one with: openssl rand -hex 32, 64 characters of 256 random bits)`,
    );
  return ok(key);
}

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

/** The sequence of a last will: above every message of its session, below every message of the next. */
const LAST = 'last';

/** Signs what one hub publishes. */
export class Signer {
  private readonly start = Date.now();
  private session = 0;
  private sequence = 0;

  constructor(
    private readonly key: Buffer,
    readonly hubId: string,
  ) {}

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

/** Why a message was not taken: `duplicate` is the same message again (a retained one after a reconnect). */
export type Rejection = 'unsigned' | 'bad signature' | 'replayed' | 'duplicate';

/** The hub that signed a message, or why it is not taken. */
export type Verified = { readonly ok: true; readonly hub: string } | { readonly ok: false; readonly why: Rejection };

/** Checks what other hubs (and anyone else) publish. */
export class Verifier {
  /** The last counter taken per hub and topic. */
  private readonly last = new Map<string, readonly number[]>();

  constructor(private readonly key: Buffer) {}

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
    const order = before ? compare(counter, before) : 1;
    if (order === 0) return { ok: false, why: 'duplicate' };
    if (order < 0 || counter.length !== 3 || counter.some(Number.isNaN)) return { ok: false, why: 'replayed' };
    this.last.set(key, counter);
    return { ok: true, hub };
  }
}

/** A counter `<start>.<session>.<seq|last>` as numbers; NaN parts for anything else. */
function readCounter(n: string): number[] {
  const first = n.indexOf('.');
  const second = n.indexOf('.', first + 1);
  if (first < 0 || second < 0) return [Number.NaN];
  const sequence = n.slice(second + 1);
  return [Number(n.slice(0, first)), Number(n.slice(first + 1, second)), sequence === LAST ? Number.POSITIVE_INFINITY : Number(sequence)];
}

/** Orders two counters part by part: negative when `a` came first. */
function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
