// The key designer (R-ST4): a key of a surface picked in the surfaces tab, set up as
// Companion's button editor sets one up — its text (with values in it, live), its colours,
// what a press does (toggle, hold, fire, or set a parameter to a value: a route, a scene, a
// module's action) and what lights it (a parameter true, or at a value) — and saved as the
// key's entry in the flow's `keys` of its connection, which the hub applies at once and
// keeps across restarts.
import { useEffect, useState } from 'preact/hooks';
import { draftOf, readFlow, saveFlow } from './api.js';
import { html } from './html.js';
import { values } from './live.js';
/** @import { FlowEdit, PlacedIssue } from '../lib/core/flow-shapes.ts' */
/** @typedef {{ p: string, access?: string }} Address */
/** @typedef {{ device: string, key: number, text?: string, textColor?: string, on?: string, off?: string, show?: string, is?: unknown, press?: string, target?: string, value?: unknown }} KeyEntry */

const PRESSES = /** @type {const} */ ([
  ['none', 'nothing'],
  ['set', 'sets a parameter to a value'],
  ['fire', 'fires a trigger (a scene, an action)'],
  ['toggle', 'turns a parameter on and off'],
  ['momentary', 'holds a parameter on while pressed'],
]);

/** A typed value as the flow holds it: a number, true or false, or the text. @param {string} text */
const typedValue = (text) =>
  /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text === 'true' ? true : text === 'false' ? false : text;

