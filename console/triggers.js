// Triggers from a form (R-ST5): "at 06:30 on weekdays", "once on 24 December at 18:00", "when
// a value changes" or "when a value is over 5" → write a value (a scene's recall, a module's
// action, any writable parameter). What it makes is the flow's own: a time is an entry of a
// `schedule` connection (the flow's first, or a new one), and every trigger is a rule from
// what fires to what is written, with a `filter` step for a condition and a `set` step for
// the value, described by the trigger's name. A condition may also say what to write
// otherwise (a lamp lit while a camera is on air, put out when it is not): a second rule with
// the opposite comparison.
import { useState } from 'preact/hooks';
import { freeId, idOf, typedValue } from './format.js';
import { html } from './html.js';
import { choicesOf, ValueInput } from './value-input.js';
/** @import { FlowEdit } from '../lib/core/flow-shapes.ts' */
/** @typedef {{ p: string, access?: string, meta?: import('../lib/core/api-shapes.ts').ParameterListing['meta'] }} Address */

const WHEN = /** @type {const} */ ([
  ['daily', 'at a time of day'],
  ['once', 'once, at a date and time'],
  ['change', 'when a value changes'],
  ['condition', 'when a value meets a condition'],
]);
const DAYS = /** @type {const} */ ([
  ['*', 'every day'],
  ['MON-FRI', 'on weekdays'],
  ['SAT,SUN', 'at weekends'],
]);
/** Each comparison's opposite, for what a condition writes otherwise. */
const OPPOSITE = /** @type {Record<string, string>} */ ({ eq: 'ne', ne: 'eq', gt: 'lte', gte: 'lt', lt: 'gte', lte: 'gt' });
const COMPARE = /** @type {const} */ ([
  ['eq', 'is'],
  ['ne', 'is not'],
  ['gt', 'is over'],
  ['gte', 'is at least'],
  ['lt', 'is under'],
  ['lte', 'is at most'],
]);

/**
 * The edits that make a trigger: a schedule entry when it is a time, and its rule.
 * @param {{ name: string, when: string, time: string, days: string, date: string, source: string, compare: string, than: string, destination: string, value: string, otherwise: string }} trigger
 * @param {{ connections?: Record<string, Record<string, any>>, rules?: unknown[] }} document
 * @returns {FlowEdit[]}
 */
export function triggerEdits(trigger, document) {
  /** @type {FlowEdit[]} */
  const edits = [];
  let source = trigger.source;
  if (trigger.when === 'daily' || trigger.when === 'once') {
    const [hour = '0', minute = '0'] = trigger.time.split(':');
    const entry = {
      id: idOf(trigger.name, 'trigger'),
      ...(trigger.when === 'daily'
        ? { cron: `0 ${Number(minute)} ${Number(hour)} * * ${trigger.days}` }
        : { at: `${trigger.date}:00`.slice(0, 19) }),
    };
    const connections = document.connections ?? {};
    const existing = Object.entries(connections).find(([, settings]) => settings.type === 'schedule')?.[0];
    const schedule = existing ?? freeId('schedule', Object.keys(connections));
    if (document.connections === undefined) edits.push({ op: 'set', path: ['connections'], value: {} });
    if (!existing) edits.push({ op: 'set', path: ['connections', schedule], value: { type: 'schedule', entries: [entry] } });
    else if (Array.isArray(connections[schedule]?.entries))
      edits.push({ op: 'add', path: ['connections', schedule, 'entries'], value: entry });
    else edits.push({ op: 'set', path: ['connections', schedule, 'entries'], value: [entry] });
    source = `${schedule}/${entry.id}/fire`;
  }
  /** @param {string} compare @param {string} value */
  const pipe = (compare, value) => [
    ...(trigger.when === 'condition' ? [{ filter: { [compare]: typedValue(trigger.than) } }] : []),
    // Nothing to write: the destination is fired (a trigger, a scene's recall).
    { set: value === '' ? null : typedValue(value) },
  ];
  if (document.rules === undefined) edits.push({ op: 'set', path: ['rules'], value: [] });
  const rule = { source, destinations: [trigger.destination], pipe: pipe(trigger.compare, trigger.value), description: trigger.name };
  edits.push({ op: 'add', path: ['rules'], value: rule });
  if (trigger.when === 'condition' && trigger.otherwise !== '') {
    const otherwise = pipe(OPPOSITE[trigger.compare] ?? 'ne', trigger.otherwise);
    edits.push({ op: 'add', path: ['rules'], value: { ...rule, pipe: otherwise, description: `${trigger.name}, otherwise` } });
  }
  return edits;
}

/**
 * @param {{ addresses: readonly Address[], apply: (trigger: Parameters<typeof triggerEdits>[0]) => Promise<unknown>, cancel: () => void }} props
 */
