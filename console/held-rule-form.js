// The form of a rule that holds state (R-RS1–R-RS4): its sources by name, where it writes,
// the expression over them, when it writes and how it joins other writers — fields a studio
// engineer fills in, never the file's syntax. It writes `{ from, to, expr, on?, combine? }`
// as the guide teaches it: one source as an address, one destination as an address.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { inOrder, messagesAt, Unplaced } from './flow-forms.js';
/** @import { FlowIssue } from '../lib/core/flow-shapes.ts' */
/** @import { ParameterListing } from '../lib/core/api-shapes.ts' */

/** @typedef {readonly (string | number)[]} Path */
/** @typedef {{ name: string, address: string }} Source */

/** How a rule joins the other rules that write its destination (R-RS4), in words. */
const COMBINE = /** @type {const} */ ([
  ['', 'it is the one writer'],
  ['any', 'any: on while one of them says on (a lamp red for any of its triggers)'],
  ['all', 'all: on while every one of them says on'],
  ['priority', 'priority: the first in the flow that says something (not off, 0 or empty)'],
  ['last', 'last: whichever said something last'],
]);

/** The sources of a rule as rows: `from` as one address is the source named `value`. @param {unknown} from @returns {Source[]} */
const sourcesOf = (from) =>
  typeof from === 'string'
    ? [{ name: 'value', address: from }]
    : from && typeof from === 'object'
      ? Object.entries(from).map(([name, address]) => ({ name, address: String(address) }))
      : [{ name: 'value', address: '' }];

/** @param {unknown} to @returns {string[]} */
const targetsOf = (to) => (typeof to === 'string' ? [to] : Array.isArray(to) && to.length ? to.map(String) : ['']);

/**
 * @param {{ path: Path, value: Record<string, any>, addresses: readonly Pick<ParameterListing, 'p' | 'access'>[],
 *   apply: (value: Record<string, any>) => Promise<FlowIssue[]>, cancel: () => void }} props
 */
