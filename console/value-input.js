// A value a form asks for: typed, or picked by its label when the parameter it is for has
// choices (R-PK6: a router's inputs by name, `Input 2: Camera 2`, where the wire says 1).
import { html } from './html.js';
/** @import { ParameterListing } from '../lib/core/api-shapes.ts' */

/**
 * The choices of the parameter at `address` among `addresses`, when it has any.
 * @param {readonly { p: string, meta?: ParameterListing['meta'] }[]} addresses @param {string} address
 */
export const choicesOf = (addresses, address) => addresses.find((a) => a.p === address)?.meta?.choices;

/**
 * @param {{ id: string, label?: string, value: string, set: (value: string) => void, choices?: readonly { value: unknown, label: string }[],
 *   placeholder?: string, empty?: string }} props `label` when no label element names it; `empty`: what the list says for no value
 */
export function ValueInput({ id, label, value, set, choices, placeholder = '', empty = '(pick one)' }) {
  const onChange = (/** @type {Event} */ e) => set(/** @type {HTMLInputElement | HTMLSelectElement} */ (e.currentTarget).value);
  if (!choices?.length) return html`<input id=${id} aria-label=${label} placeholder=${placeholder} value=${value} onInput=${onChange} />`;
  const known = value === '' || choices.some((choice) => String(choice.value) === value);
  return html`<select id=${id} aria-label=${label} onChange=${onChange}>
    <option value="" selected=${value === ''}>${empty}</option>
    ${!known && html`<option value=${value} selected>${value} (not one of its choices)</option>`}
    ${choices.map((choice) => html`<option value=${String(choice.value)} selected=${String(choice.value) === value}>${choice.label}</option>`)}
  </select>`;
}
