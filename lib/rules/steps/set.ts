import { Type } from '@sinclair/typebox';
import { defineStep, type Scalar } from '../signal.ts';

/** `{ set: <value> }`: sends this constant instead (`null` fires a trigger). */
export const setStep = defineStep<Scalar | null>({
  name: 'set',
  summary: 'sends this constant instead',
  schema: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  each: (constant) => (signal) => ({ ...signal, value: constant }),
});
