/**
 * The input fields a Companion module declares — its config fields (R-CM3) and its actions'
 * and feedbacks' options (R-CM5, R-CM6) — and the check of a value against one: its kind,
 * `required`, a number's range, a text's regular expression, a dropdown's choices. A value
 * written to a bound action (`$(value)`) is converted to its option's kind here too.
 */
import {
  type Choice,
  HubError,
  MOST_CHOICES,
  MOST_LABEL,
  type Issue,
  type ParameterMeta,
  type SettingSchema,
  type ValueType,
  ValueType as Types,
} from '../../sdk/index.ts';
import type { Preset } from './presets.ts';

/** A field as the module sends it; only what the hub checks is named. */
export interface Field {
  readonly id: string;
  readonly type: string;
  readonly label?: string;
  readonly default?: unknown;
  readonly required?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly regex?: string;
  readonly choices?: readonly { readonly id: unknown; readonly label?: string }[];
  readonly allowCustom?: boolean;
  readonly minSelection?: number;
  readonly maxSelection?: number;
  readonly tooltip?: string;
}

/** Fields that hold no value: text shown to the user. */
const SHOWN_ONLY = new Set(['static-text']);

/** True for a field that holds a secret: it belongs in `secrets`, never in `config`. */
export const isSecret = (field: Field): boolean => field.type.startsWith('secret');

/** The fields that hold a value. */
export const valueFields = (fields: readonly Field[]): readonly Field[] => fields.filter((field) => !SHOWN_ONLY.has(field.type));

/** The field's name for a message: its label and id. */
export const named = (field: Field): string => (field.label ? `"${field.label}" (${field.id})` : field.id);

/** Why `value` does not fit `field`, or undefined when it does. */
export function misfit(field: Field, value: unknown): string | undefined {
  if (value === undefined || value === '') return field.required ? 'is required' : undefined;
  switch (field.type) {
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.min !== undefined && value < field.min) return `must be at least ${field.min}`;
      if (field.max !== undefined && value > field.max) return `must be at most ${field.max}`;
      return undefined;
    }
    case 'checkbox':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'dropdown':
      if (field.allowCustom) return textMisfit(field, value);
      return choiceIds(field).has(String(value)) ? undefined : `must be one of ${choiceList(field)}`;
    case 'multidropdown': {
      if (!Array.isArray(value)) return `must be a list of ${choiceList(field)}`;
      const ids = choiceIds(field);
      const stranger = value.find((item) => !ids.has(String(item)));
      if (stranger !== undefined && !field.allowCustom) return `holds ${JSON.stringify(stranger)}, not one of ${choiceList(field)}`;
      if (field.minSelection !== undefined && value.length < field.minSelection) return `must hold at least ${field.minSelection}`;
      if (field.maxSelection !== undefined && value.length > field.maxSelection) return `must hold at most ${field.maxSelection}`;
      return undefined;
    }
    case 'colorpicker':
      return typeof value === 'number' || typeof value === 'string' ? undefined : 'must be a colour (a number or a text)';
    default:
      return textMisfit(field, value);
  }
}

function textMisfit(field: Field, value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return 'must be a text';
  const pattern = field.regex ? regexOf(field.regex) : undefined;
  return pattern && !pattern.test(String(value)) ? `does not match ${field.regex}` : undefined;
}

/** A module's regular expression, written as Companion writes them (`/^\d+$/i`) or bare; undefined when it is none. */
function regexOf(text: string): RegExp | undefined {
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(text);
  try {
    return slashed ? new RegExp(slashed[1] ?? '', slashed[2]) : new RegExp(text);
  } catch {
    return undefined;
  }
}

const choiceIds = (field: Field) => new Set((field.choices ?? []).map((choice) => String(choice.id)));
const choiceList = (field: Field) =>
  (field.choices ?? [])
    .slice(0, 12)
    .map((choice) => JSON.stringify(choice.id))
    .join(', ') + ((field.choices?.length ?? 0) > 12 ? ' …' : '');

