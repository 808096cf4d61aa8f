import { Type } from '@sinclair/typebox';
import { toWire } from '../../core/value.ts';
import { defineStep, type Scalar } from '../signal.ts';

/** `{ map: { "<from>": <to>, …, "*"?: <to> } }`: a table lookup on the string form. */
export const mapStep = defineStep<Record<string, Scalar | null>>({
  name: 'map',
  summary: 'looks the string form up in a table; unmatched values take "*" or are dropped',
  schema: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
    minProperties: 1,
    expected: 'a table { "<from>": <to>, … }',
  }),
  each: (table) => (signal) => {
    const key = signal.value === null ? 'null' : toWire(signal.value);
    if (Object.hasOwn(table, key)) return { ...signal, value: table[key] as Scalar | null };
    return Object.hasOwn(table, '*') ? { ...signal, value: table['*'] as Scalar | null } : undefined;
  },
});
