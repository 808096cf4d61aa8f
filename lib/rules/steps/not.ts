import { Type } from '@sinclair/typebox';
import { filter, map } from 'rxjs';
import { convert } from '../../core/value.ts';
import { defineStep } from '../signal.ts';

/** `{ not: true }`: boolean negation; values that are not booleans (R-C) are dropped. */
export const notStep = defineStep<true>({
  name: 'not',
  summary: 'boolean negation',
  schema: Type.Literal(true),
  operator: () => (source) =>
    source.pipe(
      map((signal) => ({ signal, level: signal.value === null ? undefined : convert(signal.value, 'B') })),
      filter(({ level }) => level?.ok === true),
      map(({ signal, level }) => ({ ...signal, value: !(level as { value: boolean }).value })),
    ),
});
