import { type Result } from './errors.ts';
/** A compiled user expression: tested unanchored, like `RegExp.prototype.test`. */
export interface Pattern {
    /** The expression as the user wrote it. */
    readonly source: string;
    test(text: string): boolean;
}
/** A compiled expression that also says what its named groups matched. */
export interface GroupPattern extends Pattern {
    /** Its named groups, in the order `groups` gives their text. */
    readonly names: readonly string[];
    /** The text of each named group in the first match in `text` ("" for one that took no part), or undefined when none. */
    groups(text: string): readonly string[] | undefined;
    /** The text of each named group in every match in `text`, in order, matches not overlapping (as `String.matchAll`). */
    everyGroups(text: string): (readonly string[])[];
}
/**
 * Bounds that keep the cost of one test small. Matching is linear in the text, but the
 * factor is the size of the compiled program: `[\s\S]{1000}` repeated thirty times tested
 * against 100 KiB took 20 s. Expressions people write for addresses and values compile to
 * a few dozen instructions.
 */
export declare const regexLimits: {
    /** Characters in an expression. */
    readonly maxLength: 512;
    /** Instructions of the compiled program. */
    readonly maxProgram: 1000;
};
/**
 * The one way a user's regular expression (`wsFilters`, `?filter=`, the `matches` step)
 * becomes something the hub runs (R-H9). The engine is RE2 (re2js), which runs in time
 * linear in the text: no expression can hold the event loop with backtracking. What RE2
 * cannot run (backreferences, lookaround) or what is beyond `regexLimits` fails with
 * PB_BAD_FILTER and the reason.
 */
export declare function compileRegex(source: string): Result<GroupPattern>;
