import type { SignalFunction } from '../signal.ts';
/** Applies `f` to values that are numbers (R-C to float); other values are dropped. */
export declare function numeric(f: (n: number) => number): SignalFunction;
