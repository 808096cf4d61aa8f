import type { Combination } from './combination.ts';
/**
 * Presses and releases a combination as if typed (R-K3), one at a time in the order
 * asked, so two fires never interleave their keys. Call only after `probeDisplay()`
 * passed: loading nut-js without a display crashes the process.
 */
export declare function tap(combination: Combination): Promise<void>;
