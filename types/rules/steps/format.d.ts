/** `{ format: "text with $VALUE" }`: a text template with $VALUE, $SOURCE and $TIMESTAMP. */
export declare const formatStep: import("../signal.ts").PipeStep<string>;
