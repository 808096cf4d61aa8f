// What a trigger of the console's form is in the flow (R-ST5, R-RS3), without the form: the
// edits that make or change one — a schedule entry for a time, a rule from what fires to what
// is written (a condition that also says what to write otherwise is one rule that holds it,
// `{ from, to, expr }`) — and a rule of the form's making read back (`triggerAt`, also from
// the pair of rules earlier versions wrote). Plain functions over the flow's document: a spec
// imports them as it imports the hub's code, and checks the expressions they write with the
// hub's own parser.
import { freeId, idOf, typedValue } from './format.js';
/** @import { FlowEdit } from '../lib/core/flow-shapes.ts' */

export const DAYS = /** @type {const} */ ([
  ['*', 'every day'],
  ['MON-FRI', 'on weekdays'],
  ['SAT,SUN', 'at weekends'],
]);
/** Each comparison's opposite, for what a condition writes otherwise. */
const OPPOSITE = /** @type {Record<string, string>} */ ({ eq: 'ne', ne: 'eq', gt: 'lte', gte: 'lt', lt: 'gte', lte: 'gt' });
export const COMPARE = /** @type {const} */ ([
  ['eq', 'is'],
  ['ne', 'is not'],
  ['gt', 'is over'],
  ['gte', 'is at least'],
  ['lt', 'is under'],
  ['lte', 'is at most'],
]);

/** @typedef {{ name: string, when: string, time: string, days: string, date: string, source: string, compare: string, than: string, destination: string, value: string, otherwise: string }} Trigger */
/** @typedef {(string | number)[]} Path */
/** Where a trigger's parts stand in the flow: its rule, the rule of what it writes otherwise, its schedule entry. @typedef {{ rule: Path, otherwise?: Path, entry?: Path }} TriggerPlace */

/** A schedule entry for a time trigger, with its id. @param {Trigger} trigger @param {string} id */
function entryOf(trigger, id) {
  const [hour = '0', minute = '0'] = trigger.time.split(':');
  return {
    id,
    ...(trigger.when === 'daily'
      ? { cron: `0 ${Number(minute)} ${Number(hour)} * * ${trigger.days}` }
      : { at: `${trigger.date}:00`.slice(0, 19) }),
  };
}

