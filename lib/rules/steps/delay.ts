import { delay } from 'rxjs';
import { defineStep } from '../signal.ts';
import { milliseconds } from './milliseconds.ts';

/** `{ delay: ms }`: every value, `ms` later. */
export const delayStep = defineStep<number>({
  name: 'delay',
  summary: 'every value, ms later',
  schema: milliseconds,
  operator: (ms, { scheduler }) => delay(ms, scheduler),
});