/** The parameter type a written value takes for an option of this field. */
export function valueTypeOf(field: Field): ValueType {
  switch (field.type) {
    case 'number':
      return Number.isInteger(field.step ?? 1) && Number.isInteger(field.min ?? 0) ? Types.Integer : Types.Float;
    case 'checkbox':
      return Types.Boolean;
    case 'dropdown':
      // A choice of numbered things (a router's inputs) is written as its number.
      return (field.choices ?? []).length > 0 && (field.choices ?? []).every((choice) => Number.isInteger(choice.id)) && !field.allowCustom
        ? Types.Integer
        : Types.String;
    default:
      return Types.String;
  }
}

/**
 * What a parameter written into `field` says of itself (R-PK6): a number's range and step,
 * a dropdown's choices with their labels (a router's inputs by name). A dropdown that
 * takes values of its own has no choices to hold writes to.
 */
export function metaOf(field: Field): ParameterMeta {
  const finite = (number: unknown) => (typeof number === 'number' && Number.isFinite(number) ? number : undefined);
  switch (field.type) {
    case 'number': {
      const minimum = finite(field.min);
      const maximum = finite(field.max);
      const step = finite(field.step);
      return {
        ...(minimum === undefined ? {} : { minimum }),
        ...(maximum === undefined ? {} : { maximum }),
        ...(step !== undefined && step > 0 ? { step } : {}),
      };
    }
    case 'dropdown': {
      if (field.allowCustom || !Array.isArray(field.choices)) return {};
      const choices = field.choices
        .slice(0, MOST_CHOICES)
        .flatMap(({ id, label }): Choice[] =>
          typeof id === 'string' || typeof id === 'number' ? [{ value: id, label: String(label ?? id).slice(0, MOST_LABEL) }] : [],
        );
      return choices.length > 0 ? { choices } : {};
    }
    default:
      return {};
  }
}

/** A module's name for something (an action, a feedback), as a parameter's label. */
export const labelOf = (name: unknown, id: string): string => (typeof name === 'string' && name !== '' ? name : id).slice(0, MOST_LABEL);

/** A written value as the option's field holds it: a dropdown's choice keeps its id's own kind (a number or a text). */
export function asOption(field: Field, value: unknown): unknown {
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? value : Number(value);
    case 'checkbox':
      return value === true || value === 'true' || value === 1;
    case 'dropdown': {
      const choice = (field.choices ?? []).find((candidate) => String(candidate.id) === String(value));
      return choice ? choice.id : value;
    }
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The config a module starts with: each field's default, then what the flow file writes. */
export function withFieldDefaults(
  fields: readonly Field[],
  written: Readonly<Record<string, unknown>>,
  secret: boolean,
): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const field of valueFields(fields)) if (isSecret(field) === secret && field.default !== undefined) filled[field.id] = field.default;
  return { ...filled, ...written };
}

/** A mistake in `config` fails the start at its path, with the field's label (R-CM3). */
export function refuseConfigMistakes(
  fields: readonly Field[],
  config: Readonly<Record<string, unknown>>,
  secrets: Readonly<Record<string, unknown>>,
): void {
  const [first] = configMistakes(fields, config, secrets);
  if (first) throw new HubError('PB_START_FAILED', `${first.path.join('.')}: ${first.message}`);
}

/**
 * Every mistake of a connection's `config` and `secrets` against the module's config fields
 * (R-CM3), at its path, in the words of the field's label: a key the module does not declare,
 * a secret in the wrong place, a value that does not fit, a required field missing.
 */
