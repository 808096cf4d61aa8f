import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressPatterns } from '../core/address-pattern.ts';
import { anonymousAccess, type ClientAccess, fullAccess, scopedAccess } from './access.ts';

/** A named token with the addresses it may read and write (R-A1). */
export interface ScopedToken {
  readonly name: string;
  /** The token, or `sha256:<hex>` of it, so a flow file need not hold the secret. */
  readonly token: string;
  readonly read: AddressPatterns;
  readonly write: AddressPatterns;
  /** May read `/metrics`. */
  readonly metrics?: boolean;
  /** May ask a standby to take over (`POST /failover`). */
  readonly admin?: boolean;
}

export interface Credentials {
  readonly username: string;
  readonly password: string;
  readonly token: string;
  readonly tokens?: readonly ScopedToken[];
}

/** Where a request's credentials may be: the header, a `?access_token=`, the session cookie's value. */
export interface Offered {
  readonly authorization: string;
  readonly accessToken?: string;
  readonly session?: string;
}

interface Holder {
  readonly digest: Buffer;
  readonly access: ClientAccess;
}

/** What signs session cookies besides the credentials. */
export interface SessionSigning {
  /** The key now, read at each use so that a new key signs every browser out at once; default: one of this process alone. */
  readonly key?: () => Buffer;
  /** What the cookie is good for (the connection's id): a cookie of one rest-api does not sign in at another. */
  readonly scope?: string;
}

/**
 * R-H5, R-H11, R-A1: Basic (username + password), Bearer tokens — the `token` with full
 * access and scoped tokens with theirs — and browser sessions signed in with a token. With
 * nothing configured every request has full access. Secrets are hashed before they are
 * compared, in constant time, so a comparison takes the same time whatever is offered.
 */
export class Authenticator {
  /** True when requests need credentials. */
  readonly required: boolean;
  /** One `WWW-Authenticate` value per configured scheme, for 401 answers. */
  readonly challenges: readonly string[];
  /** Tokens are configured: a browser may sign in with one. */
  readonly offersTokens: boolean;
  /** A user name and password are configured. */
  readonly offersBasic: boolean;
  private readonly basic: Buffer | undefined;
  private readonly holders: readonly Holder[];
  private readonly sessionKey: () => Buffer;
  private readonly scope: string;

  constructor({ username, password, token, tokens = [] }: Credentials, { key, scope = '' }: SessionSigning = {}) {
    const own = randomBytes(32);
    this.sessionKey = key ?? (() => own);
    this.scope = scope;
    const basicConfigured = username !== '' || password !== '';
    this.basic = basicConfigured ? digest(`${username}:${password}`) : undefined;
    this.holders = [
      ...(token !== '' ? [{ digest: digest(token), access: fullAccess }] : []),
      ...tokens.map((scoped) => ({
        digest: storedDigest(scoped.token),
        access: scopedAccess(scoped.name, scoped.read, scoped.write, scoped.metrics, scoped.admin),
      })),
    ];
    this.offersTokens = this.holders.length > 0;
    this.offersBasic = this.basic !== undefined;
    this.required = this.basic !== undefined || this.holders.length > 0;
    this.challenges = [
      ...(this.basic ? ['Basic realm="patchbay", charset="UTF-8"'] : []),
      ...(this.holders.length > 0 ? ['Bearer realm="patchbay"'] : []),
    ];
  }

  /** The access the credentials grant, or undefined when they grant none. */
  identify({ authorization, accessToken = '', session = '' }: Offered): ClientAccess | undefined {
    if (!this.required) return anonymousAccess;
    const space = authorization.indexOf(' ');
    const scheme = authorization.slice(0, Math.max(space, 0)).toLowerCase();
    const value = authorization.slice(space + 1).trim();
    if (this.basic && scheme === 'basic' && same(digest(Buffer.from(value, 'base64').toString('utf8')), this.basic)) return fullAccess;
    const offered = scheme === 'bearer' ? value : accessToken;
    if (offered !== '') {
      const granted = this.byToken(offered);
      if (granted) return granted;
    }
    return session !== '' ? this.bySession(session) : undefined;
  }

  /** The access of a token, or undefined. Every holder is compared, so the time says nothing of which. */
  byToken(token: string): ClientAccess | undefined {
    const offered = digest(token);
    let granted: ClientAccess | undefined;
    for (const holder of this.holders) if (same(offered, holder.digest)) granted ??= holder.access;
    return granted;
  }

  /** The value of a session cookie for this access: its name, signed. */
  sessionFor(access: ClientAccess): string {
    const holder = this.holders.find((h) => h.access === access);
    return holder ? `${encodeURIComponent(access.name)}.${this.sign(holder)}` : '';
  }

  private bySession(session: string): ClientAccess | undefined {
    const dot = session.lastIndexOf('.');
    if (dot < 0) return undefined;
    let name: string;
    try {
      name = decodeURIComponent(session.slice(0, dot));
    } catch {
      return undefined;
    }
    const holder = this.holders.find((h) => h.access.name === name);
    if (!holder) return undefined;
    const signature = Buffer.from(session.slice(dot + 1));
    const expected = Buffer.from(this.sign(holder));
    return signature.length === expected.length && timingSafeEqual(signature, expected) ? holder.access : undefined;
  }

  /**
   * The signature of a session: the key, what it is good for, the token's digest and its
   * name. A token changed in the flow file ends the sessions it began, as a new key ends all.
   */
  private sign({ digest: tokenDigest, access }: Holder): string {
    return createHmac('sha256', this.sessionKey())
      .update(`${this.scope}\n`)
      .update(tokenDigest)
      .update(`\n${access.name}`)
      .digest('base64url');
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A token as configured: `sha256:<hex>` is already its digest. */
function storedDigest(token: string): Buffer {
  return token.startsWith('sha256:') ? Buffer.from(token.slice('sha256:'.length), 'hex') : digest(token);
}

function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
