import { Type } from '@sinclair/typebox';
import { convert } from '../../core/value.ts';
import { defineStep } from '../signal.ts';

/** `{ not: true }`: boolean negation; values that are not booleans (R-C) are dropped. */
export const notStep = defineStep<true>({
  name: 'not',
  summary: 'boolean negation',
  schema: Type.Literal(true),
  each: () => (signal) => {
    if (signal.value === null) return undefined;
    const level = convert(signal.value, 'B');
    return level.ok ? { ...signal, value: !level.value } : undefined;
  },
});
