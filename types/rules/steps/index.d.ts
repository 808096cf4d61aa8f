import type { PipeStep } from '../signal.ts';
/** Every pipe step of R-R3, by the key that names it in a flow file. */
export declare const pipeSteps: Readonly<Record<string, PipeStep<never>>>;
