// The problems tab: what keeps the hub from running as written. A package installed again
// beside the running hub (R-PK10) is loaded by a reload of the flow: to a login that may edit
// the flow, its problem offers one.
import { useState } from 'preact/hooks';
import { reloadFlow } from './flow-edits.js';
import { html } from './html.js';
/** @import { Problem } from '../lib/core/api-shapes.ts' */

/** @param {{ problems: readonly Problem[], notify?: (text: string, error: boolean) => void }} props */
export function Problems({ problems, notify }) {
  const [busy, setBusy] = useState(false);
  if (!problems.length) return html`<p class="empty">No problems: every connection is up, and every rule and code flow runs.</p>`;
  /** @param {Problem} problem */
  const reload = async (problem) => {
    setBusy(true);
    const reloaded = await reloadFlow(`reloaded to run package ${problem.id} as installed`);
    setBusy(false);
    notify?.(reloaded.text, reloaded.error);
  };
  return html`<ul class="problems">${problems.map(
    (p) =>
      html`<li><b>${p.source ?? ''} ${p.id ?? ''}${p.part ? html` · ${p.part}` : ''}</b> <span class="code">${p.code ?? ''}</span><div>${p.message}</div>${
        p.source === 'package' &&
        notify &&
        html`<button class="primary" disabled=${busy} onClick=${() => reload(p)}>reload the flow</button>`
      }</li>`,
  )}</ul>`;
}
