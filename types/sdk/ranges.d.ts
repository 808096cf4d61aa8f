/**
 * Ranges in a declaration: `out/{0..39}` stands for out/0 … out/39, so a device of forty
 * outputs is one line, not forty (R-D1, R-N2). A range is `{<first>..<last>}` in digits,
 * counting up; as in a shell, a bound written with a leading zero (`{00..39}`) pads every
 * number to the wider bound's width (00 … 39). Several ranges in one text make every
 * combination, the last range counting fastest. Braces are no part of an id, so a text
 * without them is taken as it is.
 */
/**
 * The most names the ranges of one connection make (R-G4's `maxParameters` default): a
 * range of a million is a mistake in the flow file, not a million parameters.
 */
export declare const MAX_RANGE_NAMES = 100000;
/** One name a text's ranges make, and the number each range put in it (`$1`, `$2` in a frame). */
export interface RangeName {
    readonly text: string;
    readonly numbers: readonly string[];
}
/** True when `text` holds a brace, and so a range or a mistake in writing one. */
export declare function hasRange(text: string): boolean;
/**
 * The names `text` stands for, at most `limit` of them (a text without ranges is its own one
 * name), or what is wrong with its ranges. Counts before making any, so no range costs
 * memory to refuse.
 */
export declare function expandRanges(text: string, limit: number): readonly RangeName[] | string;
/**
 * Puts a name's range numbers into a frame: `$1` is the first range's number, `$2` the
 * second's. `$$` stays as it is, for the frame's own reading (a dollar sign), and so does a
 * reference to a range the name does not have (see `unknownRangeReference`).
 */
export declare function fillRangeNumbers(frame: string, numbers: readonly string[]): string;
/** The first `$<n>` in `frame` past the `count` ranges of its parameter (`$0` included), if any. */
export declare function unknownRangeReference(frame: string, count: number): string | undefined;
