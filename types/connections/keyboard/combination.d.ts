import { type Result } from '../../sdk/index.ts';
/** Modifiers in the order a normalised combination lists them. */
export declare const modifiers: readonly ["ctrl", "shift", "alt", "meta"];
export type Modifier = (typeof modifiers)[number];
/** The uiohook key name of every key a combination may end with, by canonical name. */
export declare const hookKeyNames: ReadonlyMap<string, string>;
/** A key combination in its one normal form: `ctrl-shift-a`. */
export interface Combination {
    readonly modifiers: readonly Modifier[];
    readonly key: string;
    /** The normal form, used in parameter ids. */
    readonly name: string;
    readonly hookKey: string;
    readonly nutKey: string;
    readonly nutModifiers: readonly string[];
}
/**
 * Parses `Shift-Ctrl-A`, `ctrl-shift-a`… into one normal form (R-K1): names are
 * case-insensitive, modifiers may come in any order, and exactly one key ends it.
 */
export declare function parseCombination(text: string): Result<Combination>;
