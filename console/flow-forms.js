// The flow tab's forms (R-ED1): a connection's settings as a form made from its type's
// schema (the flow-file JSON Schema the hub serves at /flow/schema: every setting with its
// description, default and allowed values; nested lists of objects as lists of sub-forms),
// and a rule as its source, destinations and pipe steps with address pickers that complete
// from the hub's live parameters and take addresses that do not exist yet (R-G2). A form
// changes nothing itself: it hands its value to the tab, which has the hub make the edit in
// the text and check it (POST /flow/draft); the hub's mistakes come back and are shown at
// their fields.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { AddressListField, HubAddresses } from './address-list-field.js';
import { ParameterLinesField } from './parameter-lines-field.js';
/** @import { ParameterListing } from '../lib/core/api-shapes.ts' */
/** @import { FlowIssue } from '../lib/core/flow-shapes.ts' */

/** A part of the flow-file JSON Schema, read as the forms need it. @typedef {Record<string, any>} Schema */
/** @typedef {readonly (string | number)[]} Path */
/** @typedef {FlowIssue} FieldIssue */
/** @typedef {Pick<ParameterListing, 'p' | 'access'>} Address */

/** What a `${NAME}` placeholder branch of a setting looks like: the hub accepts one wherever a number or boolean is wanted. */
const isPlaceholderBranch = (/** @type {Schema} */ branch) =>
  branch.type === 'string' && String(branch.pattern ?? '').startsWith('^\\$\\{');

/** The secrets' key names, as the hub hides them: shown as set or not, and typed anew. */
const SECRET = /pass(word)?|secret|token|key$|credential/i;
/** The pattern of a colour setting, #rrggbb. */
const COLOUR_PATTERN = '^#[0-9a-fA-F]{6}$';

/**
 * What kind of field a setting is, and its schema with a placeholder branch taken away.
 * @param {Schema} schema
 * @returns {{ kind: 'boolean' | 'number' | 'text' | 'colour' | 'choice' | 'lines' | 'parameter-lines' | 'addresses' | 'list' | 'group' | 'map' | 'variant' | 'json', schema: Schema, choices?: unknown[], labels?: (string | undefined)[], key?: string, numbers?: boolean }}
 */
export function fieldKind(schema) {
  // Parameters declared in lines: a list of them, each with a type picker (parameter-lines-field.js).
  if (schema.form === 'parameter-lines') return { kind: 'parameter-lines', schema };
  // Addresses or patterns of the hub's parameters (a scene's members): picked as typed (address-list-field.js).
  if (schema.form === 'addresses') return { kind: 'addresses', schema };
  // A text or a number (a Companion module's dropdown that takes values of its own): typed as text.
  if (Array.isArray(schema.type)) return fieldKind({ ...schema, type: schema.type.includes('string') ? 'string' : schema.type[0] });
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.filter((/** @type {Schema} */ b) => !isPlaceholderBranch(b));
    if (branches.length === 1) return fieldKind({ ...branches[0], description: schema.description ?? branches[0].description });
    if (branches.every((/** @type {Schema} */ b) => 'const' in b))
      return { kind: 'choice', schema, choices: branches.map((b) => b.const), labels: branches.map((b) => b.title) };
    // Lines of text written either as one string or as a list (a dummy's parameters): a line a row.
    const lines = branches.find((/** @type {Schema} */ b) => b.type === 'array' && b.items?.type === 'string');
    if (lines && branches.every((/** @type {Schema} */ b) => b === lines || b.type === 'string'))
      return { kind: 'lines', schema: { ...lines, description: schema.description, default: schema.default } };
    // Objects told apart by one key's value (a module binding's action): that value picked, then its branch's fields.
    const key = variantKey(branches);
    if (key) return { kind: 'variant', schema: { ...schema, anyOf: branches }, key };
    return { kind: 'json', schema };
  }
  if (Array.isArray(schema.enum)) return { kind: 'choice', schema, choices: schema.enum };
  if ('const' in schema) return { kind: 'choice', schema, choices: [schema.const], labels: [schema.title] };
  if (schema.type === 'boolean') return { kind: 'boolean', schema };
  if (schema.type === 'integer' || schema.type === 'number') return { kind: 'number', schema };
  // A colour as #rrggbb (a key's, a lamp's): a colour picker.
  if (schema.type === 'string') return { kind: schema.pattern === COLOUR_PATTERN ? 'colour' : 'text', schema };
  if (schema.type === 'array' && schema.items?.type === 'string') return { kind: 'lines', schema };
  // A list whose entries may be whole numbers or texts (a tally display's addresses): a line each, a number as a number.
  if (schema.type === 'array' && acceptsScalars(schema.items)) return { kind: 'lines', schema, numbers: true };
  if (schema.type === 'array' && schema.items?.type === 'object' && schema.items.properties) return { kind: 'list', schema };
  if (schema.type === 'object' && schema.properties && !schema.patternProperties) return { kind: 'group', schema };
  // Entries by a name of the author's, each a form (a module's bindings by parameter id, what parameters say of themselves by id).
  const entry = mapEntryOf(schema);
  if (schema.type === 'object' && !schema.properties && typeof entry === 'object' && ['group', 'variant'].includes(fieldKind(entry).kind))
    return { kind: 'map', schema };
  return { kind: 'json', schema };
}

