// The rules tab: the flow's enabled rules in the order they run, each under the folders it
// stands in (R-R2), with the problems reported for it and another writer of what it holds
// (R-RS4). A rule that holds state shows its sources by name, what it writes in words, and
// when (R-RS1–R-RS3).
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
    return html`<li class=${own.length ? 'failing' : r.conflicts?.length ? 'conflicting' : ''} data-rule=${r.path}>
      ${r.folders.length ? html`<span class="folders muted" data-testid="folders">${r.folders.join(' / ')} /</span> ` : ''}<b>${r.name}</b>
      ${r.from ? Held(r) : html`<div class="wiring"><code>${r.source}</code> → ${r.destinations.map((d, i) => html`${i ? ', ' : ''}<code>${d}</code>`)}</div>`}
      ${r.pipe.length ? html`<div class="pipe">${r.pipe.map(step).join(' | ')}</div>` : ''}
      ${own.map((p) => html`<div class="problem"><span class="code">${p.code}</span> ${p.message}</div>`)}
      ${(r.conflicts ?? []).map((c) => html`<div class="conflict" data-testid="conflict"><span class="code">two writers</span> ${withCode(c)}</div>`)}
    </li>`;
  })}</ul>`;
}

/**
 * A rule that holds state, in words: `red of umd/display/{1}` is `prg == 1`, with `prg` from
 * `atem/program`; written when it may have changed and when its device is back, or on a
 * change only.
 * @param {RuleListing} r
 */
function Held(r) {
  const from = Object.entries(r.from ?? {});
  const one = from.length === 1 && from[0]?.[0] === 'value';
  return html`<div class="wiring" data-testid="held">
    ${r.destinations.map((d, i) => html`${i ? ', ' : ''}<code>${d}</code>`)}${r.on === 'change' ? ' is written ' : ' holds '}${r.expr ? html`<code class="expr">${r.expr}</code>` : html`the value of <code>${from[0]?.[1] ?? r.source}</code>`}
    ${r.expr && !one ? html`<div class="muted">with ${from.map(([name, address], i) => html`${i ? ', ' : ''}<b>${name}</b> from <code>${address}</code>`)}</div>` : ''}
    ${r.expr && one ? html`<div class="muted">with <b>value</b> from <code>${from[0]?.[1]}</code></div>` : ''}
    <div class="muted">${r.on === 'change' ? 'when a source changes' : 'now, and again whenever its device is back'}${from.some(([, a]) => a.includes('+')) ? ', for every parameter its source pattern matches' : ''}</div>
  </div>`;
}

/** A message with its `quoted` parts as code, as the hub writes them. @param {string} text */
const withCode = (text) => text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
