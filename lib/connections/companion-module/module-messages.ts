/**
 * What the hub reads of a module's messages (R-CM2): a module is someone else's program, and
 * its payloads are whatever it sent, whatever the base's types say. Each list keeps the items
 * of the shape the hub reads — an id that is a text, a name that is one or none, fields with
 * an id and a type — and drops the rest, so that what the hub reads of them is of the kind
 * its type says.
 */
import type { Definition } from './bindings.ts';
import type { Field } from './fields.ts';
import type { VariableValue } from './variables.ts';

type Item = Readonly<Record<string, unknown>>;

/** The objects of the list under `key` of a payload; none when it holds no list. */
export function itemsOf(payload: unknown, key: string): readonly Item[] {
  const items = (payload as Item | undefined)?.[key];
  return Array.isArray(items) ? items.filter((item): item is Item => typeof item === 'object' && item !== null) : [];
}

const named = (item: Item) => typeof item['id'] === 'string' && (item['name'] === undefined || typeof item['name'] === 'string');

/** Config fields or options as a module declares them: those with an id and a type. */
export function fieldsOf(list: unknown): readonly Field[] {
  return Array.isArray(list) ? (list.filter((field) => typeof field?.id === 'string' && typeof field?.type === 'string') as Field[]) : [];
}

/**
 * Actions or feedbacks as the module declares them under `key`: those with a text id, a name
 * that is a text or none, and options that are a list or none. Kept as they came when their
 * options are all fields (a module's definitions run to megabytes), else with those alone.
 */
export function definitionsOf(payload: unknown, key: string): readonly Definition[] {
  return itemsOf(payload, key).flatMap((item) => {
    const { options, type } = item;
    if (!named(item) || (type !== undefined && typeof type !== 'string')) return [];
    if (options === undefined) return [item as unknown as Definition];
    if (!Array.isArray(options)) return [];
    const fields = fieldsOf(options);
    return [(fields.length === options.length ? item : { ...item, options: fields }) as unknown as Definition];
  });
}

/** Variables as the module declares them: those with a text id and a name that is a text or none. */
export function variablesOf(payload: unknown): readonly { readonly id: string; readonly name?: string }[] {
  return itemsOf(payload, 'variables').filter(named) as unknown as readonly { readonly id: string; readonly name?: string }[];
}

/** Values of variables as the module sends them: those with a text id. */
export function valuesOf(payload: unknown): readonly VariableValue[] {
  return itemsOf(payload, 'newValues').filter((item) => typeof item['id'] === 'string') as unknown as readonly VariableValue[];
}

/** What the definitions file keeps of an action, a feedback or a variable: what the hub reads of it. */
export function keptOf<
  T extends { readonly id: string; readonly name?: string; readonly type?: string; readonly options?: readonly Field[] },
>(item: T): Pick<T, 'id' | 'name' | 'type' | 'options'> {
  const { id, name, type, options } = item;
  return {
    id,
    ...(name === undefined ? {} : { name }),
    ...(type === undefined ? {} : { type }),
    ...(options === undefined ? {} : { options }),
  } as Pick<T, 'id' | 'name' | 'type' | 'options'>;
}