/**
 * The schema of each entry of a map: its `additionalProperties`, or its one pattern's.
 * @param {Schema} schema @returns {Schema | undefined}
 */
function mapEntryOf(schema) {
  if (typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  const patterns = Object.values(schema.patternProperties ?? {});
  return patterns.length === 1 ? patterns[0] : undefined;
}

/**
 * True for a list entry's schema that takes a whole number and a text (either, placeholders aside).
 * @param {Schema | undefined} items
 */
function acceptsScalars(items) {
  /** @type {(s: Schema) => Schema[]} */
  const flat = (s) => (Array.isArray(s.anyOf) ? s.anyOf.flatMap(flat) : [s]);
  const branches = items ? flat(items) : [];
  return branches.some((b) => b.type === 'integer') && branches.some((b) => b.type === 'string' && !b.pattern);
}

/**
 * The key whose `const` tells object branches apart, or undefined when none does.
 * @param {Schema[]} branches
 */
function variantKey(branches) {
  if (branches.length < 2 || !branches.every((b) => b.type === 'object' && b.properties)) return undefined;
  return Object.keys(branches[0]?.properties ?? {}).find((key) => {
    const values = branches.map((b) => b.properties?.[key]?.const);
    return values.every((v) => v !== undefined) && new Set(values).size === values.length;
  });
}

/**
 * The settings schema of each connection type the hub knows, by type, from the flow-file schema.
 * @param {Schema} flowSchema @returns {Map<string, Schema>}
 */
export function typeSchemas(flowSchema) {
  const connections = flowSchema.properties?.connections ?? {};
  /** @type {Schema} */
  const connection = Object.values(connections.patternProperties ?? {})[0] ?? connections.additionalProperties ?? {};
  /** @type {Map<string, Schema>} */
  const types = new Map();
  for (const { if: when, then } of connection.allOf ?? []) {
    const type = when?.properties?.type?.const;
    if (typeof type === 'string' && then?.properties) types.set(type, then);
  }
  return types;
}

/**
 * A connection's own settings schemas, finer than its type's (a Companion module's `config`
 * as its fields declare it), by connection id, from the flow-file schema.
 * @param {Schema} flowSchema @returns {Map<string, Record<string, Schema>>}
 */
export function ownSchemas(flowSchema) {
  const own = flowSchema.properties?.connections?.properties ?? {};
  return new Map(Object.entries(own).map(([id, schema]) => [id, /** @type {Schema} */ (schema).properties ?? {}]));
}

/**
 * The settings the types share (enabled, description, where it runs…): those most types
 * have (the types that serve the hub run in its process, and lack the isolation settings).
 */
function sharedSettings(/** @type {Map<string, Schema>} */ types) {
  const all = [...types.values()].map((schema) => Object.keys(schema.properties ?? {}));
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const key of all.flat()) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].filter(([key, count]) => key !== 'type' && count > all.length / 2).map(([key]) => key);
}

/** The pipe steps a rule may have, by name, from the flow-file schema. @param {Schema} flowSchema @returns {Map<string, Schema>} */
export function pipeSteps(flowSchema) {
  return new Map(Object.entries(flowSchema.$defs?.rule?.properties?.pipe?.items?.properties ?? {}));
}

const samePath = (/** @type {Path} */ a, /** @type {Path} */ b) => a.length === b.length && a.every((step, i) => step === b[i]);
/** Whether `path` lies at or below `prefix`. */
export const under = (/** @type {Path} */ path, /** @type {Path} */ prefix) => prefix.every((step, i) => path[i] === step);

