import { Type } from '@sinclair/typebox';
import { defineStep } from '../signal.ts';
import { numeric } from './numeric.ts';

/** Rounds half away from zero at `decimals`, exact for decimal inputs such as 1.005. */
export function roundTo(n: number, decimals: number): number {
  const magnitude = Number(`${Math.round(Number(`${Math.abs(n)}e${decimals}`))}e-${decimals}`);
  return Math.sign(n) * magnitude || 0;
}

/** `{ round: <decimals> }`: rounds a number. */
export const roundStep = defineStep<number>({
  name: 'round',
  summary: 'rounds a number to this many decimals',
  schema: Type.Integer({ minimum: 0, maximum: 15 }),
  each: (decimals) => numeric((n) => roundTo(n, decimals)),
});
