import { throttleTime } from 'rxjs';
import { defineStep } from '../signal.ts';
import { milliseconds } from './milliseconds.ts';

/** `{ throttle: ms }`: at most one value per `ms`; the last one of a burst always follows. */
export const throttleStep = defineStep<number>({
  name: 'throttle',
  summary: 'at most one value per ms: the first at once, the last of a burst at the end',
  schema: milliseconds,
  operator: (ms, { scheduler }) => throttleTime(ms, scheduler, { leading: true, trailing: true }),
});