/** The messages of the issues at `path` exactly. @param {FieldIssue[]} issues @param {Path} path */
export const messagesAt = (issues, path) => issues.filter((issue) => samePath(issue.path, path)).map((issue) => issue.message);

/** `value` with `path` set to `next` (undefined: removed), copied along the path. @returns {any} */
function setIn(/** @type {any} */ value, /** @type {Path} */ path, /** @type {unknown} */ next) {
  if (path.length === 0) return next;
  const [step, ...rest] = path;
  const copy = Array.isArray(value) ? [...value] : { ...(value ?? {}) };
  const child = setIn(/** @type {any} */ (copy)[/** @type {any} */ (step)], rest, next);
  if (child === undefined && !Array.isArray(copy)) delete (/** @type {any} */ (copy)[/** @type {any} */ (step)]);
  /** @type {any} */ else copy[/** @type {any} */ (step)] = child;
  return copy;
}

/** A schema's description, its `code` spans shown as code. @param {string} text */
const prose = (text) => text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));

/** A number typed (a placeholder or a mistake stays text, for the hub to take or refuse at its field). */
const numberOrText = (/** @type {string} */ typed) => (typed.trim() !== '' && Number.isFinite(Number(typed)) ? Number(typed) : typed);

/** The field's id in the page: its path. */
const fieldId = (/** @type {Path} */ path) => `field-${path.join('.')}`.replace(/[^\w.-]/g, '_');

/**
 * One setting as a field: its name, its input, its description and default, and the hub's
 * mistakes at it.
 * @param {FieldProps} props
 */
