/**
 * Text with `$name` in it, as the line protocol's `set` entries and send frames are written:
 * read once into its literal parts and names, and filled in for each frame.
 */
/** Text with `$name` in it, read once: the literal parts, and the names between them. */
export interface Template {
    readonly parts: readonly string[];
    readonly names: readonly string[];
}
export declare function templateOf(text: string): Template;
export declare function fill(template: Template, value: (name: string) => string): string;
/** A `set` entry's id or value: fixed text, or text with groups (by their place in `GroupPattern.names`). */
export type Filled = string | {
    readonly parts: readonly string[];
    readonly groups: readonly number[];
};
export declare function filledOf(template: Template, names: readonly string[]): Filled;
export declare function fillGroups(filled: Filled, groups: readonly string[]): string;
