import { Observable, type OperatorFunction } from 'rxjs';
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

/**
 * One pipe step (R-R3): the schema of its argument (part of the flow-file schema), checks
 * the schema cannot express, and the RxJS operator it becomes.
 */
export interface PipeStep<A = never> {
  readonly name: string;
  readonly schema: TSchema;
  readonly summary: string;
  check?(argument: A): string | undefined;
  operator(argument: A, context: StepContext): OperatorFunction<Signal, Signal>;
}

export function defineStep<A>(step: PipeStep<A>): PipeStep<A> {
  return step;
}

/** A JSON scalar as steps accept it: string, number or boolean. */
export type Scalar = string | number | boolean;

/**
 * A step that maps each signal to a new one or drops it (`undefined`), in one operator
 * rather than a chain of map and filter: rules sit on the hot path. `start` runs once per
 * subscription and returns the per-signal function, so steps with memory (edge) keep it
 * per rule.
 */
export function transform(start: () => (signal: Signal) => Signal | undefined): OperatorFunction<Signal, Signal> {
  return (source) =>
    new Observable<Signal>((subscriber) => {
      const step = start();
      return source.subscribe({
        next(signal) {
          const out = step(signal);
          if (out !== undefined) subscriber.next(out);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}
