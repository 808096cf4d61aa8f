// How the console writes times, errors and refusals, and makes ids from names: the same on every view.
/** @import { Access, ParameterListing, RefusalMessage, Value, ValueType } from '../lib/core/api-shapes.ts' */
/** @import { CatalogueEntry } from '../lib/core/flow-shapes.ts' */

/** @param {number} n @param {number} [width] */
const padded = (n, width = 2) => String(n).padStart(width, '0');
/**
 * A time of day on the 24-hour clock, as the hub's log writes it (`14:03:07.120`), in the
 * browser's time zone: whatever the browser's locale, the console and the log read alike.
 * @param {Date} d @param {boolean} [millis]
 */
export const clock = (d, millis = false) =>
  `${padded(d.getHours())}:${padded(d.getMinutes())}:${padded(d.getSeconds())}${millis ? `.${padded(d.getMilliseconds(), 3)}` : ''}`;
/** A date and time on the 24-hour clock: `2026-11-24 14:03:07`. @param {Date} d */
export const dateAndClock = (d) => `${d.getFullYear()}-${padded(d.getMonth() + 1)}-${padded(d.getDate())} ${clock(d)}`;

/** @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/** A refusal's reason naming its address once: the hub's reasons mostly name it already. */
export const refusalText = (/** @type {RefusalMessage} */ item) =>
  `${item.p === null || item.error.includes(item.p) ? item.error : `${item.p}: ${item.error}`} (${item.code})`;

/** `connections.api.port`, `rules[0].destinations[2]`: a path in the flow file as the hub's messages write it. */
export const pathText = (/** @type {readonly (string | number)[]} */ path) =>
  path.length === 0 ? 'the file' : path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');

/**
 * An id from a name, as the flow's ids are written (`Blackmagic Videohub` → `blackmagic-videohub`);
 * `fallback` for a name with nothing to keep.
 * @param {string} name @param {string} fallback
 */
export const idOf = (name, fallback) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || fallback;

/** `id`, numbered (`-2`, `-3` …) when `taken` has it already. @param {string} id @param {readonly string[]} taken */
export function freeId(id, taken) {
  let free = id;
  for (let n = 2; taken.includes(free); n++) free = `${id}-${n}`;
  return free;
}

/** A value typed in a form as the flow holds it: a number, true or false, or the text. @param {string} text */
export const typedValue = (text) =>
  /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text === 'true' ? true : text === 'false' ? false : text;

/**
 * How a value reads for a person: a choice's label, a number with its unit.
 * @param {Value} v @param {ParameterListing['meta']} meta
 */
export function shownValue(v, meta) {
  const choice = meta?.choices?.find((c) => c.value === v || String(c.value) === String(v));
  if (choice) return choice.label;
  return meta?.unit ? `${v} ${meta.unit}` : String(v);
}

/**
 * What a parameter that holds no value shows: a trigger or a write-only parameter never holds
 * one (a dash, as a trigger not fired); any other is not known yet.
 * @param {ValueType} type @param {Access} access
 */
export const noValue = (type, access) => (type === 'T' || access === 'write-only' ? '—' : 'unknown');

/**
 * What the text box of a command with arguments (R-PK8) shows before anything is typed: the JSON
 * object they make, `"name"?` for those it may leave out. Undefined for any other parameter.
 * @param {ParameterListing['meta']} meta
 */
export function commandHint(meta) {
  const args = meta?.arguments;
  if (!args) return undefined;
  const names = Object.entries(args).map(([name, arg]) => `${JSON.stringify(name)}${arg.optional ? '?' : ''}: …`);
  return `{${names.join(', ')}}`;
}

/**
 * The id a connection added from the catalogue is offered, free among `taken`: a package's type
 * (`videohub`, so its parameters are `videohub/output/0/input`, not `patchbay-videohub/…`), else
 * the entry's name (a module's, a built-in type's).
 * @param {CatalogueEntry} entry @param {readonly string[]} taken
 */
export const catalogueId = (entry, taken) => freeId(idOf(entry.kind === 'package' ? entry.connection.type : entry.name, 'device'), taken);
