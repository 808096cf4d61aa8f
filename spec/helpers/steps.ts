import type { ExecutionContext } from 'ava';
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { Value } from '../../lib/core/value.ts';
import { type Signal, stepOperator } from '../../lib/rules/signal.ts';
import { pipeSteps } from '../../lib/rules/steps/index.ts';

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
    expectObservable(signals.pipe(operator, map((signal) => signal.value))).toBe(expected, values);
  });
}
