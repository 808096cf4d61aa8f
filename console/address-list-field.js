// A setting that is a list of addresses or address patterns (a scene's members): each picked
// from the hub's parameters as it is typed (the connection form's `hub-addresses` list, with
// each parameter's label), one a row, instead of lines typed from memory. A pattern
// (`studio/#`, `+/gain`) is typed as it is.
import { html } from './html.js';
/** @import { ParameterListing } from '../lib/core/api-shapes.ts' */

/** The hub's addresses the form's address fields complete from, once a form. @param {{ addresses: readonly ParameterListing[] }} props */
export function HubAddresses({ addresses }) {
  return html`<datalist id="hub-addresses">${addresses.map((a) => html`<option value=${a.p}>${a.meta?.label ?? ''}</option>`)}</datalist>`;
}

/**
 * @param {{ id: string, name: string, value: unknown, invalid: boolean, set: (value: unknown) => void }} props
 */
export function AddressListField({ id, name: named, value, invalid, set }) {
  // A required setting's name comes with its mark (`members *`): the rows are named without it.
  const name = named.replace(/ \*$/, '');
  const entries = Array.isArray(value) ? value.map(String) : [];
  /** @param {string[]} next */
  const setAll = (next) => set(next.length ? next : undefined);
  return html`<div class="address-list" id=${id} role="group" aria-label=${name} aria-invalid=${invalid}>
    ${entries.map(
      (entry, at) => html`<div class="address-entry">
        <input aria-label=${`${name} ${at + 1}`} list="hub-addresses" spellcheck=${false} value=${entry} placeholder="connection/parameter, or studio/#"
          onInput=${(/** @type {Event} */ e) => setAll(entries.map((old, i) => (i === at ? /** @type {HTMLInputElement} */ (e.currentTarget).value : old)))} />
        <button type="button" aria-label=${`remove ${name} ${at + 1}`} onClick=${() => setAll(entries.filter((_, i) => i !== at))}>remove</button>
      </div>`,
    )}
    <button type="button" onClick=${() => set([...entries, ''])}>add one</button>
  </div>`;
}
