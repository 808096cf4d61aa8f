// The rules tab: the flow's enabled rules in the order they run, each under the folders it
// stands in (R-R2), with the problems reported for it.
import { html } from './html.js';
/** @import { Problem, RuleListing } from '../lib/core/api-shapes.ts' */

/** @param {{ rules: readonly RuleListing[], problems: readonly Problem[] }} props */
export function Rules({ rules, problems }) {
  if (!rules.length) return html`<p class="empty">No rules run in this flow (or none this login may read).</p>`;
  /** @param {Record<string, unknown>} s */
  const step = (s) =>
    Object.entries(s)
      .map(([name, argument]) => `${name} ${JSON.stringify(argument)}`)
      .join('');
  return html`<ul class="rules">${rules.map((r) => {
    const own = problems.filter((p) => p.source === 'rule' && p.id === r.name);
    return html`<li class=${own.length ? 'failing' : ''} data-rule=${r.path}>
      ${r.folders.length ? html`<span class="folders muted" data-testid="folders">${r.folders.join(' / ')} /</span> ` : ''}<b>${r.name}</b>
      <div class="wiring"><code>${r.source}</code> → ${r.destinations.map((d, i) => html`${i ? ', ' : ''}<code>${d}</code>`)}</div>
      ${r.pipe.length ? html`<div class="pipe">${r.pipe.map(step).join(' | ')}</div>` : ''}
      ${own.map((p) => html`<div class="problem"><span class="code">${p.code}</span> ${p.message}</div>`)}
    </li>`;
  })}</ul>`;
}
