import type { Issue } from '../core/issue.ts';
/** A flow document with its `${NAME}` placeholders filled in from the environment. */
export interface Substituted {
    readonly document: unknown;
    /** Unset variables without a default, and `${` that starts no placeholder. */
    readonly issues: readonly Issue[];
    /**
     * The JSON pointers of the strings that were exactly one placeholder (`'${PORT:-17011}'`):
     * where the schema wants a number or a boolean there, the text is converted.
     */
    readonly whole: ReadonlySet<string>;
}
/**
 * Fills in `${NAME}` and `${NAME:-default}` in every string value of a flow document (not
 * in keys), so one file serves several machines. The default applies when the variable is
 * unset or empty, as in a shell. `$${` is a literal `${`. An unset variable without a
 * default, or a `${` that is not a placeholder, is a mistake with its path.
 */
export declare function substituteEnvironment(document: unknown, env: Readonly<Record<string, string | undefined>>): Substituted;
/** The JSON pointer of a path, as Ajv names places (`/connections/api/port`). */
export declare function pointer(path: readonly (string | number)[]): string;
/**
 * The text of a whole-string placeholder as the number or boolean the schema wants there,
 * or undefined when it is not one (then the schema's own message stands).
 */
export declare function asWanted(text: string, wanted: readonly string[]): number | boolean | undefined;
/**
 * The flow-file schema as editors read it: wherever it wants a number or `true`/`false`, a
 * string that is one placeholder is accepted too, since the hub fills it in and converts it
 * before it validates (`'${PORT:-17011}'`). Without this, an editor marks the demo's port.
 */
export declare function acceptingPlaceholders(schema: unknown): unknown;
