/** Rounds half away from zero at `decimals`, exact for decimal inputs such as 1.005. */
export declare function roundTo(n: number, decimals: number): number;
/** `{ round: <decimals> }`: rounds a number. */
export declare const roundStep: import("../signal.ts").PipeStep<number>;
