import { Type } from '@sinclair/typebox';
import { convert } from '../../core/value.ts';
import { defineStep } from '../signal.ts';

/**
 * `{ edge: "rising" | "falling" }`: passes only false→true (or true→false) transitions of
 * the value as a boolean. The state before the first value is unknown, so a first true is
 * a rising edge and a first false a falling one. Non-booleans are ignored.
 */
export const edgeStep = defineStep<'rising' | 'falling'>({
  name: 'edge',
  summary: 'passes only false→true ("rising") or true→false ("falling") transitions',
  schema: Type.Unsafe<'rising' | 'falling'>({ type: 'string', enum: ['rising', 'falling'] }),
  each: (direction) => {
    let previous: boolean | undefined;
    return (signal) => {
      const level = signal.value === null ? undefined : convert(signal.value, 'B');
      if (!level?.ok) return undefined;
      const edge = previous !== level.value && level.value === (direction === 'rising');
      previous = level.value as boolean;
      return edge ? signal : undefined;
    };
  },
});