function Field({ name, schema, value, path, issues, set, base }) {
  const found = fieldKind(schema);
  // Lines of numbers or texts, unless the list holds more than those (an entry written as an object): then its JSON.
  const {
    kind,
    schema: typed,
    choices,
    labels,
    key,
    numbers,
  } = found.kind === 'lines' && found.numbers && Array.isArray(value) && value.some((entry) => typeof entry === 'object' && entry !== null)
    ? { ...found, kind: 'json' }
    : found;
  const full = [...base, ...path];
  const id = fieldId(full);
  const messages = messagesAt(issues, full);
  const fallback = typed.default ?? schema.default;
  const hint = fallback === undefined ? '' : typeof fallback === 'object' ? JSON.stringify(fallback) : String(fallback);
  const invalid = messages.length > 0;
  const onText = (/** @type {Event} */ e) => {
    const typedText = /** @type {HTMLInputElement} */ (e.currentTarget).value;
    set(path, typedText === '' ? undefined : kind === 'number' ? numberOrText(typedText) : typedText);
  };
  /** @type {any} */
  let input;
  if (kind === 'boolean')
    input = html`<input id=${id} type="checkbox" checked=${value === undefined ? fallback === true : value === true}
      onChange=${(/** @type {Event} */ e) => set(path, /** @type {HTMLInputElement} */ (e.currentTarget).checked)} />`;
  else if (kind === 'choice')
    input = html`<select id=${id} aria-invalid=${invalid} onChange=${(/** @type {Event} */ e) => {
      const at = /** @type {HTMLSelectElement} */ (e.currentTarget).selectedIndex - 1;
      set(path, at < 0 ? undefined : choices?.[at]);
    }}>
      <option selected=${value === undefined}>${hint === '' ? '(not set)' : `(default: ${labels?.[choices?.indexOf(fallback) ?? -1] ?? hint})`}</option>
      ${choices?.map((choice, at) => html`<option selected=${value === choice}>${labels?.[at] ?? String(choice)}</option>`)}
    </select>`;
  else if (kind === 'lines')
    input = html`<textarea id=${id} rows=${Math.min(12, Math.max(3, (Array.isArray(value) ? value.length : String(value ?? '').split('\n').length) + 1))} aria-invalid=${invalid} spellcheck=${false}
      value=${Array.isArray(value) ? value.join('\n') : typeof value === 'string' ? value : ''} placeholder="one per line"
      onInput=${(/** @type {Event} */ e) => {
        const lines = /** @type {HTMLTextAreaElement} */ (e.currentTarget).value;
        const entries = lines.split('\n');
        set(path, lines === '' ? undefined : numbers ? entries.map((line) => (/^\s*-?\d+\s*$/.test(line) ? Number(line) : line)) : entries);
      }}></textarea>`;
  else if (kind === 'addresses')
    input = html`<${AddressListField} id=${id} name=${name} value=${value} invalid=${invalid} set=${(/** @type {unknown} */ v) => set(path, v)} />`;
  else if (kind === 'parameter-lines')
    input = html`<${ParameterLinesField} id=${id} name=${name} value=${value} invalid=${invalid} set=${(/** @type {unknown} */ v) => set(path, v)} />`;
  else if (kind === 'list')
    return html`<${ListField} name=${name} schema=${typed} value=${value} path=${path} issues=${issues} set=${set} base=${base} />`;
  else if (kind === 'group')
    return html`<fieldset class="group"><legend>${typed.title ?? name}</legend>
      ${typed.description && html`<p class="help">${prose(typed.description)}</p>`}
      <${Fields} schema=${typed} value=${value ?? {}} path=${path} issues=${issues} set=${set} base=${base} />
    </fieldset>`;
  else if (kind === 'map')
    return html`<${MapField} name=${name} schema=${typed} value=${value} path=${path} issues=${issues} set=${set} base=${base} />`;
  else if (kind === 'variant') {
    const branches = /** @type {Schema[]} */ (typed.anyOf);
    const chosen = branches.find((b) => b.properties[key ?? '']?.const === value?.[key ?? '']);
    return html`<div class="variant" data-field=${full.join('.')}>
      <div class=${`field${invalid ? ' invalid' : ''}`}>
        <label for=${id}>${name}: ${key}</label>
        <select id=${id} onChange=${(/** @type {Event} */ e) => {
          const at = /** @type {HTMLSelectElement} */ (e.currentTarget).selectedIndex - 1;
          set(path, at < 0 ? undefined : { [key ?? '']: branches[at]?.properties[key ?? ''].const });
        }}>
          <option selected=${!chosen}>(choose)</option>
          ${branches.map((b) => html`<option selected=${b === chosen}>${b.title ?? String(b.properties[key ?? ''].const)}</option>`)}
        </select>
        ${messages.map((message) => html`<p class="field-error" role="alert">${message}</p>`)}
      </div>
      ${chosen && html`<${Fields} schema=${chosen} value=${value} path=${path} issues=${issues} set=${set} base=${base} skip=${[key ?? '']} />`}
    </div>`;
  } else if (kind === 'colour')
    input = html`<span class="colour-field"><input id=${id} type="color" value=${String(value ?? fallback ?? '#000000')}
        onInput=${(/** @type {Event} */ e) => set(path, /** @type {HTMLInputElement} */ (e.currentTarget).value)} />
      <code>${value === undefined ? `${hint} (default)` : String(value)}</code>
      ${value !== undefined && html`<button type="button" onClick=${() => set(path, undefined)}>default</button>`}</span>`;
  else if (kind === 'json')
    input = html`<${JsonInput} id=${id} value=${value} invalid=${invalid} set=${(/** @type {unknown} */ v) => set(path, v)} />`;
  else {
    const secret = kind === 'text' && SECRET.test(name);
    input = html`<input id=${id} type="text" inputmode=${kind === 'number' ? 'decimal' : undefined} aria-invalid=${invalid}
      autocomplete=${secret ? 'off' : undefined} spellcheck=${false}
      value=${value === undefined ? '' : String(value)} placeholder=${secret ? '(not set)' : hint} onInput=${onText} />`;
  }
  const { minimum, maximum } = typed;
  const range =
    minimum !== undefined && maximum !== undefined
      ? ` (${minimum}–${maximum})`
      : minimum !== undefined
        ? ` (≥ ${minimum})`
        : maximum !== undefined
          ? ` (≤ ${maximum})`
          : '';
  return html`<div class=${`field${invalid ? ' invalid' : ''}`} data-field=${full.join('.')}>
    <label for=${id}>${typed.title ?? schema.title ?? name}${range}</label>
    ${input}
    ${typed.description || schema.description ? html`<p class="help">${prose(schema.description ?? typed.description)}</p>` : ''}
    ${messages.map((message) => html`<p class="field-error" role="alert">${message}</p>`)}
  </div>`;
}

/**
 * A value no field of its own fits (a map of names, a union): its JSON, checked as it is typed.
 * @param {{ id: string, value: unknown, invalid: boolean, set: (value: unknown) => void }} props
 */
