import { type OperatorFunction } from 'rxjs';
import type { Issue } from '../core/issue.ts';
import type { TSchema } from '@sinclair/typebox';
import type { Scheduler } from '../core/scheduler.ts';
import type { Value } from '../core/value.ts';
/**
 * One change travelling down a rule: the value (or `null`, which fires a trigger
 * destination), the address it came from, and when it happened (scheduler time).
 */
export interface Signal {
    readonly value: Value | null;
    readonly source: string;
    readonly time: number;
}
export interface StepContext {
    readonly scheduler: Scheduler;
}
/** What a step does to each signal: a new signal, or `undefined` to drop it. */
export type SignalFunction = (signal: Signal) => Signal | undefined;
interface StepBase<A> {
    readonly name: string;
    readonly schema: TSchema;
    readonly summary: string;
    /** A mistake the schema cannot see, at its path within the argument (`['matches']`; `[]` for the whole). */
    check?(argument: A): Issue | undefined;
}
/**
 * A step that maps each signal to a new one or drops it, at once: `each` makes its
 * function, once per rule, so a step with memory (edge, toggle) keeps it per rule. Runs of
 * such steps are fused into one function and called directly, without a stream per step:
 * rules sit on the hot path.
 */
export interface SignalStep<A> extends StepBase<A> {
    each(argument: A, context: StepContext): SignalFunction;
    readonly operator?: never;
}
/** A step that waits (debounce, throttle, delay): the RxJS operator it becomes, on the hub scheduler. */
export interface TimedStep<A> extends StepBase<A> {
    operator(argument: A, context: StepContext): OperatorFunction<Signal, Signal>;
    readonly each?: never;
}
/**
 * One pipe step (R-R3): the schema of its argument (part of the flow-file schema), checks
 * the schema cannot express, and what it does to signals.
 */
export type PipeStep<A = never> = SignalStep<A> | TimedStep<A>;
export declare function defineStep<A>(step: PipeStep<A>): PipeStep<A>;
/** A JSON scalar as steps accept it: string, number or boolean. */
export type Scalar = string | number | boolean;
/** Signal functions applied in order; a drop ends the run. */
export declare function fuse(functions: readonly SignalFunction[]): SignalFunction;
/**
 * A signal function as an RxJS operator. `start` runs once per subscription and returns the
 * function, so steps with memory keep it per subscription.
 */
export declare function transform(start: () => SignalFunction): OperatorFunction<Signal, Signal>;
export {};
