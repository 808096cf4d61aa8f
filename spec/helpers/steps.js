import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { pipeSteps } from "../../lib/rules/steps/index.js";
/**
 * Runs one step over values given as a marble diagram and checks the values it sends,
 * in virtual time. `values` names what the letters stand for.
 */
export function expectStep(t, step, argument, input, expected, values) {
    const scheduler = new TestScheduler((actual, wanted) => t.deepEqual(actual, wanted));
    scheduler.run(({ cold, expectObservable }) => {
        const signals = cold(input, values).pipe(map((value) => ({ value, source: 'studio/x', time: scheduler.now() })));
        const operator = pipeSteps[step].operator(argument, { scheduler });
        expectObservable(signals.pipe(operator, map((signal) => signal.value))).toBe(expected, values);
    });
}
