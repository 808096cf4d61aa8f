/**
 * What an IS-07 source says of itself (R-NM2), from what its parameter says of itself
 * (R-PK6): the event type a source and its flow carry, and the type definition the Events
 * API serves at `/type`. A boolean parameter is `boolean`, a text one `string`, a number
 * `number` — `number/<name>/<unit>` with a unit, its name the parameter's last segment — and
 * a parameter with choices an enum, `<base>/enum/<name>`, each choice a value with its
 * label. A number's type definition must give a range: the parameter's, or else the widest
 * its type holds. A trigger has no state, so no source.
 */
import type { ParameterMeta, ValueType } from '../../sdk/index.ts';

export type BaseType = 'boolean' | 'string' | 'number';

/** A number as IS-07 writes one: `{ value }` (no `scale`: the hub's numbers are sent as they are). */
export interface EventNumber {
  readonly value: number;
}

export type TypeDefinition =
  | { readonly type: 'boolean' }
  | { readonly type: 'string' }
  | { readonly type: 'number'; readonly min: EventNumber; readonly max: EventNumber; readonly step?: EventNumber; readonly unit?: string }
  | {
      readonly type: BaseType;
      readonly values: readonly { readonly value: string | number | boolean; readonly label: string; readonly description: string }[];
    };

export interface EventType {
  /** `event_type` of the source, its flow and each state message. */
  readonly eventType: string;
  readonly definition: TypeDefinition;
}

const BASE: Readonly<Record<Exclude<ValueType, 'T'>, BaseType>> = { B: 'boolean', S: 'string', I: 'number', F: 'number' };

/** The widest range of a number without one of its own: what its type can hold. */
const WIDEST: Readonly<Record<'I' | 'F', { min: number; max: number }>> = {
  I: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  F: { min: -Number.MAX_VALUE, max: Number.MAX_VALUE },
};

/** A segment of an event type: no `/` nor white space (IS-07's pattern `[^\s/]+`); undefined when nothing is left. */
function segment(text: string): string | undefined {
  const cleaned = text.replace(/[\s/]+/g, '_');
  return cleaned === '' ? undefined : cleaned;
}

/** The event type and type definition of a parameter; undefined for a trigger, which has no state to serve. */
export function eventTypeOf(address: string, type: ValueType, meta: ParameterMeta | undefined): EventType | undefined {
  if (type === 'T') return undefined;
  const base = BASE[type];
  const name = segment(address.split('/').at(-1) ?? '') ?? 'value';
  if (meta?.choices !== undefined && meta.choices.length > 0) {
    return {
      eventType: `${base}/enum/${name}`,
      definition: {
        type: base,
        values: meta.choices.map(({ value, label }) => ({ value, label, description: meta.description ?? label })),
      },
    };
  }
  if (type === 'B') return { eventType: 'boolean', definition: { type: 'boolean' } };
  if (type === 'S') return { eventType: 'string', definition: { type: 'string' } };
  const unit = meta?.unit === undefined ? undefined : segment(meta.unit);
  const definition: TypeDefinition = {
    type: 'number',
    min: { value: meta?.minimum ?? WIDEST[type].min },
    max: { value: meta?.maximum ?? WIDEST[type].max },
    ...(meta?.step === undefined ? {} : { step: { value: meta.step } }),
    ...(unit === undefined ? {} : { unit: meta?.unit as string }),
  };
  return { eventType: unit === undefined ? 'number' : `number/${name}/${unit}`, definition };
}
