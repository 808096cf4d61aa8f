import { Type } from '@sinclair/typebox';
import { debounceTime, delay, throttleTime } from 'rxjs';
import { defineStep } from '../signal.ts';

const milliseconds = Type.Integer({ minimum: 0, description: 'milliseconds' });

/** `{ debounce: ms }`: passes a value once no other came for `ms`. */
export const debounceStep = defineStep<number>({
  name: 'debounce',
  summary: 'passes a value once no newer one came for ms',
  schema: milliseconds,
  operator: (ms, { scheduler }) => debounceTime(ms, scheduler),
});

/** `{ throttle: ms }`: at most one value per `ms`; the last one of a burst always follows. */
export const throttleStep = defineStep<number>({
  name: 'throttle',
  summary: 'at most one value per ms: the first at once, the last of a burst at the end',
  schema: milliseconds,
  operator: (ms, { scheduler }) => throttleTime(ms, scheduler, { leading: true, trailing: true }),
});

/** `{ delay: ms }`: every value, `ms` later. */
export const delayStep = defineStep<number>({
  name: 'delay',
  summary: 'every value, ms later',
  schema: milliseconds,
  operator: (ms, { scheduler }) => delay(ms, scheduler),
});
