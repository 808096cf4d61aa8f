import type { ExecutionContext } from 'ava';
import { map, type OperatorFunction } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { Value } from '../../lib/core/value.ts';
import { type PipeStep, type Signal, type StepContext, transform } from '../../lib/rules/signal.ts';
import { pipeSteps } from '../../lib/rules/steps/index.ts';

/** Any step as an RxJS operator, as the engine runs it. */
function stepOperator<A>(step: PipeStep<A>, argument: A, context: StepContext): OperatorFunction<Signal, Signal> {
  return step.each ? transform(() => step.each(argument, context)) : step.operator(argument, context);
}

/**
 * Runs one step over values given as a marble diagram and checks the values it sends,
 * in virtual time. `values` names what the letters stand for.
 */
export function expectStep(
  t: ExecutionContext,
  step: string,
  argument: unknown,
  input: string,
  expected: string,
  values: Record<string, Value | null>,
): void {
  const scheduler = new TestScheduler((actual, wanted) => t.deepEqual(actual, wanted));
  scheduler.run(({ cold, expectObservable }) => {
    const signals = cold(input, values).pipe(map((value): Signal => ({ value, source: 'studio/x', time: scheduler.now() })));
    const operator = stepOperator(pipeSteps[step]!, argument as never, { scheduler });
    expectObservable(
      signals.pipe(
        operator,
        map((signal) => signal.value),
      ),
    ).toBe(expected, values);
  });
}
