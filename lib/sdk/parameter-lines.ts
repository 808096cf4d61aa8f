/**
 * Parameters declared one per line, `<parameter id>[,<type>[,<default value>]]` (R-D1), as
 * a dummy has them and a line protocol's device (R-N2): read once into the table the graph
 * defines parameters from. What each says of itself (R-PK6: a label, a unit, a range,
 * choices) is the `describe` setting beside them, by id (a range names several).
 */
import { Type } from '@sinclair/typebox';
import { checkParameterId } from '../core/address.ts';
import { inType, ParameterMeta } from '../core/parameter-meta.ts';
import type { ParameterRow, ParameterTable } from '../core/graph.ts';
import type { Checked, Issue } from '../core/issue.ts';
import { Access } from '../core/parameter.ts';
import { TextIndex } from '../core/text-index.ts';
import { convert, type Value, type ValueType, valueTypes } from '../core/value.ts';
import { reasonOf } from '../core/errors.ts';
import { checked, withDefault } from './settings.ts';
import { expandRanges, hasRange, MAX_RANGE_NAMES } from './ranges.ts';

/**
 * One parsed line, which is also the spec of its parameter: a connection of a million
 * parameters keeps one object for each, not two.
 */
export interface ParameterLine extends ParameterRow {
  readonly type: ValueType;
  readonly initial?: Value;
}

/** The parsed lines, and their ids indexed: the table the graph defines the parameters from. */
export interface ParameterLines extends ParameterTable {
  readonly rows: readonly ParameterLine[];
}

/**
 * Parses the `parameters` setting. Every bad line is reported with its line number (and,
 * for the array form, its index), so one pass shows every mistake. An id with a range
 * (`out/{0..39},I`) declares one parameter for each of its numbers, alike (see `ranges.ts`).
 */
export function parseParameterLines(parameters: string | readonly string[]): Checked<ParameterLines> {
  const texts = typeof parameters === 'string' ? parameters.split(/\r?\n/) : parameters;
  const lines: ParameterLine[] = [];
  /** What is wrong with a line, by its index. */
  const mistakes = new Map<number, string>();
  /** The ids of the lines with a valid one, and those lines' indices: repeats are looked for once, at the end. */
  const ids: string[] = [];
  const idLines: number[] = [];
  let rangeNamesLeft = MAX_RANGE_NAMES;
  /** Takes one parameter of line `index`; false when the line is wrong (its mistake noted). */
  const declare = (id: string, letter: string, defaultText: string | undefined, index: number): boolean => {
    const checkedId = checkParameterId(id);
    const line = checkedId.ok ? lineOf(id, letter, defaultText) : checkedId.error.message;
    if (checkedId.ok) {
      ids.push(id);
      idLines.push(index);
    }
    if (typeof line === 'string') mistakes.set(index, line);
    else lines.push(line);
    return typeof line !== 'string';
  };
  texts.forEach((text, index) => {
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const firstComma = trimmed.indexOf(',');
    const secondComma = firstComma < 0 ? -1 : trimmed.indexOf(',', firstComma + 1);
    const written = (firstComma < 0 ? trimmed : trimmed.slice(0, firstComma)).trim();
    const letter =
      (firstComma < 0 ? '' : trimmed.slice(firstComma + 1, secondComma < 0 ? undefined : secondComma)).trim().toUpperCase() || 'S';
    const defaultText = secondComma < 0 ? undefined : trimmed.slice(secondComma + 1).trim();
    if (!hasRange(written)) return void declare(written, letter, defaultText, index);
    const names = expandRanges(written, rangeNamesLeft);
    if (typeof names === 'string') return void mistakes.set(index, names);
    rangeNamesLeft -= names.length;
    for (const { text } of names) if (!declare(text, letter, defaultText, index)) return;
  });
  // A repeated id is that line's mistake, whatever else is wrong with it. The same index
  // finds the parameters once they are defined, when every line is valid.
  const index = new TextIndex(ids);
  for (const at of index.repeats()) mistakes.set(idLines[at] as number, `"${ids[at]}" is defined twice (first on an earlier line)`);
  const issues = [...mistakes]
    .sort(([a], [b]) => a - b)
    .map(
      ([index, message]): Issue => ({
        path: typeof parameters === 'string' ? ['parameters'] : ['parameters', index],
        message: `line ${index + 1}: ${message}`,
      }),
    );
  return checked(issues, { rows: lines, ids: index });
}

/** The parameter of a line with a valid id, or what is wrong with its type or default. */
function lineOf(id: string, letter: string, defaultText: string | undefined): ParameterLine | string {
  if (!(valueTypes as readonly string[]).includes(letter)) return `unknown type "${letter}": expected one of S, B, I, F, T`;
  const type = letter as ValueType;
  if (defaultText === undefined) return { id, type, access: Access.ReadWrite, persist: true };
  if (type === 'T') return `"${id}" is a trigger, which has no state and so no default value`;
  const initial = convert(defaultText, type);
  if (!initial.ok) return `default value of "${id}": ${initial.error.message}`;
  return { id, type, access: Access.ReadWrite, persist: true, initial: initial.value };
}

/**
 * The `parameters` setting of a type declared in lines: one string or a list of them, which
 * the console edits as a list of parameters, each with its id, a type picker and its default
 * (`form: 'parameter-lines'`), and as text where a line says more (a range, a comment).
 */
export function parameterLinesSetting(description: string) {
  return withDefault(Type.Union([Type.String(), Type.Array(Type.String())], { description, form: 'parameter-lines' }), '');
}

/** The `describe` setting: what each parameter of the lines says of itself, by id. */
export const describeSetting = Type.Optional(
  Type.Record(Type.String({ minLength: 1 }), ParameterMeta, {
    description:
      'What parameters say of themselves (R-PK6), by id: a label, a description, a unit, a range, choices with labels — the console shows pickers, units and sliders from it, and a write outside the range or the choices is refused. An id with a range (fader/{1..8}) describes each.',
  }),
);

/**
 * The lines with what `describe` says of each parameter it names; every id it names that the
 * lines do not declare, and every description that does not fit its parameter's type (a
 * choice of another type), is a mistake at its path.
 */
export function describeLines(
  lines: ParameterLines,
  describe: Readonly<Record<string, ParameterMeta>> | undefined,
): Checked<ParameterLines> {
  const named = Object.entries(describe ?? {});
  if (named.length === 0) return checked([], lines);
  const issues: Issue[] = [];
  const rows = [...lines.rows];
  for (const [written, meta] of named) {
    const expanded = hasRange(written) ? expandRanges(written, MAX_RANGE_NAMES) : [{ text: written }];
    if (typeof expanded === 'string') {
      issues.push({ path: ['describe', written], message: expanded });
      continue;
    }
    for (const { text: id } of expanded) {
      const at = lines.ids.indexOf(id);
      const row = rows[at];
      if (at < 0 || row === undefined) {
        issues.push({ path: ['describe', written], message: `there is no parameter "${id}" in parameters` });
        break;
      }
      try {
        const fitted = inType(meta, row.type, id);
        rows[at] = { ...row, ...(fitted && { meta: fitted }) };
      } catch (error) {
        // The path names the parameter already.
        issues.push({ path: ['describe', written], message: reasonOf(error).replace(`${id}: `, '') });
        break;
      }
    }
  }
  return checked(issues, { rows, ids: lines.ids });
}