export function configMistakes(
  fields: readonly Field[],
  config: Readonly<Record<string, unknown>>,
  secrets: Readonly<Record<string, unknown>>,
): Issue[] {
  const issues: Issue[] = [];
  const known = new Map(valueFields(fields).map((field) => [field.id, field]));
  for (const [where, written, secret] of [
    ['config', config, false],
    ['secrets', secrets, true],
  ] as const) {
    for (const [id, value] of Object.entries(written)) {
      const field = known.get(id);
      const why = !field
        ? `the module has no config field "${id}"`
        : isSecret(field) !== secret
          ? `${named(field)} belongs in ${secret ? 'config' : 'secrets'}`
          : misfit(field, value) && `${named(field)} ${misfit(field, value)}`;
      if (why) issues.push({ path: [where, id], message: why });
    }
  }
  for (const field of known.values()) {
    const written = isSecret(field) ? secrets : config;
    if (field.required && field.default === undefined && written[field.id] === undefined)
      issues.push({ path: [isSecret(field) ? 'secrets' : 'config', field.id], message: `${named(field)} is required` });
  }
  return issues;
}

/**
 * The module's config fields as JSON Schemas of `config` and `secrets` (R-CM3): what the
 * console's forms show for a module connection — each field by its label, with its default,
 * range and choices by label. The hub's own check (`configMistakes`) stays the one that
 * refuses, in words; a text's regular expression is not repeated here as a pattern.
 */
export function fieldSchemas(fields: readonly Field[]): Record<string, SettingSchema> {
  const of = (secret: boolean, description: string): SettingSchema => ({
    type: 'object',
    description,
    additionalProperties: false,
    properties: Object.fromEntries(
      valueFields(fields)
        .filter((field) => isSecret(field) === secret)
        .map((field) => [field.id, fieldSchema(field)]),
    ),
  });
  const secrets = valueFields(fields).some(isSecret);
  return {
    config: of(false, "The module's configuration, as its config fields declare it (as the module last ran here)."),
    secrets: of(
      true,
      secrets ? "The module's secret fields: never served, they reach only the module." : 'This module has no secret fields.',
    ),
  };
}

function fieldSchema(field: Field): SettingSchema {
  const about = {
    title: labelOf(field.label, field.id),
    ...(typeof field.tooltip === 'string' && field.tooltip !== '' ? { description: field.tooltip.slice(0, 2000) } : {}),
    ...(field.default === undefined ? {} : { default: field.default }),
  };
  const choices = (field.choices ?? [])
    .slice(0, MOST_CHOICES)
    .flatMap(({ id, label }) =>
      typeof id === 'string' || typeof id === 'number' ? [{ const: id, title: String(label ?? id).slice(0, MOST_LABEL) }] : [],
    );
  switch (field.type) {
    case 'number':
      return {
        type: valueTypeOf(field) === Types.Integer ? 'integer' : 'number',
        ...metaRange(field),
        ...about,
      };
    case 'checkbox':
      return { type: 'boolean', ...about };
    case 'dropdown':
      return !field.allowCustom && choices.length > 0 ? { anyOf: choices, ...about } : { type: ['string', 'number'], ...about };
    case 'multidropdown':
      return { type: 'array', ...(choices.length > 0 && !field.allowCustom ? { items: { anyOf: choices } } : {}), ...about };
    case 'colorpicker':
      return { type: ['integer', 'string'], format: 'color', ...about };
    default:
      return { type: 'string', ...about };
  }
}

/** A number field's range, as `minimum` and `maximum`. */
function metaRange(field: Field): SettingSchema {
  const { minimum, maximum } = metaOf(field);
  return { ...(minimum === undefined ? {} : { minimum }), ...(maximum === undefined ? {} : { maximum }) };
}

/** The text a bound option is written as to take the value written to its parameter (option-texts.ts's `WRITTEN`). */
const WRITTEN_VALUE = '$(value)';

/**
 * The module's actions and feedbacks as JSON Schemas of a connection's `actions` and
 * `feedbacks` (R-ST3): each binding is one of the module's actions (or feedbacks), picked by
 * its name, with its options as the fields the module declares. An option may take the value
 * written to the parameter: a choice offers it as one more choice, a number or a text takes
 * `$(value)` as typed. The module's presets are each map's examples (presets.ts).
 */
