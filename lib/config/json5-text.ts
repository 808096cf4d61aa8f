/**
 * Values written as JSON5 the way people write flow files: keys bare when they may be,
 * strings in the file's own quote, short lists and objects on one line, longer ones a line
 * an entry (`flow-text.ts` puts them in a file as its neighbours are written).
 */

/** Lists and objects up to this long are written on one line inside a block. */
const SHORT = 80;

/** `value` as JSON5 over lines: `{`, a line a key at `indent` + `step`, `}` at `indent`; inside, short values on one line. */
export function blockText(value: unknown, indent: string, step: string, quote: string, whole = true): string {
  const compact = compactText(value, quote) ?? 'null';
  if (value === null || typeof value !== 'object' || (!whole && compact.length <= SHORT) || compact.length <= 2) return compact;
  const inner = indent + step;
  if (Array.isArray(value))
    return `[\n${value.map((entry) => `${inner}${blockText(entry, inner, step, quote, false)},\n`).join('')}${indent}]`;
  const lines = Object.entries(value).map(
    ([key, entry]) => `${inner}${keyText(key, quote)}: ${blockText(entry, inner, step, quote, false)},\n`,
  );
  return `{\n${lines.join('')}${indent}}`;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;
/** Keys the parser reads as values: written quoted. */
const LITERALS = new Set(['true', 'false', 'null', 'Infinity', 'NaN']);

/** `value` as JSON5 on one line, `{ key: 'value', list: [1, 2] }`, its strings in `quote`. */
export function compactText(value: unknown, quote: string): string | undefined {
  if (typeof value === 'string') return quoted(value, quote);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((entry) => compactText(entry, quote)).join(', ')}]`;
  if (typeof value === 'object' && value) {
    const entries = Object.entries(value).map(([key, entry]) => `${keyText(key, quote)}: ${compactText(entry, quote)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return undefined;
}

/** A key as JSON5 writes it: bare when it may be. */
const keyText = (key: string, quote: string) => (PLAIN_KEY.test(key) && !LITERALS.has(key) ? key : quoted(key, quote));

/** A JSON5 string literal of `value` in `quote`. */
export function quoted(value: string, quote: string): string {
  const escaped = JSON.stringify(value).slice(1, -1);
  return quote === "'" ? `'${escaped.replaceAll('\\"', '"').replaceAll("'", "\\'")}'` : `"${escaped}"`;
}
