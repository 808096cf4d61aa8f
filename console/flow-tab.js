// The flow tab (R-ED1–R-ED3): the flow file's text as the hub serves it (its secrets hidden),
// edited in place; what a save will change shown as a diff before it is sent; a save on top
// of the text that was read (If-Match), so a change made meanwhile is never overwritten: the
// tab then shows how the file differs from this edit and keeps the edit; the hub's mistakes
// listed at their paths; the kept versions, each one to bring back. Shown only to logins the
// hub lets read the flow (full access, or an admin token).
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';

const html = htm.bind(h);

/** @typedef {{ version: number, savedAt: number, by: string, bytes: number, etag: string, current: boolean }} FlowVersion */
/** @typedef {{ path: (string | number)[], message: string }} FlowIssue */
/** @typedef {{ text: string, etag: string, readOnly: string }} FlowFile */
/** @typedef {{ kind: ' ' | '-' | '+', text: string }} DiffLine */
/** @typedef {(text: string, error: boolean) => void} Notify */

/** Whether this login may edit the flow: the hub answers `GET /flow` to it. */
export async function mayEditFlow() {
  const response = await fetch('/flow', { credentials: 'same-origin' }).catch(() => undefined);
  return response?.ok === true;
}

/** @returns {Promise<FlowFile>} */
async function readFlow() {
  const response = await fetch('/flow', { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  const readOnly = response.headers.get('x-patchbay-read-only');
  return { text: await response.text(), etag: response.headers.get('etag') ?? '', readOnly: readOnly ? decodeURIComponent(readOnly) : '' };
}

/** @returns {Promise<FlowVersion[]>} */
async function readVersions() {
  const response = await fetch('/flow/history', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  return response.ok ? /** @type {Promise<FlowVersion[]>} */ (response.json()) : [];
}

/**
 * The lines of `after` against `before`: what both share at the start and the end is kept,
 * what lies between is removed and added. An edit in one place — what an editor makes
 * between two saves — reads as exactly that, at any size of file.
 * @param {string} before @param {string} after @returns {DiffLine[]}
 */
export function lineDiff(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  /** @type {DiffLine[]} */
  const lines = [];
  for (const text of a.slice(Math.max(0, start - 2), start)) lines.push({ kind: ' ', text });
  for (const text of a.slice(start, a.length - end)) lines.push({ kind: '-', text });
  for (const text of b.slice(start, b.length - end)) lines.push({ kind: '+', text });
  for (const text of a.slice(a.length - end, a.length - end + 2)) lines.push({ kind: ' ', text });
  return lines;
}

/** `connections.api.port`, `rules[0].destinations[2]`: a path as the hub's messages write it. */
const pathText = (/** @type {(string | number)[]} */ path) =>
  path.length === 0 ? 'the file' : path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');

/** When a version was saved: the time of day for today's, the date and time for older ones (24-hour clock). */
const clock = (/** @type {number} */ at) => {
  const when = new Date(at);
  const time = when.toLocaleTimeString(undefined, { hour12: false });
  return when.toDateString() === new Date().toDateString() ? time : `${when.toLocaleDateString()} ${time.slice(0, 5)}`;
};

/** @param {{ notify: Notify }} props */
export function FlowTab({ notify }) {
  const [file, setFile] = useState(/** @type {FlowFile | undefined} */ (undefined));
  const [text, setText] = useState('');
  const [reviewing, setReviewing] = useState(false);
  const [issues, setIssues] = useState(/** @type {FlowIssue[]} */ ([]));
  /** The file as it is now, when a save found it changed since it was read: this edit is kept, and shown against it. */
  const [changed, setChanged] = useState(/** @type {FlowFile | undefined} */ (undefined));
  const [versions, setVersions] = useState(/** @type {FlowVersion[]} */ ([]));
  const [busy, setBusy] = useState(false);

  const load = async () => {
    const read = await readFlow();
    setFile(read);
    setText(read.text);
    setChanged(undefined);
    setIssues([]);
    setReviewing(false);
    setVersions(await readVersions());
  };
  useEffect(() => {
    load().catch((/** @type {Error} */ error) => notify(`the flow could not be read: ${error.message}`, true));
  }, []);

  if (!file) return html`<p class="empty">reading the flow file…</p>`;
  const edited = text !== file.text;

  /** Sends the edit on top of `etag`; what the hub said is shown. @param {string} etag */
  const save = async (etag) => {
    setBusy(true);
    try {
      const response = await fetch('/flow', {
        method: 'PUT',
        headers: { accept: 'application/json', 'if-match': etag, 'content-type': 'application/json5' },
        body: text,
        credentials: 'same-origin',
      });
      const answer = /** @type {{ ok: boolean, version?: number, error?: string, code?: string, issues?: FlowIssue[] }} */ (
        await response.json()
      );
      if (answer.ok) {
        notify(`saved and applied: version ${answer.version}`, false);
        await load();
      } else if (answer.code === 'PB_FLOW_CHANGED') {
        setChanged(await readFlow());
        setVersions(await readVersions());
        setReviewing(true);
        notify(
          'the flow file changed since you opened it: nothing was saved. Your edit is kept; the changes below are between the file now and your edit',
          true,
        );
      } else if (answer.issues?.length) {
        setIssues(answer.issues);
        const count = answer.issues.length;
        notify(`not saved: ${count === 1 ? 'a mistake' : `${count} mistakes`}, listed below the text (${answer.code})`, true);
      } else {
        setIssues([]);
        notify(`not saved: ${answer.error} (${answer.code})`, true);
      }
    } catch (error) {
      // A save that changes the hub's own web server (its tokens, its port) restarts it, and
      // the answer may be lost on the way: the file tells whether the save was taken.
      const now = await readFlow().catch(() => undefined);
      if (now && now.etag !== etag) {
        notify('the answer was lost (the hub restarted its web server to apply the save): the file below is the flow as it is now', true);
        await load();
      } else notify(`not saved: ${/** @type {Error} */ (error).message}`, true);
    } finally {
      setBusy(false);
    }
  };

  /** @param {number} version */
  const restore = async (version) => {
    if (!window.confirm(`Bring back version ${version}? The flow as it is now is kept as a version too.`)) return;
    const response = await fetch(`/flow/restore/${version}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    const answer = /** @type {{ ok: boolean, version?: number, error?: string, code?: string }} */ (await response.json());
    notify(
      answer.ok ? `version ${version} brought back (now version ${answer.version})` : `not brought back: ${answer.error} (${answer.code})`,
      !answer.ok,
    );
    if (answer.ok) await load();
  };

  const base = changed ?? file;
  const diff = reviewing ? lineDiff(base.text, text) : [];
  return html`<section class="flow">
    ${file.readOnly && html`<p class="read-only" role="note">read-only: ${file.readOnly}</p>`}
    <textarea
      class="flow-text"
      data-testid="flow-text"
      aria-label="the flow file"
      spellcheck=${false}
      wrap="off"
      readonly=${Boolean(file.readOnly)}
      value=${text}
      onInput=${(/** @type {Event} */ e) => {
        setText(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value);
        setReviewing(false);
      }}
    ></textarea>
    <div class="flow-actions">
      <button disabled=${!edited && !changed} onClick=${() => setReviewing(!reviewing)}>${reviewing ? 'hide changes' : 'review changes'}</button>
      <button class="primary" disabled=${busy || Boolean(file.readOnly) || (!edited && !changed)} onClick=${() => save(base.etag)}>
        ${changed ? 'save mine over it' : 'save'}
      </button>
      <button disabled=${busy || (!edited && !changed)} onClick=${() => load()}>${changed ? 'take the file as it is' : 'discard'}</button>
    </div>
    ${
      issues.length > 0 &&
      html`<ul class="issues" data-testid="flow-issues">${issues.map((issue) => html`<li><code>${pathText(issue.path)}</code>: ${issue.message}</li>`)}</ul>`
    }
    ${
      reviewing &&
      html`<pre class="diff" data-testid="flow-diff">${diff.length === 0 ? 'no change' : diff.map((line) => html`<span class=${`line ${line.kind === '+' ? 'added' : line.kind === '-' ? 'removed' : ''}`}>${line.kind} ${line.text}</span>`)}</pre>`
    }
    <h2>versions</h2>
    ${
      versions.length === 0
        ? html`<p class="empty">none kept yet: each save keeps the file as it was and as it is saved (the last 20)</p>`
        : html`<table class="versions" data-testid="flow-versions">
            <thead><tr><th>version</th><th>saved</th><th>by</th><th>bytes</th><th></th></tr></thead>
            <tbody>${[...versions].reverse().map(
              (v) => html`<tr>
                <td>${v.version}</td><td>${clock(v.savedAt)}</td><td>${v.by}</td><td>${v.bytes}</td>
                <td>${v.current ? html`<span class="current">current</span>` : html`<button disabled=${Boolean(file.readOnly)} onClick=${() => restore(v.version)}>restore</button>`}</td>
              </tr>`,
            )}</tbody>
          </table>`
    }
  </section>`;
}
