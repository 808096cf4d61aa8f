// Triggers from a form (R-ST5): "at 06:30 on weekdays", "once on 24 December at 18:00", "when
// a value changes" or "when a value is over 5" → write a value (a scene's recall, a module's
// action, any writable parameter). What it makes is the flow's own — a schedule entry for a
// time, a rule, one that holds state for a condition with what to write otherwise — as
// `trigger-rules.js` says; this is the form.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { COMPARE, DAYS } from './trigger-rules.js';
import { choicesOf, ValueInput } from './value-input.js';
/** @import { Trigger } from './trigger-rules.js' */
/** @typedef {{ p: string, access?: string, meta?: import('../lib/core/api-shapes.ts').ParameterListing['meta'] }} Address */

const WHEN = /** @type {const} */ ([
  ['daily', 'at a time of day'],
  ['once', 'once, at a date and time'],
  ['change', 'when a value changes'],
  ['condition', 'when a value meets a condition'],
]);
/** A new trigger's form, empty. @type {Trigger} */
const NEW_TRIGGER = {
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
};

/**
 * A trigger's form: empty for a new one, or holding what `initial` says (one read back by `triggerAt`).
 * @param {{ addresses: readonly Address[], initial?: Trigger, apply: (trigger: Trigger) => Promise<unknown>, cancel: () => void }} props
 */
export function TriggerForm({ addresses, initial, apply, cancel }) {
  const [trigger, setTrigger] = useState(initial ?? NEW_TRIGGER);
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
    <h3>${initial ? `trigger "${initial.name}"` : 'new trigger'}</h3>
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