function JsonInput({ id, value, invalid, set }) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value));
  const [wrong, setWrong] = useState(false);
  return html`<textarea id=${id} rows="2" spellcheck=${false} aria-invalid=${invalid || wrong} value=${text} placeholder="JSON"
    onInput=${(/** @type {Event} */ e) => {
      const typed = /** @type {HTMLTextAreaElement} */ (e.currentTarget).value;
      setText(typed);
      if (typed.trim() === '') {
        setWrong(false);
        return set(undefined);
      }
      try {
        set(JSON.parse(typed));
        setWrong(false);
      } catch {
        setWrong(true);
      }
    }}></textarea>${wrong ? html`<p class="field-error">not JSON yet: this field keeps its last good value</p>` : ''}`;
}

/** @typedef {{ name: string, schema: Schema, value: any, path: Path, issues: FieldIssue[], set: (path: Path, value: unknown) => void, base: Path }} FieldProps */

/** A nested list of objects (a tcp-client's `receive` rules): a sub-form an entry, added and removed. @param {FieldProps} props */
function ListField({ name, schema, value, path, issues, set, base }) {
  const entries = Array.isArray(value) ? value : [];
  return html`<fieldset class="group list" data-field=${[...base, ...path].join('.')}>
    <legend>${name}</legend>
    ${schema.description && html`<p class="help">${prose(schema.description)}</p>`}
    ${messagesAt(issues, [...base, ...path]).map((message) => html`<p class="field-error" role="alert">${message}</p>`)}
    ${entries.map(
      (entry, index) => html`<div class="entry">
        <div class="entry-head"><span>${name} ${index + 1}</span>
          <button type="button" onClick=${() => set(path, entries.length === 1 ? undefined : entries.filter((_, at) => at !== index))}>remove</button>
        </div>
        <${Fields} schema=${schema.items} value=${entry} path=${[...path, index]} issues=${issues} set=${set} base=${base} />
      </div>`,
    )}
    <button type="button" onClick=${() => set(path, [...entries, {}])}>add to ${name}</button>
  </fieldset>`;
}

/**
 * Entries by a name of the author's (a module's bindings, by parameter id): each its name and
 * a form, removed; a new one added by its name, or picked from the schema's `examples`.
 * @param {FieldProps} props
 */
function MapField({ name, schema, value, path, issues, set, base }) {
  const [adding, setAdding] = useState('');
  const entries = Object.entries(value && typeof value === 'object' ? value : {});
  // Entries the schema offers ready-made (a module's presets): each an object of one entry.
  /** @type {Record<string, unknown>[]} */
  const examples = (Array.isArray(schema.examples) ? schema.examples : []).filter(
    (example) => example && typeof example === 'object' && Object.keys(example).length === 1,
  );
  const add = () => {
    if (adding === '' || entries.some(([key]) => key === adding)) return;
    set(path, { ...(value ?? {}), [adding]: {} });
    setAdding('');
  };
  return html`<fieldset class="group map" data-field=${[...base, ...path].join('.')}>
    <legend>${name}</legend>
    ${schema.description && html`<p class="help">${prose(schema.description)}</p>`}
    ${messagesAt(issues, [...base, ...path]).map((message) => html`<p class="field-error" role="alert">${message}</p>`)}
    ${entries.map(
      ([key, entry]) => html`<div class="entry">
        <div class="entry-head"><code>${key}</code>
          <button type="button" onClick=${() => {
            const { [key]: _gone, ...rest } = value;
            set(path, Object.keys(rest).length === 0 ? undefined : rest);
          }}>remove</button>
        </div>
        <${Field} name=${key} schema=${mapEntryOf(schema)} value=${entry} path=${[...path, key]} issues=${issues} set=${set} base=${base} />
      </div>`,
    )}
    ${
      examples.length > 0 &&
      html`<div class="field inline">
      <select aria-label=${`add a preset to ${name}`} onChange=${(/** @type {Event} */ e) => {
        const picked = examples[Number(/** @type {HTMLSelectElement} */ (e.currentTarget).value)];
        /** @type {HTMLSelectElement} */ (e.currentTarget).value = '';
        if (picked) set(path, { ...(value ?? {}), ...picked });
      }}>
        <option value="">${`add a preset (${examples.length})…`}</option>
        ${examples.map((example, at) => {
          const key = Object.keys(example)[0] ?? '';
          return html`<option value=${at} disabled=${entries.some(([taken]) => taken === key)}>${key}</option>`;
        })}
      </select>
    </div>`
    }
    <div class="field inline">
      <input aria-label=${`new ${name} name`} placeholder="a name (the parameter's id)" value=${adding} spellcheck=${false}
        onInput=${(/** @type {Event} */ e) => setAdding(/** @type {HTMLInputElement} */ (e.currentTarget).value.trim())}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }} />
      <button type="button" disabled=${adding === ''} onClick=${add}>add to ${name}</button>
    </div>
  </fieldset>`;
}

