// The connections tab: each connection with its status, its reason, and what it reports of itself.
import { html } from './html.js';
/** @import { ConnectionInfo } from '../lib/core/api-shapes.ts' */

/**
 * `edit`, for a login that may edit the flow, opens a connection's form in the flow tab: where
 * it is changed is one click from where it is watched.
 * @param {{ connections: readonly ConnectionInfo[], edit?: (id: string) => void }} props
 */
export function Connections({ connections, edit }) {
  return html`<ul class="connections">
    ${connections.map(
      (c) => html`<li class=${`status-${c.status}`} data-connection=${c.id}>
        <div class="line">
          <b>${c.id}</b> <span class="type">${c.type}</span>
          ${c.package && html`<span class="muted package" title="the package this type comes from">${c.package.name} ${c.package.version}</span>`}
          <span class=${`badge ${c.status}`}>${c.status}</span>
          ${edit && !c.owner && html`<button class="edit" aria-label=${`edit ${c.id}`} onClick=${() => edit(c.id)}>edit</button>`}
        </div>
        ${c.reason && html`<div class="reason">${c.reason}${c.code ? ` (${c.code})` : ''}</div>`}
        ${c.description && html`<div>${c.description}</div>`}
        ${(c.location || c.group) && html`<div class="muted">${[c.location, c.group].filter(Boolean).join(' · ')}</div>`}
        ${c.details && html`<div class="muted details">${details(c.details)}</div>`}
      </li>`,
    )}
  </ul>`;
}

// A connection's details, one level of nesting flattened ("webSockets clients: 2"), lists
// joined ("shared: stage, desk"), anything deeper as key: value pairs.
/** @type {(v: unknown) => string} */
const text = (v) =>
  Array.isArray(v)
    ? v.map(text).join(', ')
    : v && typeof v === 'object'
      ? Object.entries(v)
          .map(([k, x]) => `${k}: ${text(x)}`)
          .join(', ')
      : String(v);
/** @param {Record<string, unknown>} d */
const details = (d) =>
  Object.entries(d)
    .flatMap(([k, v]) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(v).map(([k2, v2]) => `${k} ${k2}: ${text(v2)}`)
        : [`${k}: ${text(v)}`],
    )
    .join(' · ');
