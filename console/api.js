// The hub's HTTP API as the console asks it: the listings, the takeover and the flow file,
// with the browser's session, where a 401 becomes `SignedOut` with what the hub offers to
// sign in with.
/** @import { Answers, FailoverAnswer } from '../lib/core/api-shapes.ts' */
/** @import { Catalogue, CatalogueEntry, Draft, FlowEdit, FlowVersionListing, SaveAnswer } from '../lib/core/flow-shapes.ts' */
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
 * A request with the console's session, as every request of the console: a 401 is `SignedOut`.
 * @param {string} path @param {RequestInit} [init] @returns {Promise<Response>}
 */
async function ask(path, init = {}) {
  const response = await fetch(path, { ...init, credentials: 'same-origin' });
  if (response.status === 401) throw new SignedOut(response);
  return response;
}

const JSON_ANSWER = { accept: 'application/json' };

/**
 * @template {keyof Answers} P
 * @param {P} path
 * @param {string} [query] `?filter=…`
 * @returns {Promise<Answers[P]>}
 */
export async function getJson(path, query = '') {
  const response = await ask(path + query, { headers: JSON_ANSWER });
  if (!response.ok) throw new Error(`GET ${path + query}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

/**
 * `POST /failover` with the console's credentials, as its other requests: the hub's answer,
 * its message or its error with the code.
 * @returns {Promise<FailoverAnswer>}
 */
export async function postFailover() {
  const response = await ask('/failover', { method: 'POST', headers: JSON_ANSWER });
  const answer = await response.json().catch(() => undefined);
  if (!answer) throw new Error(`POST /failover: ${response.status} ${response.statusText}`);
  return answer;
}

/**
 * Whether this login may edit the flow: the hub answers `GET /flow` to it ('editable'), or it
 * has no credentials at all, so nobody may ('no credentials'), or not this login ('no').
 * @returns {Promise<'editable' | 'no credentials' | 'no'>}
 */
export async function flowAccess() {
  const response = await ask('/flow', { headers: JSON_ANSWER }).catch(() => undefined);
  if (response?.ok) return 'editable';
  const answer = response?.status === 403 ? await response.json().catch(() => undefined) : undefined;
  return answer?.code === 'PB_CREDENTIALS_REQUIRED' ? 'no credentials' : 'no';
}

/**
 * `GET /flow`: the flow file's text as written (its secrets hidden), its tag, why it may
 * not be saved ('' when it may), and where it is on the hub's machine.
 * @returns {Promise<{ text: string, etag: string, readOnly: string, file: string }>}
 */
export async function readFlow() {
  const response = await ask('/flow');
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  const readOnly = response.headers.get('x-patchbay-read-only');
  const file = response.headers.get('x-patchbay-flow-file');
  return {
    text: await response.text(),
    etag: response.headers.get('etag') ?? '',
    readOnly: readOnly ? decodeURIComponent(readOnly) : '',
    file: file ? decodeURIComponent(file) : '',
  };
}

/**
 * `POST /flow/draft`: the hub makes `edits` in `text` and checks the result; nothing is written.
 * @param {string} text @param {readonly FlowEdit[]} edits @returns {Promise<Draft>}
 */
export async function draftOf(text, edits) {
  const response = await ask('/flow/draft', {
    method: 'POST',
    headers: { ...JSON_ANSWER, 'content-type': 'application/json' },
    body: JSON.stringify({ text, edits }),
  });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return response.json();
}

/** `GET /flow/schema`: the flow-file JSON Schema of the types this hub knows. @returns {Promise<Record<string, any>>} */
export async function readFlowSchema() {
  const response = await ask('/flow/schema');
  return response.ok ? response.json() : {};
}

/** `GET /catalogue`: what a studio can add (R-ST2). @returns {Promise<Catalogue>} */
export async function readCatalogue() {
  const response = await ask('/catalogue', { headers: JSON_ANSWER });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return response.json();
}

/**
 * `PUT /catalogue/<modules | packages>/<file>`: a Companion module's or a patchbay package's
 * `.tgz` kept beside the flow (a package installed there); what the catalogue lists of it.
 * @param {'modules' | 'packages'} kind @param {string} name @param {Blob} archive
 */
export function uploadArchive(kind, name, archive) {
  return addToCatalogue(`/catalogue/${kind}/${encodeURIComponent(name)}`, { 'content-type': 'application/gzip' }, archive);
}

/**
 * `PUT /catalogue/registry/<package>`: a patchbay package installed beside the flow from the
 * registry the hub's machine reaches (`patchbay-videohub`, `patchbay-videohub@^1`).
 * @param {string} spec
 */
export function installFromRegistry(spec) {
  return addToCatalogue(`/catalogue/registry/${encodeURIComponent(spec)}`, {});
}

/**
 * `PUT /catalogue/boxed/<package>`: a device package that comes with the hub installed beside
 * the flow (R-ST7).
 * @param {string} name
 */
export function installBoxed(name) {
  return addToCatalogue(`/catalogue/boxed/${encodeURIComponent(name)}`, {});
}

/**
 * @param {string} path @param {Record<string, string>} headers @param {Blob} [body]
 * @returns {Promise<{ ok: true, entries: CatalogueEntry[] } | { ok: false, error: string }>}
 */
async function addToCatalogue(path, headers, body) {
  const response = await ask(path, { method: 'PUT', headers: { ...JSON_ANSWER, ...headers }, ...(body ? { body } : {}) });
  const answer = await response.json();
  if (!response.ok) return { ok: false, error: `${answer.error} (${answer.code})` };
  return { ok: true, entries: Array.isArray(answer) ? answer : [answer] };
}

/** `GET /flow/history`: the kept versions, oldest first. @returns {Promise<readonly FlowVersionListing[]>} */
export async function readVersions() {
  const response = await ask('/flow/history', { headers: JSON_ANSWER });
  return response.ok ? response.json() : [];
}

/**
 * `PUT /flow`: `text` saved on top of the file whose tag is `etag`, and applied; `note` names the version.
 * @param {string} text @param {string} etag @param {string} [note] @returns {Promise<SaveAnswer>}
 */
export async function saveFlow(text, etag, note = '') {
  const response = await ask('/flow', {
    method: 'PUT',
    headers: {
      ...JSON_ANSWER,
      'if-match': etag,
      'content-type': 'application/json5',
      ...(note ? { 'x-patchbay-note': encodeURIComponent(note) } : {}),
    },
    body: text,
  });
  return response.json();
}

/**
 * `GET /flow/history/<version>`: a kept version's text, or why it could not be read.
 * @param {number} version @returns {Promise<{ text: string } | { status: number }>}
 */
export async function readVersion(version) {
  const response = await ask(`/flow/history/${version}`);
  return response.ok ? { text: await response.text() } : { status: response.status };
}

/** `POST /flow/restore/<version>`: a kept version brought back, as a save. @param {number} version @returns {Promise<SaveAnswer>} */
export async function restoreVersion(version) {
  const response = await ask(`/flow/restore/${version}`, { method: 'POST', headers: JSON_ANSWER });
  return response.json();
}