/** A setting's default, on it or on its typed branch (a number that may also be a placeholder). @param {Schema | undefined} setting */
const defaultOf = (setting) => setting?.default ?? setting?.anyOf?.find((/** @type {Schema} */ branch) => 'default' in branch)?.default;

/**
 * The fields of an object's settings, in the schema's order; `skip` leaves some out (a connection's `type`), `only` keeps some.
 * @param {Omit<FieldProps, 'name'> & { skip?: string[], only?: string[] }} props
 */
function Fields({ schema, value, path, issues, set, base, skip = [], only }) {
  const required = new Set(schema.required ?? []);
  const properties = schema.properties ?? {};
  /** A setting that matters only with certain values beside it (`appliesWhen`) is shown then, or while it is written or has a mistake. */
  const applies = (/** @type {string} */ name, /** @type {Schema} */ setting) =>
    !setting.appliesWhen ||
    value?.[name] !== undefined ||
    issues.some((issue) => under(issue.path, [...base, ...path, name])) ||
    Object.entries(setting.appliesWhen).every(([other, values]) =>
      /** @type {unknown[]} */ (values).includes(value?.[other] ?? defaultOf(properties[other])),
    );
  return Object.entries(properties)
    .filter(([name, setting]) => !skip.includes(name) && (!only || only.includes(name)) && applies(name, setting))
    .map(
      ([name, setting]) =>
        html`<${Field} key=${name} name=${required.has(name) ? `${name} *` : name} schema=${setting} value=${value?.[name]}
          path=${[...path, name]} issues=${issues} set=${set} base=${base} />`,
    );
}

/**
 * The issues below `prefix` no field shows: listed at the top of the form.
 * @param {{ issues: FieldIssue[], prefix: Path, shown: (path: Path) => boolean }} props
 */
export function Unplaced({ issues, prefix, shown }) {
  const rest = issues.filter((issue) => under(issue.path, prefix) && !shown(issue.path));
  return rest.length === 0
    ? ''
    : html`<ul class="issues">${rest.map((issue) => html`<li><code>${issue.path.slice(prefix.length).join('.') || '(here)'}</code>: ${issue.message}</li>`)}</ul>`;
}

/**
 * A connection's form: its id and, for a new one, its type; then every setting of the type.
 * `apply` answers the hub's mistakes for this connection, or none when the edit was taken.
 * @param {{ id: string, value: Record<string, any>, types: Map<string, Schema>, own?: Map<string, Record<string, Schema>>, isNew: boolean, taken: string[],
 *   apply: (id: string, value: Record<string, any>) => Promise<FieldIssue[]>, cancel: () => void,
 *   addresses?: readonly import('../lib/core/api-shapes.ts').ParameterListing[] }} props
 */
