// A setting of parameters declared in lines (`<id>[,<type>[,<default>]]`, a dummy's or a line
// device's `parameters`) as a list of parameters: each its id, a type picked by name and its
// default, so nobody has to learn `cam/1/program,B,false`. What the lines say beyond that —
// a range (`fader/{1..8},F`), a comment, a blank line — is edited as the text it is.
import { useState } from 'preact/hooks';
import { html } from './html.js';

/** The types by what a person calls them, and the letter a line writes. */
const TYPES = /** @type {const} */ ([
  ['S', 'text'],
  ['B', 'on/off'],
  ['I', 'whole number'],
  ['F', 'number'],
  ['T', 'trigger'],
]);
/** A line a row can show: an id without a range, a type letter, a default. */
const SIMPLE = /^[A-Za-z0-9_.\-/]+(,[SBIFT](,.*)?)?$/;

/** @typedef {{ id: string, type: string, initial: string }} Row */

/** @param {string} line @returns {Row} */
function rowOf(line) {
  const [id = '', type = 'S', ...rest] = line.split(',');
  return { id, type, initial: rest.join(',') };
}

/** @param {Row} row */
const lineOf = ({ id, type, initial }) =>
  initial !== '' && type !== 'T' ? `${id},${type},${initial}` : type !== 'S' ? `${id},${type}` : id;

/**
 * @param {{ id: string, name: string, value: unknown, invalid: boolean, set: (value: unknown) => void }} props
 */
export function ParameterLinesField({ id, name, value, invalid, set }) {
  const lines = Array.isArray(value) ? value.map(String) : typeof value === 'string' && value !== '' ? value.split('\n') : [];
  const [asText, setAsText] = useState(!lines.every((line) => SIMPLE.test(line)));
  if (asText)
    return html`<span class="parameter-lines"><textarea id=${id} rows=${Math.min(12, Math.max(3, lines.length + 1))} aria-invalid=${invalid}
        spellcheck=${false} value=${lines.join('\n')} placeholder="one per line: id,type,default (fader/{1..8},F,0)"
        onInput=${(/** @type {Event} */ e) => {
          const text = /** @type {HTMLTextAreaElement} */ (e.currentTarget).value;
          set(text === '' ? undefined : text.split('\n'));
        }}></textarea>
      ${lines.every((line) => SIMPLE.test(line)) && html`<button type="button" onClick=${() => setAsText(false)}>as a list</button>`}</span>`;
  const rows = lines.map(rowOf);
  /** @param {number} at @param {Partial<Row>} change */
  const change = (at, change) => set(rows.map((row, i) => lineOf(i === at ? { ...row, ...change } : row)));
  return html`<div class="parameter-lines" id=${id} role="group" aria-label=${name}>
    ${rows.map(
      (row, at) => html`<div class="parameter-line">
        <input aria-label=${`parameter ${at + 1} id`} spellcheck=${false} value=${row.id} placeholder="cam/1/program"
          onInput=${(/** @type {Event} */ e) => change(at, { id: /** @type {HTMLInputElement} */ (e.currentTarget).value })} />
        <select aria-label=${`parameter ${at + 1} type`} onChange=${(/** @type {Event} */ e) =>
          change(at, { type: TYPES[/** @type {HTMLSelectElement} */ (e.currentTarget).selectedIndex]?.[0] ?? 'S' })}>
          ${TYPES.map(([letter, label]) => html`<option selected=${row.type === letter}>${label}</option>`)}
        </select>
        <input aria-label=${`parameter ${at + 1} starts at`} spellcheck=${false} value=${row.initial} disabled=${row.type === 'T'}
          placeholder=${row.type === 'B' ? 'false' : row.type === 'T' ? '' : '(unknown)'}
          onInput=${(/** @type {Event} */ e) => change(at, { initial: /** @type {HTMLInputElement} */ (e.currentTarget).value })} />
        <button type="button" aria-label=${`remove parameter ${at + 1}`} onClick=${() => {
          const left = rows.filter((_, i) => i !== at).map(lineOf);
          set(left.length ? left : undefined);
        }}>remove</button>
      </div>`,
    )}
    <button type="button" onClick=${() => set([...rows.map(lineOf), ''])}>add a parameter</button>
    <button type="button" onClick=${() => setAsText(true)}>as text</button>
  </div>`;
}
