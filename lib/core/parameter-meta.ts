/**
 * What a parameter says of itself beyond its type (R-PK6): a label, a description, a unit,
 * a range and step, and choices. Declared by the type that defines the parameter (built-in,
 * package, module), shown by every face of the hub the same way (`GET /parameters?meta=1`,
 * …), and held against writes: a value outside the range or the choices is refused with
 * PB_CONVERSION naming them. Reports — what the device says — are never refused for it.
 * A command with several arguments (R-PK8) is a text parameter whose `arguments` say what
 * its write carries: a JSON object of those names, each checked as a parameter of its own.
 * Needs nothing of Node: the console is checked against these types too (api-shapes.ts).
 */
import { type Static, Type } from '@sinclair/typebox';
import { HubError } from './errors.ts';
import { convert, type Value, type ValueType } from './value.ts';

/** The most choices one parameter may have: a router's inputs, a mixer's sources. */
export const MOST_CHOICES = 10_000;
/** The most characters of a label: what a type takes from a device or a module is cut to it. */
export const MOST_LABEL = 256;
/**
 * The most characters of a parameter's choices, values and labels together (its arguments'
 * included): past it the rest are left out, as if not declared. Within the other bounds a
 * module declared 10,000 choices of 4,000 characters (40 MB a parameter), and every
 * `?meta=1` listing held the hub's loop for seconds to write them out.
 */
export const MOST_CHOICES_TEXT = 256 * 1024;

const choiceValue = Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean()]);

export const Choice = Type.Object(
  {
    value: choiceValue,
    label: Type.String({ maxLength: MOST_LABEL, description: 'What a person is shown for the value: `Camera 1`.' }),
  },
  { additionalProperties: false },
);
export type Choice = Static<typeof Choice>;

/** The most arguments one command may take. */
export const MOST_ARGUMENTS = 32;

/** One argument of a command (R-PK8): a value of its own type, held against its own range and choices. */
export const Argument = Type.Object(
  {
    type: Type.Union([Type.Literal('S'), Type.Literal('I'), Type.Literal('F'), Type.Literal('B')]),
    label: Type.Optional(Type.String({ maxLength: MOST_LABEL })),
    description: Type.Optional(Type.String({ maxLength: 4096 })),
    unit: Type.Optional(Type.String({ maxLength: 32 })),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    choices: Type.Optional(Type.Array(Choice, { maxItems: MOST_CHOICES })),
    optional: Type.Optional(Type.Boolean({ description: 'A write may leave it out.' })),
  },
  { additionalProperties: false },
);
export type Argument = Static<typeof Argument>;

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
    arguments: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' }), Argument, {
        maxProperties: MOST_ARGUMENTS,
        description:
          'A command with several arguments (a text parameter): its write is a JSON object of these names, each checked as its own type, range and choices.',
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
  // None at all (a router without serial ports, a deck without clips): said so, not as an empty list.
  if (choices.length === 0) return `${JSON.stringify(value)} is not one of its choices: it has none`;
  const named = choices.slice(0, NAMED_CHOICES).map((choice) => `${JSON.stringify(choice.value)} (${choice.label})`);
  const more = choices.length > NAMED_CHOICES ? ` and ${choices.length - NAMED_CHOICES} more` : '';
  return `${JSON.stringify(value)} is not one of its choices: ${named.join(', ')}${more}`;
}

/**
 * A command's write (R-PK8): `value`, a JSON object's text, as its `args` take it — every name
 * declared, every argument not `optional` given, each converted to its type and held against
 * its range and choices — written again with the converted values in the declared order; or
 * why not.
 */
export function argumentsOf(
  args: Readonly<Record<string, Argument>>,
  value: Value,
): { ok: true; text: string } | { ok: false; why: string } {
  const expected = `a JSON object of ${Object.keys(args).join(', ')}`;
  let parsed: unknown;
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : undefined;
  } catch {
    return { ok: false, why: `${JSON.stringify(String(value).slice(0, 80))} is not JSON: expected ${expected}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, why: `expected ${expected}` };
  const given = parsed as Record<string, unknown>;
  const unknown = Object.keys(given).find((name) => !Object.hasOwn(args, name));
  if (unknown !== undefined) return { ok: false, why: `it takes no argument "${unknown.slice(0, 64)}": expected ${expected}` };
  const out: Record<string, Value> = {};
  for (const [name, arg] of Object.entries(args)) {
    if (given[name] === undefined) {
      if (arg.optional) continue;
      return { ok: false, why: `argument "${name}" is missing: expected ${expected}` };
    }
    const converted = convert(given[name], arg.type);
    if (!converted.ok) return { ok: false, why: `argument "${name}": ${converted.error.message}` };
    const refused = refusal(arg, converted.value);
    if (refused !== undefined) return { ok: false, why: `argument "${name}": ${refused}` };
    out[name] = converted.value;
  }
  return { ok: true, text: JSON.stringify(out) };
}

function rangeText(minimum: number | undefined, maximum: number | undefined): string {
  if (minimum === undefined) return `at most ${maximum}`;
  if (maximum === undefined) return `at least ${minimum}`;
  return `${minimum} to ${maximum}`;
}

/**
 * `meta` as a parameter of `type` at `address` holds it: its choices' values converted to
 * the type and cut to `MOST_CHOICES_TEXT`, undefined when it says nothing. Throws a PB_CONVERSION HubError naming the
 * choice that does not convert.
 */
export function inType(meta: ParameterMeta | undefined, type: ValueType, address: string): ParameterMeta | undefined {
  if (meta === undefined || Object.values(meta).every((part) => part === undefined)) return undefined;
  if (meta.arguments !== undefined && type !== 'S')
    throw new HubError('PB_CONVERSION', `${address}: a command with arguments is a text parameter (S), not ${type}`);
  const budget = { left: MOST_CHOICES_TEXT };
  const choices = choicesIn(meta.choices, type, address, budget);
  const args =
    meta.arguments &&
    Object.fromEntries(
      Object.entries(meta.arguments).map(([name, arg]) => {
        const converted = choicesIn(arg.choices, arg.type, `${address} argument "${name}"`, budget);
        return [name, converted === arg.choices || converted === undefined ? arg : { ...arg, choices: converted }];
      }),
    );
  if (choices === meta.choices && args === meta.arguments) return meta;
  return { ...meta, ...(choices && { choices }), ...(args && { arguments: args }) };
}

/**
 * Choices with their values converted to `type`, as many as `budget` has characters left for
 * (it is spent); the same array when none changed.
 */
function choicesIn(
  choices: readonly Choice[] | undefined,
  type: ValueType,
  address: string,
  budget: { left: number },
): Choice[] | undefined {
  if (choices === undefined) return undefined;
  let fitting = 0;
  for (const choice of choices) {
    budget.left -= String(choice.value).length + choice.label.length;
    if (budget.left < 0) break;
    fitting++;
  }
  let changed = fitting < choices.length;
  const converted = choices.slice(0, fitting).map((choice) => {
    const value = convert(choice.value, type);
    if (!value.ok) throw new HubError(value.error.code, `${address}: its choice ${choice.label}: ${value.error.message}`);
    if (value.value === choice.value) return choice;
    changed = true;
    return { value: value.value, label: choice.label };
  });
  return changed ? converted : (choices as Choice[]);
}
