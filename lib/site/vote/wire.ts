/**
 * The vote's datagrams (R-AV2, R-AV3): JSON, signed with a key made from the site key for this
 * use alone, sent over UDP straight between the group's voters — never through the broker,
 * so that the group decides without it.
 *
 * Fresh, not replayed: a request carries its sender's `start` (a time that only grows across
 * the sender's restarts, kept in its state folder) and a counter; a voter takes from each
 * sender only requests above the last it took. An answer names the request it answers
 * (`re`: the asker's start and round), so an answer played back to a later round, or to the
 * same hub after a restart, counts for nothing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { VoteAnswer, VoteRequest } from './voter.ts';

/** The largest datagram read: a vote is a few hundred bytes. */
export const MAX_DATAGRAM = 2048;
/** The signature: HMAC-SHA256, base64url, cut to 22 characters (128 bits and a little more). */
const MAC_LENGTH = 22;

/** The key the votes are signed with: the site key, bound to this use. */
export function voteKey(siteKey: Buffer): Buffer {
  return createHmac('sha256', siteKey).update('patchbay group votes v1').digest();
}

/** Who sent a request, and when in its life: `start` grows across restarts, `n` within a run. */
export interface Stamp {
  readonly start: number;
  readonly n: number;
}

export type Datagram =
  | { readonly k: 'ask'; readonly g: string; readonly from: string; readonly to: string; readonly s: Stamp; readonly request: VoteRequest }
  | {
      readonly k: 'answer';
      readonly g: string;
      readonly from: string;
      readonly to: string;
      readonly re: Stamp;
      readonly answer: VoteAnswer;
    };

export function encode(key: Buffer, datagram: Datagram): Buffer {
  const body = JSON.stringify(datagram);
  return Buffer.from(`${mac(key, body)}.${body}`);
}

/** The datagram, or why it was not taken: `unsigned` (no valid signature: not a member of the site) or `malformed`. */
export function decode(key: Buffer, bytes: Buffer): { ok: true; datagram: Datagram } | { ok: false; why: 'unsigned' | 'malformed' } {
  if (bytes.length > MAX_DATAGRAM) return { ok: false, why: 'malformed' };
  const text = bytes.toString('utf8');
  const dot = text.indexOf('.');
  if (dot !== MAC_LENGTH) return { ok: false, why: 'unsigned' };
  const body = text.slice(dot + 1);
  const expected = Buffer.from(mac(key, body));
  const given = Buffer.from(text.slice(0, dot));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: 'unsigned' };
  try {
    const datagram = JSON.parse(body) as Datagram;
    return wellFormed(datagram) ? { ok: true, datagram } : { ok: false, why: 'malformed' };
  } catch {
    return { ok: false, why: 'malformed' };
  }
}

/** True when `next` comes after `last` from the same sender (a later start, or the same start and a later round). */
export function isAfter(next: Stamp, last: Stamp | undefined): boolean {
  return last === undefined || next.start > last.start || (next.start === last.start && next.n > last.n);
}

function mac(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url').slice(0, MAC_LENGTH);
}

const isStamp = (stamp: unknown): stamp is Stamp =>
  typeof stamp === 'object' &&
  stamp !== null &&
  Number.isSafeInteger((stamp as Stamp).start) &&
  Number.isSafeInteger((stamp as Stamp).n) &&
  (stamp as Stamp).n >= 0;
const isEpoch = (epoch: unknown): epoch is number => Number.isSafeInteger(epoch) && (epoch as number) >= 0;

function wellFormed(datagram: Datagram): boolean {
  if (typeof datagram !== 'object' || datagram === null) return false;
  if (typeof datagram.g !== 'string' || typeof datagram.from !== 'string' || typeof datagram.to !== 'string') return false;
  if (datagram.k === 'ask') {
    const { request } = datagram;
    const flag = (value: unknown) => value === undefined || typeof value === 'boolean';
    return (
      isStamp(datagram.s) &&
      typeof request?.candidate === 'string' &&
      isEpoch(request.epoch) &&
      request.candidate === datagram.from &&
      flag(request.probe) &&
      flag(request.release)
    );
  }
  if (datagram.k === 'answer') {
    const { answer } = datagram;
    return isStamp(datagram.re) && typeof answer?.granted === 'boolean' && isEpoch(answer.epoch);
  }
  return false;
}
