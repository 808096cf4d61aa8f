// A key of a surface as the key designer's form has it and as the flow's `keys` holds it
// (R-ST4): the form's fields from an entry, and the entry the form makes — what differs from
// the defaults, in the order the reference lists. Plain functions: a spec imports them.
import { typedValue } from './format.js';
/** @typedef {{ device: string, key: number, text?: string, textExpression?: boolean, textColor?: string, on?: string, off?: string, show?: string, is?: unknown, press?: string, target?: string, value?: unknown }} KeyEntry */

/** The fields of the form, as text, from a `keys` entry (or the defaults of a new one). @param {KeyEntry | undefined} entry */
export const formOf = (entry) => ({
  text: entry?.text ?? '',
  textExpression: entry?.textExpression === true,
  textColor: entry?.textColor ?? '#ffffff',
  off: entry?.off ?? '#202020',
  on: entry?.on ?? '#e00000',
  press: entry?.press ?? 'none',
  target: entry?.target ?? '',
  value: entry?.value === undefined ? '' : String(entry.value),
  show: entry?.show ?? '',
  is: entry?.is === undefined ? '' : String(entry.is),
});

/**
 * The entry the form makes: what differs from the defaults, in the order the reference lists.
 * @param {string} device @param {number} key @param {ReturnType<typeof formOf>} form
 */
export function entryOf(device, key, form) {
  /** @type {Record<string, unknown>} */
  const entry = { device, key };
  if (form.text !== '') entry['text'] = form.text;
  if (form.textExpression) entry['textExpression'] = true;
  if (form.textColor !== '#ffffff') entry['textColor'] = form.textColor;
  if (form.press !== 'none') {
    entry['press'] = form.press;
    if (form.target !== '') entry['target'] = form.target;
    if (form.press === 'set') entry['value'] = typedValue(form.value);
  }
  if (form.show !== '') {
    entry['show'] = form.show;
    if (form.is !== '') entry['is'] = typedValue(form.is);
  }
  if (form.off !== '#202020') entry['off'] = form.off;
  if (form.on !== '#e00000' && form.show !== '') entry['on'] = form.on;
  return entry;
}
