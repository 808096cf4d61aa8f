// The surfaces tab (R-SU2): each Stream Deck of a satellite connection as a grid of its keys,
// as the desk shows them, pressable where the flow binds a key; to a login that may edit the
// flow, each key is designed here too (R-ST4, key-designer.js).
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { AddDeck, KeyDesigner } from './key-designer.js';
import { values } from './live.js';
/** @import { ConnectionInfo } from '../lib/core/api-shapes.ts' */
/** @import { Write } from './shapes.js' */

/**
 * Whether a connection has surfaces, as it says in its details (a list of `surfaces`: the
 * Stream Decks of a satellite connection, R-SU2): the surfaces tab shows only where a flow
 * has them, as for scenes.
 */
export const hasSurfaces = (/** @type {ConnectionInfo} */ c) => Array.isArray(c.details?.['surfaces']);

/**
 * A surface as its connection describes it: the device, the id of its parameters, its keys
 * and how they are laid out, and what a press of a bound key writes.
 * A deck the flow expects and no satellite has added yet has no `id` and says `expected`.
 * An expected deck's keys have no parameters yet: `looks` says what the flow's keys show on them.
 * @typedef {{ device: string, id?: string, expected?: boolean, keys: number, perRow: number, bindings: Record<string, { press: 'toggle' | 'momentary' | 'fire' | 'set', target: string, value?: unknown }>,
 *   looks?: Record<string, { color: string, text: string, textColor: string }> }} Surface
 */

const COLOR = /^#[0-9a-fA-F]{6}$/;
/** The keys this page holds down (pressed, not yet let go), by their address. */
const held = new Set();
/** @param {string} address @param {string} fallback */
const colorAt = (address, fallback) => {
  const v = String(values.get(address)?.v ?? '');
  return COLOR.test(v) ? v : fallback;
};
/** @param {string} address */
const isTrue = (address) => {
  const v = values.get(address)?.v;
  return v === true || v === 'true';
};

// Each surface as a grid of its keys, in their colours with their text, as the desk shows
// them. A key bound in the flow (`keys`, with `press`) of a connected deck is pressable
// here: a write of its `pressed`, checked against the login's access as any other write.
/**
 * @param {{ connections: readonly ConnectionInfo[], write: Write, design?: {
 *   addresses: readonly { p: string, access?: string }[], notify: (text: string, error: boolean) => void } }} props
 */
export function Surfaces({ connections, write, design }) {
  /** Keys are designed, not pressed, while this is on. */
  const [designing, setDesigning] = useState(false);
  const [picked, setPicked] = useState(/** @type {{ connection: string, device: string, key: number } | undefined} */ (undefined));
  const [adding, setAdding] = useState(false);
  const surfaces = connections
    .filter(hasSurfaces)
    .flatMap((c) =>
      /** @type {Surface[]} */ (c.details?.['surfaces'] ?? []).map((s) => ({ ...s, connection: c.id, at: `${c.id}/${s.id ?? s.device}` })),
    );
  return html`<div class="surfaces">
    ${
      design &&
      html`<div class="toolbar"><button class=${`option ${designing ? 'on' : ''}`} aria-pressed=${designing} onClick=${() => {
        setDesigning(!designing);
        setPicked(undefined);
      }}>design keys</button>
      <button class=${`option ${adding ? 'on' : ''}`} onClick=${() => setAdding(!adding)} aria-pressed=${adding}>add a deck</button>
      ${designing && html`<span class="help">Pick a key to set up its text, colours, press and light.</span>`}</div>`
    }
    ${
      adding &&
      design &&
      html`<${AddDeck} connections=${connections.filter(hasSurfaces).map((c) => c.id)} notify=${design.notify} close=${() => setAdding(false)} />`
    }
    ${!surfaces.length && html`<p class="empty">No surface has been connected yet${design ? ': add a deck by its model to design its keys now.' : '.'}</p>`}
    ${surfaces.map((s) => {
      const connected = isTrue(`${s.at}/connected`);
      const here = picked && picked.connection === s.connection && picked.device === s.device ? picked : undefined;
      return html`<section class="surface" data-surface=${s.at}>
      <h2>${s.device} <span class=${`badge ${connected ? 'ok' : 'disabled'}`}>${connected ? 'connected' : s.expected ? 'not connected yet' : 'away'}</span></h2>
      <div class="keys" style=${`grid-template-columns: repeat(${Math.max(1, s.perRow)}, 1fr)`}>
        ${Array.from({ length: s.keys }, (_, n) => {
          const key = `${s.at}/key/${n}`;
          const binding = s.bindings[String(n)];
          const look = s.looks?.[String(n)];
          const text = look ? look.text : String(values.get(`${key}/text`)?.v ?? '');
          const style = look
            ? `background: ${look.color}; color: ${look.textColor}`
            : `background: ${colorAt(`${key}/color`, '#000000')}; color: ${colorAt(`${key}/text-color`, '#ffffff')}`;
          // A press here is the desk's press: the key's `pressed` written down and up, and the
          // hub does what the key's binding says, refusals and all, as for a press on the desk.
          const pressable = Boolean(binding) && connected;
          /** @param {boolean} down */
          const press = (down) => {
            // Let go only of what this page pressed: a pointer leaving an unpressed key writes nothing.
            if (!pressable || down === held.has(key)) return;
            if (down) held.add(key);
            else held.delete(key);
            // Let go quietly: what the press was answered (a refusal) stays the notice.
            write(`${key}/pressed`, down, !down);
          };
          if (designing)
            return html`<button class=${`key ${here?.key === n ? 'picked' : ''}`} data-key=${n} style=${style}
              title=${`design key ${n}`} aria-pressed=${here?.key === n}
              onClick=${() => setPicked({ connection: s.connection, device: s.device, key: n })}><span class="key-number">${n}</span>${text}</button>`;
          return html`<button class=${`key ${isTrue(`${key}/pressed`) ? 'down' : ''}`} data-key=${n} style=${style} disabled=${!pressable}
            title=${binding ? (connected ? `${binding.press} ${binding.target}` : `${binding.press} ${binding.target}: pressable while the deck is connected`) : `key ${n}: not bound to a press`}
            onPointerDown=${() => press(true)} onPointerUp=${() => press(false)} onPointerLeave=${() => press(false)}>${text}</button>`;
        })}
      </div>
      ${
        here &&
        design &&
        html`<${KeyDesigner} key=${`${here.connection}/${here.device}/${here.key}`} connection=${here.connection} device=${here.device}
          keyIndex=${here.key} addresses=${design.addresses} notify=${design.notify} close=${() => setPicked(undefined)} />`
      }
    </section>`;
    })}</div>`;
}
