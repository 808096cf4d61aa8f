import { Type } from '@sinclair/typebox';
import { defineStep } from '../signal.ts';
import { numeric } from './numeric.ts';

type Range = [number, number, number, number];

/** `{ scale: [inMin, inMax, outMin, outMax] }`: linear mapping, clamped to the output range. */
export const scaleStep = defineStep<Range>({
  name: 'scale',
  summary: 'linear mapping, clamped to the output range',
  schema: Type.Tuple([Type.Number(), Type.Number(), Type.Number(), Type.Number()], {
    expected: 'four numbers [inMin, inMax, outMin, outMax]',
  }),
  check: ([inMin, inMax]) => (inMin === inMax ? { path: [], message: 'inMin and inMax must differ' } : undefined),
  each([inMin, inMax, outMin, outMax]) {
    const low = Math.min(outMin, outMax);
    const high = Math.max(outMin, outMax);
    return numeric((n) => Math.min(high, Math.max(low, outMin + ((n - inMin) * (outMax - outMin)) / (inMax - inMin))));
  },
});