export function TriggerForm({ addresses, apply, cancel }) {
  const [trigger, setTrigger] = useState({
    name: '',
    when: 'daily',
    time: '06:00',
    days: '*',
    date: '',
    source: '',
    compare: 'eq',
    than: '',
    destination: '',
    value: '',
    otherwise: '',
  });
  const [busy, setBusy] = useState(false);
  /** @param {keyof typeof trigger} key */
  const bind = (key) => ({
    value: trigger[key],
    onInput: (/** @type {Event} */ e) => setTrigger({ ...trigger, [key]: /** @type {HTMLInputElement} */ (e.currentTarget).value }),
  });
  const onValue = trigger.when === 'change' || trigger.when === 'condition';
  const ready =
    trigger.name !== '' &&
    trigger.destination !== '' &&
    (onValue
      ? trigger.source !== '' && (trigger.when === 'change' || trigger.than !== '')
      : trigger.when === 'daily'
        ? trigger.time !== ''
        : trigger.date !== '');
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setBusy(true);
    await apply(trigger).finally(() => setBusy(false));
  };
  return html`<form class="rule-form trigger-form" data-testid="trigger-form" onSubmit=${submit}>
    <h3>new trigger</h3>
    <datalist id="trigger-readable">${addresses.filter((a) => a.access !== 'write-only').map((a) => html`<option value=${a.p}>${a.meta?.label ?? ''}</option>`)}</datalist>
    <datalist id="trigger-writable">${addresses.filter((a) => a.access !== 'read-only').map((a) => html`<option value=${a.p}>${a.meta?.label ?? ''}</option>`)}</datalist>
    <div class="field"><label for="trigger-name">name *</label>
      <input id="trigger-name" placeholder="morning show" ...${bind('name')} /></div>
    <div class="field"><label for="trigger-when">when</label>
      <select id="trigger-when" onChange=${(/** @type {Event} */ e) => setTrigger({ ...trigger, when: /** @type {HTMLSelectElement} */ (e.currentTarget).value })}>
        ${WHEN.map(([value, label]) => html`<option value=${value} selected=${trigger.when === value}>${label}</option>`)}
      </select></div>
    ${
      trigger.when === 'daily' &&
      html`<div class="field inline"><label for="trigger-time">at</label><input id="trigger-time" type="time" ...${bind('time')} />
      <select aria-label="days" onChange=${(/** @type {Event} */ e) => setTrigger({ ...trigger, days: /** @type {HTMLSelectElement} */ (e.currentTarget).value })}>
        ${DAYS.map(([value, label]) => html`<option value=${value} selected=${trigger.days === value}>${label}</option>`)}
      </select></div>`
    }
    ${
      trigger.when === 'once' &&
      html`<div class="field"><label for="trigger-date">on</label><input id="trigger-date" type="datetime-local" ...${bind('date')} /></div>`
    }
    ${
      onValue &&
      html`<div class="field"><label for="trigger-source">the value of *</label>
      <input id="trigger-source" list="trigger-readable" placeholder="a parameter, e.g. desk/level" spellcheck=${false} ...${bind('source')} /></div>`
    }
    ${
      trigger.when === 'condition' &&
      html`<div class="field inline">
      <select aria-label="comparison" onChange=${(/** @type {Event} */ e) => setTrigger({ ...trigger, compare: /** @type {HTMLSelectElement} */ (e.currentTarget).value })}>
        ${COMPARE.map(([value, label]) => html`<option value=${value} selected=${trigger.compare === value}>${label}</option>`)}
      </select>
      <${ValueInput} id="trigger-than" label="than" placeholder="a value" value=${trigger.than} choices=${choicesOf(addresses, trigger.source)}
        set=${(/** @type {string} */ than) => setTrigger({ ...trigger, than })} /></div>`
    }
    <div class="field"><label for="trigger-destination">then write to *</label>
      <input id="trigger-destination" list="trigger-writable" placeholder="a parameter, a scene's recall, a module's action" spellcheck=${false} ...${bind('destination')} /></div>
    <div class="field"><label for="trigger-value">the value</label>
      <${ValueInput} id="trigger-value" placeholder="empty fires it" value=${trigger.value} choices=${choicesOf(addresses, trigger.destination)}
        set=${(/** @type {string} */ value) => setTrigger({ ...trigger, value })} />
      <p class="help">A number, true or false, or a text; left empty, the destination is fired (a trigger, a scene's recall).</p></div>
    ${
      trigger.when === 'condition' &&
      html`<div class="field"><label for="trigger-otherwise">otherwise write</label>
      <${ValueInput} id="trigger-otherwise" placeholder="nothing" empty="(nothing)" value=${trigger.otherwise}
        choices=${choicesOf(addresses, trigger.destination)} set=${(/** @type {string} */ otherwise) => setTrigger({ ...trigger, otherwise })} />
      <p class="help">Written when the value no longer meets the condition (a lamp put out); left empty, nothing is.</p></div>`
    }
    <div class="form-actions">
      <button class="primary" type="submit" disabled=${busy || !ready}>apply to the flow</button>
      <button type="button" onClick=${cancel}>cancel</button>
    </div>
  </form>`;
}
