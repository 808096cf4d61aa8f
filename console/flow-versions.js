// The flow file's kept versions (R-ED3): when each was saved, by whom and what it changed; each
// shown against the file as it is (what bringing it back would change) and brought back.
import { useEffect, useState } from 'preact/hooks';
import { readVersion, readVersions, restoreVersion } from './api.js';
import { DiffView } from './diff-view.js';
import { lineDiff } from './flow-diff.js';
import { clock, dateAndClock, messageOf } from './format.js';
import { html } from './html.js';
/** @import { FlowVersionListing, SaveAnswer } from '../lib/core/flow-shapes.ts' */

/** When a version was saved: the time of day for today's, the date and time for older ones (24-hour clock). @param {number} at */
const savedAt = (at) => {
  const when = new Date(at);
  return when.toDateString() === new Date().toDateString() ? clock(when) : dateAndClock(when).slice(0, 16);
};

/**
 * The versions as the hub keeps them, read again whenever the file's tag `etag` changes;
 * `restored` is called once one is brought back.
 * @param {{ etag: string, text: string, readOnly: boolean, notify: (text: string, error: boolean) => void, restored: () => void }} props
 */
export function FlowVersions({ etag, text, readOnly, notify, restored }) {
  const [versions, setVersions] = useState(/** @type {readonly FlowVersionListing[]} */ ([]));
  /** A kept version shown against the file as it is: what a restore would change. */
  const [comparing, setComparing] = useState(/** @type {{ version: number, text: string } | undefined} */ (undefined));
  useEffect(() => {
    setComparing(undefined);
    readVersions().then(setVersions, () => {});
  }, [etag]);

  /** Shows what bringing back `version` would change, or hides it. @param {number} version */
  const compare = async (version) => {
    if (comparing?.version === version) return setComparing(undefined);
    const read = await readVersion(version).catch((/** @type {Error} */ error) => ({ status: error.message }));
    if (!('text' in read)) return notify(`version ${version} could not be read: ${read.status}`, true);
    setComparing({ version, text: read.text });
  };

  /** @param {number} version */
  const restore = async (version) => {
    if (!window.confirm(`Bring back version ${version}? The flow as it is now is kept as a version too.`)) return;
    /** @type {SaveAnswer} */
    let answer;
    try {
      answer = await restoreVersion(version);
    } catch (error) {
      return notify(`not brought back: ${messageOf(error)}`, true);
    }
    notify(
      answer.ok ? `version ${version} brought back (now version ${answer.version})` : `not brought back: ${answer.error} (${answer.code})`,
      !answer.ok,
    );
    if (answer.ok) restored();
  };

  return html`<h2>versions</h2>
    ${
      versions.length === 0
        ? html`<p class="empty">none kept yet: each save keeps the file as it was and as it is saved (the last 20)</p>`
        : html`<table class="versions" data-testid="flow-versions">
            <thead><tr><th>version</th><th>saved</th><th>what changed</th><th>by</th><th>bytes</th><th></th></tr></thead>
            <tbody>${[...versions].reverse().map(
              (v) => html`<tr>
                <td>${v.version}</td><td>${savedAt(v.savedAt)}</td><td class="note">${v.note ?? (v.by === 'on disk' ? '(the file as the save found it)' : '')}</td><td>${v.by}</td><td>${v.bytes}</td>
                <td class="row-actions">${
                  v.current
                    ? html`<span class="current">current</span>`
                    : html`<button aria-pressed=${comparing?.version === v.version} onClick=${() => compare(v.version)}>changes</button>
                        <button disabled=${readOnly} onClick=${() => restore(v.version)}>restore</button>`
                }</td>
              </tr>`,
            )}</tbody>
          </table>`
    }
    ${
      comparing &&
      html`<p>Bringing back version ${comparing.version} would change the file as it is now like this:</p>
        <${DiffView} lines=${lineDiff(text, comparing.text)} testid="flow-version-diff" />`
    }`;
}
