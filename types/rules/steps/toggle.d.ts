/** `{ toggle: true }`: each value that arrives flips a stored boolean (starting false), which is sent. */
export declare const toggleStep: import("../signal.ts").PipeStep<true>;