export function ConnectionForm({ id, value, types, own, isNew, taken, apply, cancel, addresses = [] }) {
  const [name, setName] = useState(id);
  const [draft, setDraft] = useState(value);
  const [issues, setIssues] = useState(/** @type {FieldIssue[]} */ ([]));
  const [busy, setBusy] = useState(false);
  const typeSchema = types.get(draft.type);
  // What the hub knows of this connection alone (a module's config fields) over its type's settings.
  const ownSettings = isNew ? undefined : own?.get(id);
  const schema = typeSchema && ownSettings ? { ...typeSchema, properties: { ...typeSchema.properties, ...ownSettings } } : typeSchema;
  const base = ['connections', name];
  const set = (/** @type {Path} */ path, /** @type {unknown} */ next) => setDraft(setIn(draft, path, next));
  // An id not typed yet is not a mistake to show; the form waits for it.
  const nameWrong =
    name === ''
      ? ''
      : !/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)
        ? 'an id is 1–64 characters of a-z, 0-9 and -, starting with a letter or digit'
        : name !== id && taken.includes(name)
          ? `a connection "${name}" is there already`
          : '';
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (name === '' || nameWrong || !schema) return;
    setBusy(true);
    setIssues(
      await apply(name, inOrder(clean(draft), ['type', ...Object.keys(value), ...Object.keys(schema.properties ?? {})])).finally(() =>
        setBusy(false),
      ),
    );
  };
  const fieldPaths = new Set(Object.keys(schema?.properties ?? {}));
  // What every type has (where it runs, its logging…) is folded away; a description stays up front.
  const shared = sharedSettings(types).filter((key) => key !== 'description');
  return html`<form class="connection-form" data-testid="connection-form" onSubmit=${submit}>
    <${HubAddresses} addresses=${addresses} />
    <h3>${isNew ? 'new connection' : `connection ${id}`}</h3>
    <div class=${`field${nameWrong ? ' invalid' : ''}`}>
      <label for="connection-id">id *</label>
      <input id="connection-id" value=${name} spellcheck=${false} aria-invalid=${Boolean(nameWrong)}
        onInput=${(/** @type {Event} */ e) => setName(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
      <p class="help">Its parameters are addressed as ${`${name || '<id>'}/<parameter>`}.${!isNew && name !== id ? ' Renamed: rules and flows that name the old id do not follow.' : ''}</p>
      ${nameWrong && html`<p class="field-error" role="alert">${nameWrong}</p>`}
    </div>
    <div class="field">
      <label for="connection-type">type *</label>
      <select id="connection-type" disabled=${!isNew} onChange=${(/** @type {Event} */ e) => setDraft({ type: /** @type {HTMLSelectElement} */ (e.currentTarget).value })}>
        ${[...types.keys()].map((type) => html`<option selected=${type === draft.type}>${type}</option>`)}
      </select>
      ${schema?.description && html`<p class="help">${prose(schema.description)}</p>`}
    </div>
    <${Unplaced} issues=${issues} prefix=${base} shown=${(/** @type {Path} */ path) => path.length > 2 && fieldPaths.has(String(path[2]))} />
    ${
      schema
        ? html`<${Fields} schema=${schema} value=${draft} path=${[]} issues=${issues} set=${set} base=${base} skip=${['type', ...shared]} />
          <details class="shared-settings" open=${shared.some((key) => draft[key] !== undefined || issues.some((issue) => issue.path[2] === key))}>
            <summary>settings every connection has</summary>
            <${Fields} schema=${schema} value=${draft} path=${[]} issues=${issues} set=${set} base=${base} only=${shared} />
          </details>`
        : html`<p class="empty">this hub does not know the type ${draft.type}</p>`
    }
    <div class="form-actions">
      <button class="primary" type="submit" disabled=${busy || name === '' || Boolean(nameWrong)}>apply to the flow</button>
      <button type="button" onClick=${cancel}>cancel</button>
    </div>
  </form>`;
}

/**
 * `value` with its keys in `order` (the file's own first, then the schema's), the rest after:
 * a new setting is written where a reader expects it.
 * @param {Record<string, any>} value @param {string[]} order @returns {Record<string, any>}
 */
export function inOrder(value, order) {
  const keys = [...new Set([...order.filter((key) => key in value), ...Object.keys(value)])];
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
}

/** `value` without what a form leaves empty: blank lines of a list, empty entries. @returns {any} */
function clean(/** @type {any} */ value) {
  if (Array.isArray(value)) {
    const kept = value.map(clean).filter((entry) => entry !== '' && entry !== undefined);
    return kept;
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, clean(entry)]));
  return value;
}

/**
 * A rule's form: its source and destinations, with pickers of the hub's live addresses (a
 * new address is taken as typed), its pipe steps as a list, its description.
 * @param {{ path: Path, value: Record<string, any>, steps: Map<string, Schema>, addresses: Address[],
 *   apply: (value: Record<string, any>) => Promise<FieldIssue[]>, cancel: () => void }} props
 */
