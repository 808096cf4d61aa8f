// The hub's HTTP API as the console asks it: the listings and the takeover, with the browser's
// session, where a 401 becomes `SignedOut` with what the hub offers to sign in with.
/** @import { Answers, FailoverAnswer } from '../lib/core/api-shapes.ts' */
/** @import { SignIn } from './shapes.js' */

/** The hub no longer knows this browser (401): what it offers to sign in with, from its challenges. */
export class SignedOut extends Error {
  /** @param {Response} response */
  constructor(response) {
    super('signed out');
    const challenges = response.headers.get('www-authenticate') ?? '';
    /** @type {SignIn} */
    this.offers = { token: /bearer/i.test(challenges), basic: /basic/i.test(challenges) };
  }
}

/**
 * @template {keyof Answers} P
 * @param {P} path
 * @param {string} [query] `?filter=…`
 * @returns {Promise<Answers[P]>}
 */
export async function getJson(path, query = '') {
  const response = await fetch(path + query, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (response.status === 401) throw new SignedOut(response);
  if (!response.ok) throw new Error(`GET ${path + query}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

/**
 * `POST /failover` with the console's credentials, as its other requests: the hub's answer,
 * its message or its error with the code.
 * @returns {Promise<FailoverAnswer>}
 */
export async function postFailover() {
  const response = await fetch('/failover', { method: 'POST', headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (response.status === 401) throw new SignedOut(response);
  const answer = await response.json().catch(() => undefined);
  if (!answer) throw new Error(`POST /failover: ${response.status} ${response.statusText}`);
  return answer;
}
