import { Type } from '@sinclair/typebox';
import { scan } from 'rxjs';
import { defineStep, type Signal } from '../signal.ts';

/** `{ toggle: true }`: each value that arrives flips a stored boolean (starting false), which is sent. */
export const toggleStep = defineStep<true>({
  name: 'toggle',
  summary: 'each value that arrives flips a stored boolean (first: true), which is sent',
  schema: Type.Literal(true),
  operator: () => scan<Signal, Signal>((previous, signal) => ({ ...signal, value: previous.value !== true }), { value: false, source: '', time: 0 }),
});