export function RuleForm({ path, value, steps, addresses, apply, cancel }) {
  const [draft, setDraft] = useState(/** @type {Record<string, any>} */ ({ destinations: [''], ...value }));
  const [issues, setIssues] = useState(/** @type {FieldIssue[]} */ ([]));
  const [busy, setBusy] = useState(false);
  const set = (/** @type {Path} */ at, /** @type {unknown} */ next) => setDraft(setIn(draft, at, next));
  const destinations = /** @type {string[]} */ (draft.destinations ?? []);
  const pipe = /** @type {Record<string, unknown>[]} */ (draft.pipe ?? []);
  const errorsAt = (/** @type {Path} */ at) =>
    messagesAt(issues, [...path, ...at]).map((message) => html`<p class="field-error" role="alert">${message}</p>`);
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setBusy(true);
    const rule = inOrder(clean(draft), ['folder', 'source', 'destinations', 'pipe', 'description', 'enabled', ...Object.keys(value)]);
    if (rule.pipe?.length === 0) delete rule.pipe;
    setIssues(await apply(rule).finally(() => setBusy(false)));
  };
  const shown = (/** @type {Path} */ at) =>
    at.length > path.length && ['source', 'destinations', 'pipe', 'description'].includes(String(at[path.length]));
  return html`<form class="rule-form" data-testid="rule-form" onSubmit=${submit}>
    <h3>${value.source ? 'rule' : 'new rule'}</h3>
    <datalist id="readable-addresses">${addresses.filter((a) => a.access !== 'write-only').map((a) => html`<option value=${a.p} />`)}</datalist>
    <datalist id="writable-addresses">${addresses.filter((a) => a.access !== 'read-only').map((a) => html`<option value=${a.p} />`)}</datalist>
    <${Unplaced} issues=${issues} prefix=${path} shown=${shown} />
    <div class="field">
      <label for="rule-source">source *</label>
      <input id="rule-source" list="readable-addresses" spellcheck=${false} value=${draft.source ?? ''} placeholder="connection/parameter"
        onInput=${(/** @type {Event} */ e) => set(['source'], /** @type {HTMLInputElement} */ (e.currentTarget).value)} />
      <p class="help">The parameter whose changes the rule forwards; one that does not exist yet is taken and starts working when it appears.</p>
      ${errorsAt(['source'])}
    </div>
    <fieldset class="group"><legend>destinations *</legend>
      ${destinations.map(
        (destination, index) => html`<div class="field inline">
          <input aria-label=${`destination ${index + 1}`} list="writable-addresses" spellcheck=${false} value=${destination} placeholder="connection/parameter"
            onInput=${(/** @type {Event} */ e) => set(['destinations', index], /** @type {HTMLInputElement} */ (e.currentTarget).value)} />
          <button type="button" disabled=${destinations.length === 1} onClick=${() =>
            set(
              ['destinations'],
              destinations.filter((_, at) => at !== index),
            )}>remove</button>
          ${errorsAt(['destinations', index])}
        </div>`,
      )}
      ${errorsAt(['destinations'])}
      <button type="button" onClick=${() => set(['destinations'], [...destinations, ''])}>add a destination</button>
    </fieldset>
    <fieldset class="group"><legend>pipe steps</legend>
      <p class="help">Applied in order before each write.</p>
      ${pipe.map((step, index) => {
        const [name = 'set', argument] = Object.entries(step)[0] ?? [];
        // A step whose argument has a form control of its own (a delay's milliseconds, an edge) takes it; the rest their JSON.
        const stepSchema = steps.get(name);
        const formed = stepSchema !== undefined && fieldKind(stepSchema).kind !== 'json';
        return html`<div class="field inline step">
          <select aria-label=${`step ${index + 1}`} onChange=${(/** @type {Event} */ e) => set(['pipe', index], { [/** @type {HTMLSelectElement} */ (e.currentTarget).value]: argument ?? null })}>
            ${[...steps.keys()].map((stepName) => html`<option selected=${stepName === name}>${stepName}</option>`)}
          </select>
          ${
            formed
              ? html`<${Field} name=${name} schema=${stepSchema} value=${argument} path=${['pipe', index, name]} issues=${issues}
                  set=${set} base=${path} />`
              : html`<${JsonInput} id=${`step-${index}`} value=${argument} invalid=${false} set=${(/** @type {unknown} */ v) => set(['pipe', index], { [name]: v })} />`
          }
          <button type="button" onClick=${() =>
            set(
              ['pipe'],
              pipe.filter((_, at) => at !== index),
            )}>remove</button>
          ${!formed && stepSchema?.description ? html`<p class="help">${prose(stepSchema.description)}</p>` : ''}
          ${errorsAt(['pipe', index])}
        </div>`;
      })}
      <button type="button" onClick=${() => set(['pipe'], [...pipe, { set: '' }])}>add a step</button>
    </fieldset>
    <div class="field">
      <label for="rule-description">description</label>
      <input id="rule-description" value=${draft.description ?? ''}
        onInput=${(/** @type {Event} */ e) => set(['description'], /** @type {HTMLInputElement} */ (e.currentTarget).value || undefined)} />
    </div>
    <div class="form-actions">
      <button class="primary" type="submit" disabled=${busy}>apply to the flow</button>
      <button type="button" onClick=${cancel}>cancel</button>
    </div>
  </form>`;
}
