import { debounceTime } from 'rxjs';
import { defineStep } from '../signal.ts';
import { milliseconds } from './milliseconds.ts';

/** `{ debounce: ms }`: passes a value once no other came for `ms`. */
export const debounceStep = defineStep<number>({
  name: 'debounce',
  summary: 'passes a value once no newer one came for ms',
  schema: milliseconds,
  operator: (ms, { scheduler }) => debounceTime(ms, scheduler),
});
