// The problems tab: what keeps the hub from running as written.
import { html } from './html.js';
/** @import { Problem } from '../lib/core/api-shapes.ts' */

/** @param {{ problems: readonly Problem[] }} props */
export function Problems({ problems }) {
  if (!problems.length) return html`<p class="empty">No problems: every connection is up, and every rule and code flow runs.</p>`;
  return html`<ul class="problems">${problems.map((p) => html`<li><b>${p.source ?? ''} ${p.id ?? ''}${p.part ? html` · ${p.part}` : ''}</b> <span class="code">${p.code ?? ''}</span><div>${p.message}</div></li>`)}</ul>`;
}
