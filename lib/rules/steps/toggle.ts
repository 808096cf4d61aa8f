import { Type } from '@sinclair/typebox';
import { defineStep } from '../signal.ts';

/** `{ toggle: true }`: each value that arrives flips a stored boolean (starting false), which is sent. */
export const toggleStep = defineStep<true>({
  name: 'toggle',
  summary: 'each value that arrives flips a stored boolean (first: true), which is sent',
  schema: Type.Literal(true),
  each: () => {
    let state = false;
    return (signal) => {
      state = !state;
      return { ...signal, value: state };
    };
  },
});
