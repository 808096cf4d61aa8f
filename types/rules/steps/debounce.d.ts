/** `{ debounce: ms }`: passes a value once no other came for `ms`. */
export declare const debounceStep: import("../signal.ts").PipeStep<number>;
