import type { OperatorFunction } from 'rxjs';
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
