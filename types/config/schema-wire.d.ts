/**
 * A package type's settings schema carried from the thread that loaded its module to the
 * hub (R-PK1). TypeBox marks a schema with registered symbols (`Symbol.for('TypeBox.Kind')`,
 * `…Optional`, `…Hint`), which the structured clone drops like JSON does: without them the
 * hub could neither check settings nor build the flow file's schema, its forms and reference
 * pages. So each such key travels as a text key and is made a symbol again here. Functions
 * (a Transform's decode) do not travel: the hub never runs a package's code.
 */
/** A schema as it travels: plain data, its registered symbol keys as text. */
export declare function encodeSchema(schema: unknown): unknown;
/** A schema as the hub uses it, from what travelled; undefined when it is no object schema or exceeds the bounds. */
export declare function decodeSchema(wire: unknown): Record<string | symbol, unknown> | undefined;
