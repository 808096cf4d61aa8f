/**
 * `{ edge: "rising" | "falling" }`: passes only false→true (or true→false) transitions of
 * the value as a boolean. The state before the first value is unknown, so a first true is
 * a rising edge and a first false a falling one. Non-booleans are ignored.
 */
export declare const edgeStep: import("../signal.ts").PipeStep<"rising" | "falling">;