export function HeldRuleForm({ path, value, addresses, apply, cancel }) {
  const [sources, setSources] = useState(() => sourcesOf(value['from']));
  const [targets, setTargets] = useState(() => targetsOf(value['to']));
  const [expr, setExpr] = useState(typeof value['expr'] === 'string' ? value['expr'] : '');
  const [on, setOn] = useState(value['on'] === 'change' ? 'change' : 'state');
  const [combine, setCombine] = useState(typeof value['combine'] === 'string' ? value['combine'] : '');
  const [description, setDescription] = useState(typeof value['description'] === 'string' ? value['description'] : '');
  const [issues, setIssues] = useState(/** @type {FlowIssue[]} */ ([]));
  const [busy, setBusy] = useState(false);
  /** A field edited: its mistakes are the last apply's, and go. @param {string} field */
  const edited = (field) => setIssues((now) => now.filter((issue) => String(issue.path[path.length]) !== field));
  const errorsAt = (/** @type {Path} */ at) =>
    messagesAt(issues, [...path, ...at]).map((message) => html`<p class="field-error" role="alert">${message}</p>`);

  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const named = sources.filter((source) => source.address.trim() !== '');
    const written = targets.map((target) => target.trim()).filter((target) => target !== '');
    /** @type {Record<string, any>} */
    const rule = {
      ...value,
      from:
        named.length === 1 && named[0]?.name === 'value'
          ? named[0].address.trim()
          : Object.fromEntries(named.map((s) => [s.name.trim(), s.address.trim()])),
      to: written.length === 1 ? written[0] : written,
      expr: expr.trim() === '' ? undefined : expr.trim(),
      on: on === 'change' ? 'change' : undefined,
      combine: combine === '' ? undefined : combine,
      description: description.trim() === '' ? undefined : description.trim(),
    };
    for (const key of Object.keys(rule)) if (rule[key] === undefined) delete rule[key];
    setBusy(true);
    setIssues(await apply(inOrder(rule, ['from', 'to', 'expr', 'on', 'combine', 'description', 'enabled'])).finally(() => setBusy(false)));
  };
  const shown = (/** @type {Path} */ at) =>
    at.length > path.length && ['from', 'to', 'expr', 'on', 'combine'].includes(String(at[path.length]));
  const names = sources.map((source) => source.name).filter(Boolean);

  return html`<form class="rule-form held-rule-form" data-testid="held-rule-form" onSubmit=${submit}>
    <h3>${value['from'] === undefined ? 'new rule that holds state' : 'rule that holds state'}</h3>
    <p class="help">Its destinations hold what it says now: written when it starts, when a source changes, and when a destination's device is back (a lamp after a power cycle).</p>
    <datalist id="held-readable">${addresses.filter((a) => a.access !== 'write-only').map((a) => html`<option value=${a.p} />`)}</datalist>
    <datalist id="held-writable">${addresses.filter((a) => a.access !== 'read-only').map((a) => html`<option value=${a.p} />`)}</datalist>
    <${Unplaced} issues=${issues} prefix=${path} shown=${shown} />
    <fieldset class="group"><legend>sources *</legend>
      <p class="help">Each by a name the expression reads (<code>prg</code>), from a parameter, or a pattern whose <code>+</code> levels the destination and the expression read as <code>{1}</code> (<code>atem/input/+/tally/program</code>).</p>
      ${sources.map(
        (source, index) => html`<div class="field inline">
          <input aria-label=${`source ${index + 1} name`} class="short" spellcheck=${false} value=${source.name}
            onInput=${(/** @type {Event} */ e) => {
              edited('from');
              setSources(
                sources.map((s, at) => (at === index ? { ...s, name: /** @type {HTMLInputElement} */ (e.currentTarget).value } : s)),
              );
            }} />
          <span>from</span>
          <input aria-label=${`source ${index + 1}`} list="held-readable" spellcheck=${false} value=${source.address} placeholder="connection/parameter"
            onInput=${(/** @type {Event} */ e) => {
              edited('from');
              setSources(
                sources.map((s, at) => (at === index ? { ...s, address: /** @type {HTMLInputElement} */ (e.currentTarget).value } : s)),
              );
            }} />
          <button type="button" disabled=${sources.length === 1} onClick=${() => setSources(sources.filter((_, at) => at !== index))}>remove</button>
          ${errorsAt(['from', source.name])}
        </div>`,
      )}
      ${errorsAt(['from'])}
      <button type="button" onClick=${() => setSources([...sources, { name: freeName(names), address: '' }])}>add a source</button>
    </fieldset>
    <fieldset class="group"><legend>destinations *</legend>
      ${targets.map(
        (target, index) => html`<div class="field inline">
          <input aria-label=${`writes to ${index + 1}`} list="held-writable" spellcheck=${false} value=${target} placeholder="connection/parameter, or umd/display/{1}/red"
            onInput=${(/** @type {Event} */ e) => {
              edited('to');
              setTargets(targets.map((t, at) => (at === index ? /** @type {HTMLInputElement} */ (e.currentTarget).value : t)));
            }} />
          <button type="button" disabled=${targets.length === 1} onClick=${() => setTargets(targets.filter((_, at) => at !== index))}>remove</button>
          ${errorsAt(['to', index])}
        </div>`,
      )}
      ${errorsAt(['to'])}
      <button type="button" onClick=${() => setTargets([...targets, ''])}>add a destination</button>
    </fieldset>
    <div class="field">
      <label for="held-expr">what it says${sources.length > 1 ? ' *' : ''}</label>
      <input id="held-expr" spellcheck=${false} value=${expr} placeholder=${sources.length > 1 ? `${names[0] ?? 'prg'} == 1 && !${names[1] ?? 'pvw'}` : 'the value of its source, as it is'}
        aria-invalid=${messagesAt(issues, [...path, 'expr']).length > 0}
        onInput=${(/** @type {Event} */ e) => {
          edited('expr');
          setExpr(/** @type {HTMLInputElement} */ (e.currentTarget).value);
        }} />
      <p class="help">An expression, as Companion's: the sources by name (${names.map((name, i) => html`${i ? ', ' : ''}<code>${name}</code>`)}), another parameter as <code>$(desk/override)</code>; <code>${'== != < > && || !'}</code>, <code>c ? a : b</code>, <code>round</code>, <code>min</code>, <code>max</code>, <code>clamp</code>, <code>includes([1, 2], prg)</code>, <code>concat('CAM ', {1})</code>. Empty with one source: its value, as it is.</p>
      ${errorsAt(['expr'])}
    </div>
    <div class="field">
      <label for="held-on">writes</label>
      <select id="held-on" onChange=${(/** @type {Event} */ e) => setOn(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
        <option value="state" selected=${on === 'state'}>what it says now, and again when its device is back (a lamp, a route)</option>
        <option value="change" selected=${on === 'change'}>only when a source changes (a pulse, an action, a press)</option>
      </select>
      ${errorsAt(['on'])}
    </div>
    <div class="field">
      <label for="held-combine">with other writers of its destination</label>
      <select id="held-combine" onChange=${(/** @type {Event} */ e) => setCombine(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
        ${COMBINE.map(([key, words]) => html`<option value=${key} selected=${combine === key}>${words}</option>`)}
      </select>
      <p class="help">Rules that write one destination the same way join so; two writers without it are a warning, since the last write would win.</p>
      ${errorsAt(['combine'])}
    </div>
    <div class="field">
      <label for="held-description">description</label>
      <input id="held-description" value=${description} onInput=${(/** @type {Event} */ e) => setDescription(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
    </div>
    <div class="form-actions">
      <button class="primary" type="submit" disabled=${busy}>apply to the flow</button>
      <button type="button" onClick=${cancel}>cancel</button>
    </div>
  </form>`;
}

/** A source name not taken yet: `b`, `c`, … @param {string[]} taken */
function freeName(taken) {
  for (const name of 'abcdefghijklmnopqrstuvwxyz') if (!taken.includes(name)) return name;
  return `s${taken.length + 1}`;
}