export function bindingSchemas(
  actions: readonly { readonly id: string; readonly name?: string; readonly options?: readonly Field[] }[],
  feedbacks: readonly { readonly id: string; readonly name?: string; readonly type?: string; readonly options?: readonly Field[] }[],
  presets: readonly Preset[] = [],
): Record<string, SettingSchema> {
  // The module's presets as examples of each map (JSON Schema's `examples`): an entry each, ready to add.
  const examples = (of: (preset: Preset) => [string, unknown] | undefined) => {
    const entries = presets.flatMap((preset): [string, unknown][] => {
      const entry = of(preset);
      return entry ? [entry] : [];
    });
    return entries.length > 0 ? { examples: entries.slice(0, MOST_CHOICES).map(([key, binding]) => ({ [key]: binding })) } : {};
  };
  const optionsOf = (fields: readonly Field[] | undefined, written: boolean): SettingSchema => ({
    type: 'object',
    title: 'options',
    properties: Object.fromEntries(valueFields(fields ?? []).map((field) => [field.id, optionSchema(field, written)])),
  });
  const entries = (
    key: string,
    list: readonly { id: string; name?: string; options?: readonly Field[]; type?: string }[],
    written: boolean,
  ) =>
    list.slice(0, MOST_CHOICES).map((definition) => ({
      type: 'object',
      title: labelOf(definition.name, definition.id),
      required: [key],
      properties: {
        [key]: { const: definition.id, title: labelOf(definition.name, definition.id) },
        options: optionsOf(definition.options, written),
        label: { type: 'string', description: `What the parameter is called; "${labelOf(definition.name, definition.id)}" by default.` },
        ...(definition.type === 'boolean'
          ? { invert: { type: 'boolean', description: 'The feedback inverted: true when the module says false.' } }
          : {}),
        ...(written
          ? {
              type: {
                enum: ['S', 'I', 'F', 'B', 'T'],
                description: "The parameter's type; by default the `$(value)` option's, or a trigger (T).",
              },
            }
          : definition.type === 'value'
            ? { type: { enum: ['S', 'I', 'F', 'B'], description: "The parameter's type (S by default)." } }
            : {}),
      },
    }));
  return {
    ...(actions.length > 0
      ? {
          actions: {
            type: 'object',
            description:
              "Write-only parameters, by id, each running one of the module's actions; `$(value)` in an option takes the written value.",
            additionalProperties: { anyOf: entries('action', actions, true) },
            ...examples((preset) => (preset.action ? [preset.key, preset.action] : undefined)),
          },
        }
      : {}),
    ...(feedbacks.length > 0
      ? {
          feedbacks: {
            type: 'object',
            description: "Read-only parameters, by id, each following one of the module's feedbacks.",
            additionalProperties: { anyOf: entries('feedback', feedbacks, false) },
            ...examples((preset) => (preset.feedback ? [`${preset.key}/lit`, preset.feedback] : undefined)),
          },
        }
      : {}),
  };
}

/** An option's schema: its field's, and for an action, the written value as one more way to fill it. */
function optionSchema(field: Field, written: boolean): SettingSchema {
  const own = fieldSchema(field);
  if (!written) return own;
  const value = { const: WRITTEN_VALUE, title: 'the value written to the parameter' };
  if (Array.isArray(own['anyOf'])) return { ...own, anyOf: [...own['anyOf'], value] };
  const { type, ...rest } = own;
  if (type === 'boolean') return { ...rest, anyOf: [{ const: true, title: 'on' }, { const: false, title: 'off' }, value] };
  // A number or a text, or the text `$(value)`.
  const types = [...new Set([...(Array.isArray(type) ? type : [type]), 'string'])];
  return {
    ...rest,
    type: types,
    description: `${typeof own['description'] === 'string' ? `${own['description']} ` : ''}$(value) takes the value written to the parameter.`,
  };
}
