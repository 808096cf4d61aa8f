import { Type } from '@sinclair/typebox';

/** The argument of the timed steps. */
export const milliseconds = Type.Integer({ minimum: 0, description: 'milliseconds' });
