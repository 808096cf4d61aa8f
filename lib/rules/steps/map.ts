import { Type } from '@sinclair/typebox';
import { filter, map } from 'rxjs';
import { toWire } from '../../core/value.ts';
import { defineStep, type Scalar, type Signal } from '../signal.ts';

/** `{ map: { "<from>": <to>, …, "*"?: <to> } }`: a table lookup on the string form. */
export const mapStep = defineStep<Record<string, Scalar | null>>({
  name: 'map',
  summary: 'looks the string form up in a table; unmatched values take "*" or are dropped',
  schema: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
    minProperties: 1,
    expected: 'a table { "<from>": <to>, … }',
  }),
  operator(table) {
    const lookup = (signal: Signal): Scalar | null | undefined => {
      const key = signal.value === null ? 'null' : toWire(signal.value);
      if (Object.hasOwn(table, key)) return table[key];
      return Object.hasOwn(table, '*') ? table['*'] : undefined;
    };
    return (source) =>
      source.pipe(
        map((signal) => ({ signal, to: lookup(signal) })),
        filter(({ to }) => to !== undefined),
        map(({ signal, to }) => ({ ...signal, value: to as Scalar | null })),
      );
  },
});
