// The key designer (R-ST4): a key of a surface picked in the surfaces tab, set up as
// Companion's button editor sets one up — its text (with values in it, live), its colours,
// what a press does (toggle, hold, fire, or set a parameter to a value: a route, a scene, a
// module's action) and what lights it (a parameter true, or at a value) — and saved as the
// key's entry in the flow's `keys` of its connection, which the hub applies at once and
// keeps across restarts.
import { useEffect, useState } from 'preact/hooks';
import { draftOf, readFlow } from './api.js';
import { saveAtOnce } from './flow-edits.js';
import { shownValue } from './format.js';
import { entryOf, formOf } from './key-entries.js';
/** @import { KeyEntry } from './key-entries.js' */
import { html } from './html.js';
import { choicesOf, ValueInput } from './value-input.js';
import { values } from './live.js';
/** @import { FlowEdit, PlacedIssue } from '../lib/core/flow-shapes.ts' */
/** @import { ParameterListing } from '../lib/core/api-shapes.ts' */
/** @typedef {{ p: string, access?: string, meta?: ParameterListing['meta'] }} Address */

const PRESSES = /** @type {const} */ ([
  ['none', 'nothing'],
  ['set', 'sets a parameter to a value'],
  ['fire', 'fires a trigger (a scene, an action)'],
  ['toggle', 'turns a parameter on and off'],
  ['momentary', 'holds a parameter on while pressed'],
]);

/** Stream Decks by model: keys, and keys a row. */
const MODELS = /** @type {const} */ ([
  ['Stream Deck MK.2 (15 keys)', 15, 5],
  ['Stream Deck XL (32 keys)', 32, 8],
  ['Stream Deck Mini (6 keys)', 6, 3],
  ['Stream Deck + (8 keys)', 8, 4],
  ['Stream Deck Neo (8 keys)', 8, 4],
  ['Stream Deck Pedal (3 keys)', 3, 3],
]);

/**
 * A deck expected before it connects (the flow's `devices` of its satellite connection): its
 * model gives its layout, so its keys can be designed now; its serial number is the id the
 * satellite will add it by.
 * @param {{ connections: readonly string[], notify: (text: string, error: boolean) => void, close: () => void }} props
 */
