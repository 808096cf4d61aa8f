/** `{ throttle: ms }`: at most one value per `ms`; the last one of a burst always follows. */
export declare const throttleStep: import("../signal.ts").PipeStep<number>;
