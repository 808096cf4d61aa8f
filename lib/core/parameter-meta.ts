/**
 * What a parameter says of itself beyond its type (R-PK6): a label, a description, a unit,
 * a range and step, and choices. Declared by the type that defines the parameter (built-in,
 * package, module), shown by every face of the hub the same way (`GET /parameters?meta=1`,
 * …), and held against writes: a value outside the range or the choices is refused with
 * PB_CONVERSION naming them. Reports — what the device says — are never refused for it.
 * Needs nothing of Node: the console is checked against these types too (api-shapes.ts).
 */
import { type Static, Type } from '@sinclair/typebox';
import { HubError } from './errors.ts';
import { convert, type Value, type ValueType } from './value.ts';

/** The most choices one parameter may have: a router's inputs, a mixer's sources. */
export const MOST_CHOICES = 10_000;
/** The most characters of a label: what a type takes from a device or a module is cut to it. */
export const MOST_LABEL = 256;

const choiceValue = Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean()]);

export const Choice = Type.Object(
  {
    value: choiceValue,
    label: Type.String({ maxLength: MOST_LABEL, description: 'What a person is shown for the value: `Camera 1`.' }),
  },
  { additionalProperties: false },
);
export type Choice = Static<typeof Choice>;

export const ParameterMeta = Type.Object(
  {
    label: Type.Optional(Type.String({ maxLength: MOST_LABEL, description: 'Its name for a person: `Program input`.' })),
    description: Type.Optional(Type.String({ maxLength: 4096 })),
    unit: Type.Optional(Type.String({ maxLength: 32, description: '`dB`, `%`, `s`, `frames`.' })),
    minimum: Type.Optional(Type.Number({ description: 'The least value a write may give (a number type).' })),
    maximum: Type.Optional(Type.Number({ description: 'The greatest value a write may give (a number type).' })),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'The step a slider moves by; not held against writes.' })),
    choices: Type.Optional(
      Type.Array(Choice, {
        maxItems: MOST_CHOICES,
        description: "The values a write may give, each with its label: a router's inputs by name.",
      }),
    ),
  },
  { additionalProperties: false, description: 'What a parameter says of itself (R-PK6); each part only when its type declares it.' },
);
export type ParameterMeta = Static<typeof ParameterMeta>;

/** Its label and description as one line for a tool that has one field for both (Ember+, OSCQuery): `Programme level: The mix to air`, or ''. */
export const headline = (meta: ParameterMeta): string => [meta.label, meta.description].filter(Boolean).join(': ');

/** How many choices a refusal names before it says how many more there are. */
const NAMED_CHOICES = 8;

/**
 * Why `value` (converted to the parameter's type) is not one a write may give, or
 * `undefined` when it is. Numbers are held against the range, any value against the choices.
 */
export function refusal(meta: ParameterMeta, value: Value): string | undefined {
  if (typeof value === 'number') {
    const { minimum, maximum } = meta;
    if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum))
      return `${value} is outside its range, ${rangeText(minimum, maximum)}`;
  }
  const { choices } = meta;
  if (choices === undefined || choices.some((choice) => choice.value === value)) return undefined;
  const named = choices.slice(0, NAMED_CHOICES).map((choice) => `${JSON.stringify(choice.value)} (${choice.label})`);
  const more = choices.length > NAMED_CHOICES ? ` and ${choices.length - NAMED_CHOICES} more` : '';
  return `${JSON.stringify(value)} is not one of its choices: ${named.join(', ')}${more}`;
}

function rangeText(minimum: number | undefined, maximum: number | undefined): string {
  if (minimum === undefined) return `at most ${maximum}`;
  if (maximum === undefined) return `at least ${minimum}`;
  return `${minimum} to ${maximum}`;
}

/**
 * `meta` as a parameter of `type` at `address` holds it: its choices' values converted to
 * the type, undefined when it says nothing. Throws a PB_CONVERSION HubError naming the
 * choice that does not convert.
 */
export function inType(meta: ParameterMeta | undefined, type: ValueType, address: string): ParameterMeta | undefined {
  if (meta === undefined || Object.values(meta).every((part) => part === undefined)) return undefined;
  const choices = meta.choices?.map((choice) => {
    const value = convert(choice.value, type);
    if (!value.ok) throw new HubError(value.error.code, `${address}: its choice ${choice.label}: ${value.error.message}`);
    return value.value === choice.value ? choice : { value: value.value, label: choice.label };
  });
  return choices === undefined ? meta : { ...meta, choices };
}
