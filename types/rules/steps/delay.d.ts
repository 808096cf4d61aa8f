/** `{ delay: ms }`: every value, `ms` later. */
export declare const delayStep: import("../signal.ts").PipeStep<number>;
