// The tiles of the parameters tab, on request above the tree: tally lights and on-air signs
// as large buttons.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { values } from './live.js';
/** @import { ParameterListing } from '../lib/core/api-shapes.ts' */
/** @import { Write } from './shapes.js' */

/** Booleans named like a tally or an on-air light: shown as large tiles on request. */
const TILE_NAME = /(^|\/)(tally|on-?air)([/_.-]?\d*)?(\/|$)/i;

/** Whether the tiles show, as this browser last chose (kept in localStorage), and the switch that chooses. */
export function useTilesOption() {
  const [tiles, setTiles] = useState(() => localStorage.getItem('patchbay.tiles') === 'on');
  /** @param {boolean} on */
  const showTiles = (on) => {
    localStorage.setItem('patchbay.tiles', on ? 'on' : 'off');
    setTiles(on);
  };
  return /** @type {const} */ ([tiles, showTiles]);
}

// Tally lights and on-air signs as large tiles, lit while true; a tap toggles one the login may write.
/** @param {{ parameters: readonly ParameterListing[], write: Write }} props */
export function Tiles({ parameters, write }) {
  const shown = parameters.filter((p) => p.type === 'B' && TILE_NAME.test(p.p.slice(p.p.indexOf('/') + 1)));
  if (!shown.length) return html`<p class="empty">No booleans named like a tally or on-air here.</p>`;
  return html`<div class="tiles">${shown.map((p) => {
    const v = values.get(p.p)?.v;
    const on = v === true || v === 'true';
    const writable = p.access !== 'read-only';
    return html`<button class=${`tile ${on ? 'on' : ''}`} data-address=${p.p} aria-pressed=${on} disabled=${!writable} onClick=${() => write(p.p, !on)}>
      <span>${p.p}</span><b>${v === undefined ? 'unknown' : on ? 'ON' : 'off'}</b>
    </button>`;
  })}</div>`;
}