export function AddDeck({ connections, notify, close }) {
  const [connection, setConnection] = useState(connections[0] ?? '');
  const [model, setModel] = useState(0);
  const [device, setDevice] = useState('');
  const [busy, setBusy] = useState(false);
  const [issues, setIssues] = useState(/** @type {readonly PlacedIssue[]} */ ([]));
  const path = ['connections', connection, 'devices'];
  const add = async () => {
    const [, keys, perRow] = MODELS[model] ?? MODELS[0];
    setBusy(true);
    const saved = await saveAtOnce(
      (document) => {
        const entry = { device: device.trim(), keys, perRow };
        return Array.isArray(document?.connections?.[connection]?.devices)
          ? [{ op: 'add', path, value: entry }]
          : [{ op: 'set', path, value: [entry] }];
      },
      path,
      `deck ${device.trim()} expected`,
    );
    setBusy(false);
    if (saved.notice) notify(saved.notice.text, saved.notice.error);
    if (saved.done) close();
    else setIssues(saved.refused ?? []);
  };
  return html`<form class="key-designer" data-testid="add-deck" onSubmit=${(/** @type {Event} */ e) => {
    e.preventDefault();
    add();
  }}>
    <h3>a deck that has not connected yet</h3>
    ${
      connections.length > 1 &&
      html`<div class="field"><label for="deck-connection">its satellite connection</label>
        <select id="deck-connection" onChange=${(/** @type {Event} */ e) => setConnection(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
          ${connections.map((id) => html`<option selected=${id === connection}>${id}</option>`)}
        </select></div>`
    }
    <div class="field"><label for="deck-model">model</label>
      <select id="deck-model" onChange=${(/** @type {Event} */ e) => setModel(/** @type {HTMLSelectElement} */ (e.currentTarget).selectedIndex)}>
        ${MODELS.map(([name], at) => html`<option selected=${at === model}>${name}</option>`)}
      </select></div>
    <div class="field"><label for="deck-device">its serial number</label>
      <input id="deck-device" value=${device} spellcheck=${false} placeholder="as on the label under the deck, e.g. CL15K1A00001"
        onInput=${(/** @type {Event} */ e) => setDevice(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
      <p class="help">Companion Satellite adds a deck by its serial number; keys designed now show on it once it connects.</p>
      ${issues.map((issue) => html`<p class="field-error" role="alert">${issue.message}</p>`)}
    </div>
    <div class="actions">
      <button class="primary" type="submit" disabled=${busy || device.trim() === ''}>add the deck</button>
      <button type="button" onClick=${close}>cancel</button>
    </div>
  </form>`;
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

  /** Saves the edits at once; the hub applies them. @param {(document: any) => FlowEdit[]} editsOf @param {string} done */
  const save = async (editsOf, done) => {
    setBusy(true);
    const saved = await saveAtOnce(editsOf, keysPath, done);
    setBusy(false);
    if (saved.notice) notify(saved.notice.text, saved.notice.error);
    if (saved.done) close();
    else setIssues(saved.refused ?? []);
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
  const [other, setOther] = useState('');
  /**
   * This key as the form has it, onto key `other` of the same deck (over what that key had, once
   * the person says so); moved, this key is cleared.
   * @param {boolean} moving
   */
  const copyTo = (moving) => {
    const to = Number(other);
    if (!Number.isInteger(to) || to < 0 || to === keyIndex) return;
    save(
      (document) => {
        const keys = /** @type {KeyEntry[]} */ (document?.connections?.[connection]?.keys ?? []);
        const there = keys.findIndex((k) => k.device === device && k.key === to);
        if (there >= 0 && !confirm(`Key ${to} of ${device} is set up already: put key ${keyIndex} over it?`)) return [];
        const entry = entryOf(device, to, form);
        /** @type {FlowEdit[]} */
        const edits =
          there >= 0 ? [{ op: 'set', path: [...keysPath, there], value: entry }] : [{ op: 'add', path: keysPath, value: entry }];
        // Removed after the copy is placed: a removal before it would move the index it was given.
        if (moving) edits.push({ op: 'remove', path: [...keysPath, /** @type {number} */ (at)] });
        return edits;
      },
      `key ${keyIndex} of ${device} ${moving ? 'moved' : 'copied'} to key ${to}`,
    );
  };

  const readable = addresses.filter((a) => a.access !== 'write-only');
  const writable = addresses.filter((a) => a.access !== 'read-only');
  // The text as the deck shows it now, with the values it names; an expression's value is
  // worked out by the hub, so its preview is what the key shows (the saved expression's).
  const shownNow = String(values.get(`${connection}/${device}/key/${keyIndex}/text`)?.v ?? '');
  const preview = form.textExpression
    ? shownNow
    : form.text.replace(/\$\(([^()]+)\)/g, (_, address) => {
        const value = values.get(address)?.v;
        // By its choice's label, as the deck shows it.
        return value === undefined || value === null ? '–' : shownValue(value, addresses.find((a) => a.p === address)?.meta);
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
        // On a line of its own after text, as a key's value usually stands.
        if (picked) setForm({ ...form, text: `${form.text}${form.text === '' || /\s$/.test(form.text) ? '' : '\n'}$(${picked})` });
      }}>
        <option value="">put a value in the text…</option>
        ${readable.map((a) => html`<option value=${a.p}>${a.meta?.label ? `${a.meta.label} (${a.p})` : a.p}</option>`)}
      </select>
      <label class="inline"><input type="checkbox" checked=${form.textExpression}
        onChange=${(/** @type {Event} */ e) => setForm({ ...form, textExpression: /** @type {HTMLInputElement} */ (e.currentTarget).checked })} />
        the text is an expression</label>
      ${errorAt('text')}
      <p class="help">${
        form.textExpression
          ? html`The key shows the expression's value, live, as Companion's text expressions: <code>$(router/output/1) == 3 ? 'LIVE' : 'CAM 3'</code>, <code>round($(mixer/level) * 100) + '%'</code>. Values are read as they are (a router's 3, not its label); the preview shows it once saved.`
          : html`A value in the text, as <code>$(router/output/0/input)</code>, shows live on the key, by its label where it has one.`
      }</p>
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
        <${ValueInput} id="key-value" value=${form.value} choices=${choicesOf(addresses, form.target)}
          set=${(/** @type {string} */ value) => setForm({ ...form, value })} />
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
        <${ValueInput} id="key-is" placeholder="true" empty="(true)" value=${form.is} choices=${choicesOf(addresses, form.show)}
          set=${(/** @type {string} */ is) => setForm({ ...form, is })} />
        <p class="help">Empty: while it is true. A value: while it is that (a router's output on the input picked).</p>
      </div>`
    }
    <datalist id="key-readable">${readable.map((a) => html`<option value=${a.p}>${a.meta?.label ?? ''}</option>`)}</datalist>
    <datalist id="key-writable">${writable.map((a) => html`<option value=${a.p}>${a.meta?.label ?? ''}</option>`)}</datalist>
    ${
      at !== undefined &&
      at >= 0 &&
      html`<div class="field inline">
        <label for="key-other">to key</label>
        <input id="key-other" type="number" min="0" step="1" value=${other} onInput=${(/** @type {Event} */ e) => setOther(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
        <button type="button" disabled=${busy || other === ''} onClick=${() => copyTo(false)}>copy</button>
        <button type="button" disabled=${busy || other === ''} onClick=${() => copyTo(true)}>move</button>
      </div>`
    }
    <div class="actions">
      <button class="primary" type="submit" disabled=${busy || at === undefined}>save the key</button>
      ${at !== undefined && at >= 0 && html`<button type="button" disabled=${busy} onClick=${remove}>clear the key</button>`}
      <button type="button" onClick=${close}>cancel</button>
    </div>
  </form>`;
}