/** The fields of the form, as text, from a `keys` entry (or the defaults of a new one). @param {KeyEntry | undefined} entry */
const formOf = (entry) => ({
  text: entry?.text ?? '',
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
function entryOf(device, key, form) {
  /** @type {Record<string, unknown>} */
  const entry = { device, key };
  if (form.text !== '') entry['text'] = form.text;
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

/**
 * @param {{ connection: string, device: string, keyIndex: number, addresses: readonly Address[],
 *   notify: (text: string, error: boolean) => void, close: () => void }} props
 */
export function KeyDesigner({ connection, device, keyIndex, addresses, notify, close }) {
  const [form, setForm] = useState(formOf(undefined));
  /** Where the key's entry stands in `keys`, once the flow is read; -1 for none yet. */
  const [at, setAt] = useState(/** @type {number | undefined} */ (undefined));
  const [issues, setIssues] = useState(/** @type {readonly PlacedIssue[]} */ ([]));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    (async () => {
      const { text } = await readFlow();
      const { document } = await draftOf(text, []);
      const keys = /** @type {any} */ (document)?.connections?.[connection]?.keys;
      const found = Array.isArray(keys) ? keys.findIndex((/** @type {KeyEntry} */ k) => k.device === device && k.key === keyIndex) : -1;
      setForm(formOf(found >= 0 ? keys[found] : undefined));
      setAt(found);
    })().catch((/** @type {Error} */ error) => notify(`the flow could not be read: ${error.message}`, true));
  }, [connection, device, keyIndex]);

  /** @param {keyof ReturnType<typeof formOf>} field @returns {(e: Event) => void} */
  const onInput = (field) => (e) => setForm({ ...form, [field]: /** @type {HTMLInputElement} */ (e.currentTarget).value });
  const keysPath = ['connections', connection, 'keys'];

  /** Saves `edits` to the flow file at once; the hub applies them. @param {(document: any) => FlowEdit[]} editsOf @param {string} done */
  const save = async (editsOf, done) => {
    setBusy(true);
    try {
      const { text, etag } = await readFlow();
      const { document } = await draftOf(text, []);
      const draft = await draftOf(text, editsOf(document));
      const mine = draft.issues.filter((issue) => keysPath.every((part, i) => issue.path[i] === part));
      if (mine.length > 0) {
        setIssues(mine);
        notify(`not saved: ${mine.map((issue) => issue.message).join('; ')}`, true);
        return;
      }
      const answer = await saveFlow(draft.text, etag, done);
      if (!answer.ok) {
        notify(`not saved: ${answer.error} (${answer.code})`, true);
        return;
      }
      notify(`${done}: saved and applied, version ${answer.version}`, false);
      close();
    } catch (error) {
      notify(`not saved: ${/** @type {Error} */ (error).message}`, true);
    } finally {
      setBusy(false);
    }
  };

  const apply = () =>
    save((document) => {
      const entry = entryOf(device, keyIndex, form);
      const keys = document?.connections?.[connection]?.keys;
      if (at !== undefined && at >= 0) return [{ op: 'set', path: [...keysPath, at], value: entry }];
      return Array.isArray(keys) ? [{ op: 'add', path: keysPath, value: entry }] : [{ op: 'set', path: keysPath, value: [entry] }];
    }, `key ${keyIndex} of ${device}`);
  const remove = () =>
    save(() => [{ op: 'remove', path: [...keysPath, /** @type {number} */ (at)] }], `key ${keyIndex} of ${device} cleared`);

  const readable = addresses.filter((a) => a.access !== 'write-only');
  const writable = addresses.filter((a) => a.access !== 'read-only');
  // The text as the deck shows it now, with the values it names.
  const preview = form.text.replace(/\$\(([^()]+)\)/g, (_, address) => {
    const value = values.get(address)?.v;
    return value === undefined || value === null ? '–' : String(value);
  });
  const errorAt = (/** @type {string} */ field) =>
    issues.filter((issue) => issue.path[4] === field).map((issue) => html`<p class="field-error" role="alert">${issue.message}</p>`);

  return html`<form class="key-designer" data-testid="key-designer" onSubmit=${(/** @type {Event} */ e) => {
    e.preventDefault();
    apply();
  }}>
    <h3>key ${keyIndex} of ${device}</h3>
    <div class="key-previews" aria-hidden="true">
      <span class="key" style=${`background: ${form.off}; color: ${form.textColor}`}>${preview}</span>
      ${form.show !== '' && html`<span class="key" style=${`background: ${form.on}; color: ${form.textColor}`}>${preview}</span>`}
    </div>
    <div class="field">
      <label for="key-text">text</label>
      <textarea id="key-text" rows="2" value=${form.text} onInput=${onInput('text')}></textarea>
      <select aria-label="put a value in the text" onChange=${(/** @type {Event} */ e) => {
        const picked = /** @type {HTMLSelectElement} */ (e.currentTarget).value;
        /** @type {HTMLSelectElement} */ (e.currentTarget).value = '';
        if (picked) setForm({ ...form, text: `${form.text}$(${picked})` });
      }}>
        <option value="">put a value in the text…</option>
        ${readable.map((a) => html`<option value=${a.p}>${a.p}</option>`)}
      </select>
      <p class="help">A value in the text, as <code>$(router/output/1)</code>, shows live on the key.</p>
    </div>
    <div class="field inline colours">
      <label>text colour <input type="color" value=${form.textColor} onInput=${onInput('textColor')} /></label>
      <label>colour <input type="color" value=${form.off} onInput=${onInput('off')} /></label>
      ${form.show !== '' && html`<label>colour while lit <input type="color" value=${form.on} onInput=${onInput('on')} /></label>`}
    </div>
    <div class="field">
      <label for="key-press">a press</label>
      <select id="key-press" onChange=${onInput('press')}>
        ${PRESSES.map(([press, label]) => html`<option value=${press} selected=${form.press === press}>${label}</option>`)}
      </select>
      ${errorAt('press')}
    </div>
    ${
      form.press !== 'none' &&
      html`<div class="field">
        <label for="key-target">the parameter it writes</label>
        <input id="key-target" list="key-writable" value=${form.target} spellcheck=${false} onInput=${onInput('target')} />
        ${errorAt('target')}
      </div>`
    }
    ${
      form.press === 'set' &&
      html`<div class="field">
        <label for="key-value">the value it sets</label>
        <input id="key-value" value=${form.value} onInput=${onInput('value')} />
        ${errorAt('value')}
      </div>`
    }
    <div class="field">
      <label for="key-show">lit by</label>
      <input id="key-show" list="key-readable" placeholder="(nothing: never lit)" value=${form.show} spellcheck=${false} onInput=${onInput('show')} />
      ${errorAt('show')}
    </div>
    ${
      form.show !== '' &&
      html`<div class="field">
        <label for="key-is">lit while it is</label>
        <input id="key-is" placeholder="true" value=${form.is} onInput=${onInput('is')} />
        <p class="help">Empty: while it is true. A value, as <code>3</code>: while it is that (a router's output on input 3).</p>
      </div>`
    }
    <datalist id="key-readable">${readable.map((a) => html`<option value=${a.p} />`)}</datalist>
    <datalist id="key-writable">${writable.map((a) => html`<option value=${a.p} />`)}</datalist>
    <div class="actions">
      <button class="primary" type="submit" disabled=${busy || at === undefined}>save the key</button>
      ${at !== undefined && at >= 0 && html`<button type="button" disabled=${busy} onClick=${remove}>clear the key</button>`}
      <button type="button" onClick=${close}>cancel</button>
    </div>
  </form>`;
}
