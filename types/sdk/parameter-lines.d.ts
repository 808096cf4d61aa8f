import type { ParameterRow, ParameterTable } from '../core/graph.ts';
import type { Checked } from '../core/issue.ts';
import { type Value, type ValueType } from '../core/value.ts';
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
export declare function parseParameterLines(parameters: string | readonly string[]): Checked<ParameterLines>;
