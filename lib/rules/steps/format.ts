import { Type } from '@sinclair/typebox';
import { toWire } from '../../core/value.ts';
import { defineStep } from '../signal.ts';

/** `{ format: "text with $VALUE" }`: a text template with $VALUE, $SOURCE and $TIMESTAMP. */
export const formatStep = defineStep<string>({
  name: 'format',
  summary: 'a text template: $VALUE (string form), $SOURCE (address), $TIMESTAMP (ISO 8601)',
  schema: Type.String(),
  each: (template) => (signal) => ({
    ...signal,
    value: template.replace(/\$(VALUE|SOURCE|TIMESTAMP)/g, (_, name: string) =>
      name === 'VALUE'
        ? signal.value === null
          ? ''
          : toWire(signal.value)
        : name === 'SOURCE'
          ? signal.source
          : new Date(signal.time).toISOString(),
    ),
  }),
});