/** Each comparison as an expression says it. */
const OPERATOR = /** @type {Record<string, string>} */ ({ eq: '==', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' });
/** A value of the form as an expression's literal. @param {string} text */
const literal = (text) => {
  const value = typedValue(text);
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
};
/** The literal of an expression the form wrote: a number, true, false or a "text". */
const LITERAL = String.raw`(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|"(?:[^"\\]|\\.)*")`;
const HELD = new RegExp(`^value (==|!=|>=|<=|>|<) ${LITERAL} \\? ${LITERAL} : ${LITERAL}$`);

/** The trigger's rule from `source`, and the rule of what it writes otherwise when it says one. @param {Trigger} trigger @param {string} source */
function rulesOf(trigger, source) {
  // A condition with a value either way is state: one rule that holds it.
  if (trigger.when === 'condition' && trigger.otherwise !== '' && trigger.value !== '') {
    const expr = `value ${OPERATOR[trigger.compare] ?? '=='} ${literal(trigger.than)} ? ${literal(trigger.value)} : ${literal(trigger.otherwise)}`;
    return { rule: { from: source, to: trigger.destination, expr, description: trigger.name }, otherwise: undefined };
  }
  /** @param {string} compare @param {string} value */
  const pipe = (compare, value) => [
    ...(trigger.when === 'condition' ? [{ filter: { [compare]: typedValue(trigger.than) } }] : []),
    // Nothing to write: the destination is fired (a trigger, a scene's recall).
    { set: value === '' ? null : typedValue(value) },
  ];
  const rule = { source, destinations: [trigger.destination], pipe: pipe(trigger.compare, trigger.value), description: trigger.name };
  const otherwise =
    trigger.when === 'condition' && trigger.otherwise !== ''
      ? { ...rule, pipe: pipe(OPPOSITE[trigger.compare] ?? 'ne', trigger.otherwise), description: `${trigger.name}, otherwise` }
      : undefined;
  return { rule, otherwise };
}

/**
 * A new time trigger's schedule entry: in the flow's first `schedule` connection, or a new one.
 * @param {Trigger} trigger @param {{ connections?: Record<string, Record<string, any>> }} document
 * @returns {{ edits: FlowEdit[], source: string }} the edits and the entry's fire
 */
function newEntry(trigger, document) {
  /** @type {FlowEdit[]} */
  const edits = [];
  const connections = document.connections ?? {};
  const existing = Object.entries(connections).find(([, settings]) => settings.type === 'schedule')?.[0];
  const schedule = existing ?? freeId('schedule', Object.keys(connections));
  // A second trigger of the same name gets an entry of its own (`morning-show-2`).
  const entries = connections[schedule]?.entries;
  const taken = Array.isArray(entries) ? entries.map((/** @type {any} */ e) => String(e?.id)) : [];
  const entry = entryOf(trigger, freeId(idOf(trigger.name, 'trigger'), taken));
  if (document.connections === undefined) edits.push({ op: 'set', path: ['connections'], value: {} });
  if (!existing) edits.push({ op: 'set', path: ['connections', schedule], value: { type: 'schedule', entries: [entry] } });
  else if (Array.isArray(connections[schedule]?.entries))
    edits.push({ op: 'add', path: ['connections', schedule, 'entries'], value: entry });
  else edits.push({ op: 'set', path: ['connections', schedule, 'entries'], value: [entry] });
  return { edits, source: `${schedule}/${entry.id}/fire` };
}

const isTime = (/** @type {Trigger} */ trigger) => trigger.when === 'daily' || trigger.when === 'once';

/**
 * The edits that make a trigger: a schedule entry when it is a time, and its rule.
 * @param {Trigger} trigger
 * @param {{ connections?: Record<string, Record<string, any>>, rules?: unknown[] }} document
 * @returns {FlowEdit[]}
 */
export function triggerEdits(trigger, document) {
  const time = isTime(trigger) ? newEntry(trigger, document) : { edits: [], source: trigger.source };
  /** @type {FlowEdit[]} */
  const edits = [...time.edits];
  if (document.rules === undefined) edits.push({ op: 'set', path: ['rules'], value: [] });
  const { rule, otherwise } = rulesOf(trigger, time.source);
  edits.push({ op: 'add', path: ['rules'], value: rule });
  if (otherwise) edits.push({ op: 'add', path: ['rules'], value: otherwise });
  return edits;
}

/**
 * The edits that change a trigger where it stands: its rule set in its place (in its folder,
 * among the others), its schedule entry kept under its id (the rule's source stays), and the
 * rule of what it writes otherwise set, added or removed as the form now says.
 * @param {Trigger} trigger @param {TriggerPlace} place
 * @param {{ connections?: Record<string, Record<string, any>>, rules?: unknown[] }} document
 * @returns {FlowEdit[]}
 */
export function changedTriggerEdits(trigger, place, document) {
  /** @type {FlowEdit[]} */
  const edits = [];
  let source = trigger.source;
  const entry = place.entry;
  if (isTime(trigger) && entry) {
    const id = String(/** @type {any} */ (nodeAt(document, entry))?.id);
    edits.push({ op: 'set', path: entry, value: entryOf(trigger, id) });
    source = `${entry[1]}/${id}/fire`;
  } else if (isTime(trigger)) {
    const time = newEntry(trigger, document);
    edits.push(...time.edits);
    source = time.source;
  } else if (entry) edits.push({ op: 'remove', path: entry });
  const { rule, otherwise } = rulesOf(trigger, source);
  /** What the form does not say of a rule (`enabled: false`) stays as it was. @param {Path} path @param {object} value */
  const kept = (path, value) => {
    const was = /** @type {Record<string, unknown>} */ (nodeAt(document, path) ?? {});
    return { ...value, ...Object.fromEntries(Object.entries(was).filter(([key]) => !(key in rule))) };
  };
  edits.push({ op: 'set', path: place.rule, value: kept(place.rule, rule) });
  if (place.otherwise && otherwise) edits.push({ op: 'set', path: place.otherwise, value: kept(place.otherwise, otherwise) });
  else if (place.otherwise) edits.push({ op: 'remove', path: place.otherwise });
  else if (otherwise) edits.push({ op: 'add', path: place.rule.slice(0, -1), value: otherwise });
  return edits;
}

/** A value of the flow as the form shows it: empty for nothing (a fire). @param {unknown} value */
const textOf = (value) => (value === null || value === undefined ? '' : String(value));
const twoDigits = (/** @type {string} */ n) => n.padStart(2, '0');

/**
 * The trigger the rule at `path` is, read back as the form made it, and where its parts stand;
 * undefined for a rule the form does not make (it opens in the rule form). A rule is one when
 * it has a name, one destination, and a `set` step after at most one `filter` of one
 * comparison; from a schedule entry's fire of the form's cron or date, it is a time.
 * @param {unknown} document @param {Path} path
 * @returns {{ trigger: Trigger, place: TriggerPlace } | undefined}
 */
export function triggerAt(document, path) {
  const list = /** @type {any[] | undefined} */ (nodeAt(document, path.slice(0, -1)));
  const index = /** @type {number} */ (path.at(-1));
  const rule = list?.[index];
  if (typeof rule?.description !== 'string' || rule.description === '') return undefined;
  if (rule.from !== undefined) return heldTriggerAt(rule, path);
  // What a condition writes otherwise is edited with it.
  if (rule.description.endsWith(', otherwise')) {
    const before = index > 0 ? triggerAt(document, [...path.slice(0, -1), index - 1]) : undefined;
    return before?.place.otherwise ? before : undefined;
  }
  if (typeof rule.source !== 'string' || !Array.isArray(rule.destinations) || rule.destinations.length !== 1) return undefined;
  const pipe = Array.isArray(rule.pipe) ? rule.pipe : [];
  const last = pipe.at(-1);
  if (pipe.length < 1 || pipe.length > 2 || typeof last !== 'object' || last === null || Object.keys(last).join() !== 'set')
    return undefined;
  const filter = pipe.length === 2 ? pipe[0]?.filter : undefined;
  const compare = typeof filter === 'object' && filter !== null ? Object.keys(filter) : [];
  if (pipe.length === 2 && (Object.keys(pipe[0] ?? {}).join() !== 'filter' || compare.length !== 1 || !(String(compare[0]) in OPPOSITE)))
    return undefined;
  /** @type {Trigger} */
  const trigger = {
    name: rule.description,
    when: filter ? 'condition' : 'change',
    time: '06:00',
    days: '*',
    date: '',
    source: rule.source,
    compare: compare[0] ?? 'eq',
    than: filter ? textOf(filter[/** @type {string} */ (compare[0])]) : '',
    destination: String(rule.destinations[0]),
    value: textOf(last.set),
    otherwise: '',
  };
  /** @type {TriggerPlace} */
  const place = { rule: path };
  const fire = filter ? null : /^([^/]+)\/(.+)\/fire$/.exec(rule.source);
  const schedule = fire ? /** @type {any} */ (document)?.connections?.[/** @type {string} */ (fire[1])] : undefined;
  const at =
    schedule?.type === 'schedule' && Array.isArray(schedule.entries)
      ? schedule.entries.findIndex((/** @type {any} */ e) => e?.id === fire?.[2])
      : -1;
  const entry = at >= 0 ? schedule.entries[at] : undefined;
  const cron = typeof entry?.cron === 'string' ? /^0 (\d{1,2}) (\d{1,2}) \* \* (\S+)$/.exec(entry.cron) : null;
  if (cron && DAYS.some(([days]) => days === cron[3])) {
    Object.assign(trigger, {
      when: 'daily',
      source: '',
      time: `${twoDigits(String(cron[2]))}:${twoDigits(String(cron[1]))}`,
      days: cron[3],
    });
    place.entry = ['connections', /** @type {string} */ (fire?.[1]), 'entries', at];
  } else if (entry && entry.cron === undefined && typeof entry.at === 'string') {
    Object.assign(trigger, { when: 'once', source: '', date: entry.at.slice(0, 16) });
    place.entry = ['connections', /** @type {string} */ (fire?.[1]), 'entries', at];
  }
  const next = list?.[index + 1];
  if (
    filter &&
    next?.description === `${trigger.name}, otherwise` &&
    next.source === rule.source &&
    next.destinations?.[0] === trigger.destination &&
    next.pipe?.length === 2 &&
    Object.keys(next.pipe[0]?.filter ?? {}).join() === OPPOSITE[trigger.compare]
  ) {
    trigger.otherwise = textOf(next.pipe[1]?.set);
    place.otherwise = [...path.slice(0, -1), index + 1];
  }
  return { trigger, place };
}

/** The node of the document at `path`. @param {unknown} document @param {Path} path @returns {unknown} */
export function nodeAt(document, path) {
  let node = /** @type {any} */ (document);
  for (const step of path) node = node?.[step];
  return node;
}

/**
 * A condition the form wrote as a rule that holds state, read back; undefined for any other
 * rule with `from`. @param {Record<string, any>} rule @param {Path} path
 * @returns {{ trigger: Trigger, place: TriggerPlace } | undefined}
 */
function heldTriggerAt(rule, path) {
  const found = typeof rule.from === 'string' && typeof rule.to === 'string' && typeof rule.expr === 'string' ? HELD.exec(rule.expr) : null;
  const compare = Object.entries(OPERATOR).find(([, operator]) => operator === found?.[1])?.[0];
  if (!found || !compare || rule.on === 'change' || rule.combine !== undefined) return undefined;
  const text = (/** @type {string | undefined} */ written) => textOf(JSON.parse(written ?? 'null'));
  return {
    trigger: {
      name: rule.description,
      when: 'condition',
      time: '06:00',
      days: '*',
      date: '',
      source: rule.from,
      compare,
      than: text(found[2]),
      destination: rule.to,
      value: text(found[3]),
      otherwise: text(found[4]),
    },
    place: { rule: path },
  };
}
