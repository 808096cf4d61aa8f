/**
 * Whether a message of the site is taken: signed with the site key by which hub, not taken
 * before, and — for a write or a renewal — bound to this hub's broker session now (R-AV3).
 * What is not taken is counted in `/metrics` and said in the log, a line in ten seconds.
 */
import { randomBytes } from 'node:crypto';
import type { Records, SparseLog } from '../../sdk/index.ts';
import type { MessageProperties } from '../../broker/broker-link.ts';
import { NO_HUB, REJECTED } from '../publishing.ts';
import type { SiteOverruns } from '../settings.ts';
import type { Rejection, Signer, Verifier } from '../../broker/signing.ts';

/** The site key at work: what signs this hub's messages and checks the others'. */
export interface SiteTrust {
  readonly signer: Signer;
  readonly verifier: Verifier;
}

/** What the log says of a message that is not taken. */
const REJECTIONS: Record<Rejection, string> = {
  unsigned: 'not signed with the site key (a client that is not a hub of the site)',
  'bad signature':
    "its signature does not verify with this hub's site key: a hub with another key (do all hubs of the site hold the same one?), or a forgery",
  replayed: 'a message that was taken before, sent again (replayed)',
  duplicate: 'the same message again',
};

export class SiteChecks {
  /**
   * This hub's broker session, new at every connect and said in its presence: the other hubs
   * bind the writes they forward to it, and their lease renewals, so that none of them played
   * back later (after a restart, a takeover, a reconnect) is taken (R-AV3).
   */
  session = newSession();
  /** `scheduler.now()` when the session began: the others may bind to the one before for a moment. */
  sessionSince = 0;

  constructor(
    private readonly hubId: string,
    private readonly trust: SiteTrust,
    private readonly overruns: SiteOverruns,
    private readonly ignored: SparseLog,
    /** Where this hub keeps the signer's start across restarts. */
    private readonly records: Records,
  ) {}

  /** The broker connected (again): a new session, which what was bound to the one before does not match. */
  newSession(now: number): void {
    this.session = newSession();
    this.sessionSince = now;
  }

  /** Who sent a write on a `set` topic: a hub's write counts only when it is bound to this hub's session now (R-AV3). */
  sender(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED {
    const from = this.verified(topic, payload, properties);
    if (typeof from !== 'string') return from;
    const user = properties.userProperties;
    if (user?.['to'] === this.hubId && user['session'] === this.session) return from;
    this.refuse(
      'replayed',
      topic,
      `a write of hub ${from} for ${describeBinding(user, this.hubId)}: played back, or sent before this hub reconnected`,
    );
    return REJECTED;
  }

  /** The hub that signed a message on a hub or value topic; undefined (counted) for anything else. */
  signedBy(topic: string, payload: Buffer, properties: MessageProperties): string | undefined {
    const from = this.verified(topic, payload, properties);
    if (from === NO_HUB) this.unverified(topic, 'unsigned');
    // Signed as this hub, not by this run: what it sends next must count after it.
    else if (from === this.hubId && !this.fromThisRun(properties)) this.passSigned(properties);
    return typeof from === 'string' ? from : undefined;
  }

  /** True when the message was signed by this run of this hub (not one before a restart). */
  fromThisRun(properties: MessageProperties): boolean {
    return this.trust.signer.issued(properties.userProperties?.['n']);
  }

  /** Counts a signed message that is not taken: played back (`replayed`), or a role record the group's rules do not allow (`refused`). */
  refuse(kind: 'replayed' | 'refused', topic: string, why: string): void {
    this.overruns.dropped(kind, why, 1, true);
    this.ignored.warn(`ignored a message on ${topic}: ${why}`);
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

  private passSigned(properties: MessageProperties): void {
    const start = this.trust.signer.passed(properties.userProperties?.['n']);
    if (start !== undefined) this.records.set('signer start', start);
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
