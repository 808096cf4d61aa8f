import { type Result } from './errors.ts';
/** The five value types of R-P2, by their one-letter codes. */
export declare const ValueType: {
    readonly String: "S";
    readonly Boolean: "B";
    readonly Integer: "I";
    readonly Float: "F";
    readonly Trigger: "T";
};
export type ValueType = (typeof ValueType)[keyof typeof ValueType];
export declare const valueTypes: readonly ValueType[];
/**
 * Who may do what with a parameter, fixed by its connection type (R-P3). Here, beside the
 * value types, rather than with parameters: core/api-shapes.ts names it, and the console's
 * type check reads that file and its imports with no Node types.
 */
export declare const Access: {
    readonly ReadOnly: "read-only";
    readonly WriteOnly: "write-only";
    readonly ReadWrite: "read-write";
};
export type Access = (typeof Access)[keyof typeof Access];
export declare const typeNames: Readonly<Record<ValueType, string>>;
/**
 * A value as it travels between parameters. A trigger's fire travels as `true`, which
 * converts to every type exactly as the trigger column of the conversion table says.
 */
export type Value = string | boolean | number;
export declare const FIRE = true;
/**
 * The one conversion function of the hub (R-C): REST, WebSocket, rules and flows all call
 * it. Never throws; a rejected value comes back as a PB_CONVERSION failure. `null` fires a
 * trigger and is rejected by every state type; objects, arrays and `undefined` are
 * rejected by all types.
 */
export declare function convert(raw: unknown, type: ValueType): Result<Value>;
/** Data as JSON has it: what the hub stores across restarts. */
export type Json = string | number | boolean | null | readonly Json[] | {
    readonly [key: string]: Json;
};
/** The string form of a value, as sent on the wire (R-C3). */
export declare function toWire(value: Value): string;
