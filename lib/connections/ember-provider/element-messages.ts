/**
 * How the elements of the served tree look to consumers, and the messages that carry them: a
 * node, a parameter (B boolean, I integer, F real, S string) with what a consumer may do with
 * it and what it says of itself (R-PK6: its label and description as Ember+'s description,
 * its range as minimum and maximum, an integer's choices as an enumeration), a trigger as a
 * function without arguments, a matrix with its targets' connections.
 */
import type { Model } from 'emberplus-connection';
import { headline, type Parameter, type ParameterMeta, type Value, type ValueType } from '../../sdk/index.ts';
import {
  type EmberElement,
  type EmberValue,
  elementsMessage,
  functionContents,
  nodeContents,
  ParameterAccess,
  ParameterType,
  parameterContents,
  qualified,
} from '../../protocols/ember-plus.ts';
import type { Entry, Leaf, MatrixEntry } from './exposed-tree.ts';

const EMBER_TYPES: Record<Exclude<ValueType, 'T'>, Model.ParameterType> = {
  B: ParameterType.Boolean,
  I: ParameterType.Integer,
  F: ParameterType.Real,
  S: ParameterType.String,
};

const ACCESS = {
  'read-only': ParameterAccess.Read,
  'write-only': ParameterAccess.Write,
  'read-write': ParameterAccess.ReadWrite,
} as const;

/** The element at `entry` as consumers see it; `mayWrite` tells what a consumer may change. */
export function elementContents(entry: Entry, mayWrite: (parameter: Parameter) => boolean): EmberElement {
  if (entry.kind === 'node') return nodeContents(entry.identifier);
  if (entry.kind === 'matrix') return entry.matrix.contents(entry.identifier);
  const { parameter } = entry;
  if (parameter.type === 'T') return functionContents(entry.identifier);
  return parameterContents(emberTypeOf(parameter), {
    identifier: entry.identifier,
    ...valueField(parameter.value),
    ...(parameter.meta === undefined ? {} : said(parameter.meta)),
    // What consumers may do with it: a parameter `write` leaves out is read-only to them.
    access: mayWrite(parameter)
      ? ACCESS[parameter.access]
      : parameter.access === 'write-only'
        ? ParameterAccess.None
        : ParameterAccess.Read,
    ...(entry.online ? {} : { isOnline: false }),
  });
}

/** The parameter at `leaf` with `value`, and nothing else of it. */
export function valueMessage(leaf: Leaf, value: Value | undefined): Buffer {
  return elementsMessage([qualified(leaf.path, parameterContents(emberTypeOf(leaf.parameter), valueField(value)))]);
}

/** The matrix at `entry` with what the targets given hold now. */
export function connectionsMessage(entry: MatrixEntry, targets: readonly number[], children?: ReadonlyMap<number, EmberElement>): Buffer {
  return elementsMessage([qualified(entry.path, entry.matrix.contents(entry.identifier, targets), children)]);
}

function valueField(value: Value | undefined): { value?: EmberValue } {
  return value === undefined ? {} : { value: value as EmberValue };
}

/** Ember+'s type of a parameter: an integer whose choices are all whole numbers is an enumeration. */
function emberTypeOf(parameter: Parameter): Model.ParameterType {
  const type = parameter.type as Exclude<ValueType, 'T'>;
  return type === 'I' && enumerated(parameter.meta) ? ParameterType.Enum : EMBER_TYPES[type];
}

/** What a parameter says of itself, in Ember+'s fields. */
function said(meta: ParameterMeta) {
  const description = headline(meta);
  const enumMap = enumerated(meta) ? enumMapOf(meta.choices ?? []) : undefined;
  return {
    ...(description === '' ? {} : { description }),
    ...(meta.minimum === undefined ? {} : { minimum: meta.minimum }),
    ...(meta.maximum === undefined ? {} : { maximum: meta.maximum }),
    ...(enumMap === undefined ? {} : { enumMap }),
  };
}

/** Whether its choices are whole numbers, as an Ember+ enumeration's are. */
function enumerated(meta: ParameterMeta | undefined): boolean {
  const choices = meta?.choices;
  return choices !== undefined && choices.length > 0 && choices.every((choice) => Number.isInteger(choice.value));
}

/** The choices by label; a label given twice is told apart by its value. */
function enumMapOf(choices: NonNullable<ParameterMeta['choices']>): ReadonlyMap<string, number> {
  const named = new Map<string, number>();
  for (const { value, label } of choices) named.set(named.has(label) ? `${label} (${value})` : label, value as number);
  return named;
}
