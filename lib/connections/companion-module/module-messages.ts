/**
 * What the hub reads of a module's messages (R-CM2): a module is someone else's program, and
 * its payloads are whatever it sent, whatever the base's types say. Each list keeps the items
 * of the shape the hub reads — an id that is a text, a name that is one or none, fields with
 * an id and a type — and drops the rest, so that nothing past here meets a value of another
 * kind than its type says.
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

/** Actions or feedbacks as the module declares them under `key`. */
export function definitionsOf(payload: unknown, key: string): readonly Definition[] {
  return itemsOf(payload, key)
    .filter(named)
    .map((item) => ({
      id: item['id'] as string,
      ...(typeof item['name'] === 'string' ? { name: item['name'] } : {}),
      ...(item['options'] === undefined ? {} : { options: fieldsOf(item['options']) }),
      ...(typeof item['type'] === 'string' ? { type: item['type'] } : {}),
    }));
}

/** Variables as the module declares them. */
export function variablesOf(payload: unknown): readonly { readonly id: string; readonly name?: string }[] {
  return itemsOf(payload, 'variables')
    .filter(named)
    .map((item) => ({ id: item['id'] as string, ...(typeof item['name'] === 'string' ? { name: item['name'] } : {}) }));
}

/** Values of variables as the module sends them. */
export function valuesOf(payload: unknown): readonly VariableValue[] {
  return itemsOf(payload, 'newValues').filter((item) => typeof item['id'] === 'string') as unknown as readonly VariableValue[];
}
