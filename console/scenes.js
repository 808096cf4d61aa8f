// The scenes tab (R-Y1): the scenes of every scenes connection, each with its state and its
// recall and store buttons.
import { html } from './html.js';
import { values } from './live.js';
/** @import { ConnectionInfo, ParameterListing } from '../lib/core/api-shapes.ts' */
/** @import { Write } from './shapes.js' */

/**
 * Whether a connection holds scenes, as it says in its details (a list of `scenes`): the
 * scenes tab shows only where a flow has them. Read from what the connection reports, not
 * from its type's name, so the console keeps no list of types of its own.
 */
export const hasScenes = (/** @type {ConnectionInfo} */ c) => Array.isArray(c.details?.['scenes']);

// The scenes of every scenes connection (R-Y1): each with its dirty state, what its last
// store or recall did, and buttons that fire its store and recall triggers. The hub checks
// each write against the login's access, as for any other write.
/** @param {{ parameters: readonly ParameterListing[], connections: readonly ConnectionInfo[], write: Write }} props */
export function Scenes({ parameters, connections, write }) {
  const sceneConnections = new Set(connections.filter(hasScenes).map((c) => c.id));
  const scenes = parameters
    .filter((p) => sceneConnections.has(p.p.slice(0, p.p.indexOf('/'))) && p.p.endsWith('/recall'))
    .map((p) => p.p.slice(0, -'/recall'.length));
  if (!scenes.length) return html`<p class="empty">No scenes in this flow (or none this login may see).</p>`;
  return html`<ul class="scenes">${scenes.map((scene) => {
    const dirty = values.get(`${scene}/dirty`)?.v;
    const report = values.get(`${scene}/report`)?.v;
    const members = Number(values.get(`${scene}/members`)?.v ?? 0);
    const changed = dirty === true || dirty === 'true';
    const [look, state] = members === 0 ? ['disabled', 'not stored'] : changed ? ['degraded', 'changed'] : ['ok', 'as stored'];
    return html`<li data-scene=${scene}>
      <div class="line"><b>${scene}</b> <span class=${`badge ${look}`} data-testid="dirty">${state}</span></div>
      <div class="muted" data-testid="report">${report === undefined ? '' : String(report)}</div>
      <div class="buttons">
        <button aria-label=${`recall ${scene}`} onClick=${() => write(`${scene}/recall`, null)}>recall</button>
        <button aria-label=${`store ${scene}`} onClick=${() => storeOver(scene, members, write)}>store</button>
      </div>
    </li>`;
  })}</ul>`;
}

/**
 * Stores a scene; over one already stored only once the operator says so, since a click
 * beside recall in the middle of a show would put the studio's present state in its place.
 * @param {string} scene @param {number} members @param {Write} write
 */
function storeOver(scene, members, write) {
  if (members > 0 && !window.confirm(`Store the values now in place of the ${members} kept in ${scene}?`)) return;
  write(`${scene}/store`, null);
}
