/** `{ not: true }`: boolean negation; values that are not booleans (R-C) are dropped. */
export declare const notStep: import("../signal.ts").PipeStep<true>;
