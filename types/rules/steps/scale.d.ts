type Range = [number, number, number, number];
/** `{ scale: [inMin, inMax, outMin, outMax] }`: linear mapping, clamped to the output range. */
export declare const scaleStep: import("../signal.ts").PipeStep<Range>;
export {};
