import type { TSchema } from '@sinclair/typebox';
/** Settings cut down to what matches their schema, and how to find a place of it in the original. */
export interface Pruned {
    readonly settings: Record<string, unknown>;
    /** The path in the original settings of a path in the pruned ones (list entries may have moved up). */
    readonly original: (path: readonly (string | number)[]) => (string | number)[];
    /**
     * Takes out, in place, the part a mistake at `path` (of the pruned settings) is in: the
     * object in a list that holds it, or else the setting. False when nothing was left to take.
     */
    readonly drop: (path: readonly (string | number)[]) => boolean;
    /** True while nothing has been taken out: the settings are the original ones. */
    readonly whole: () => boolean;
}
/**
 * Takes the faulty parts out of a connection's settings (a copy), so that what is right in
 * them can still be parsed and checked in the same pass as the schema mistakes. A faulty
 * setting goes; a faulty object in a list goes on its own (the others keep their places
 * for messages); a missing required key takes its object with it. Undefined when nothing
 * checkable is left (the settings themselves are not an object, or miss a required key).
 * The mistakes themselves are reported by the schema, not here.
 */
export declare function pruneToSchema(schema: TSchema, settings: Record<string, unknown>): Pruned | undefined;
