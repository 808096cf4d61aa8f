import { parseAddress } from '../core/address.ts';
import { fail, ok, type Result } from '../core/errors.ts';
import { convert, type Json, type Value, type ValueType } from '../core/value.ts';
import type { StateStore } from './store.ts';

/**
 * The export format of `patchbay state export` and `import` (R-S6): the kept values, and
 * the records connections keep for themselves (a scenes connection's stored scenes, a
 * running timer's deadline) by connection id and key, present when there are any.
 */
export interface StateExport {
  readonly values: Readonly<Record<string, Value>>;
  readonly records?: Readonly<Record<string, Readonly<Record<string, Json>>>>;
}

const isValue = (value: unknown): value is Value =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** Every stored parameter value, by address. */
export function exportState(store: StateStore): StateExport {
  const values: Record<string, Value> = {};
  for (const [address, value] of store.values()) if (isValue(value)) values[address] = value;
  const records: Record<string, Record<string, Json>> = {};
  for (const [connectionId, key, record] of store.records()) (records[connectionId] ??= {})[key] = record;
  return Object.keys(records).length > 0 ? { values, records } : { values };
}

/**
 * What the flow file says of an address an import names, its connection being one of the
 * file's: the type of a parameter the hub keeps there, or why none is kept (no such
 * parameter, one that is not kept, a connection that keeps nothing).
 */
export type KeptParameterOf = (connectionId: string, parameterId: string) => Result<ValueType>;

/**
 * Whether a connection of the flow file keeps records (its `persist` is not false), or why
 * not: what an import checks the connections of its `records` against.
 */
export type KeepsRecords = (connectionId: string) => Result<true>;

/**
 * Stores the values of an export, over what is stored, each converted to its parameter's
 * type, and its records, each over the record of the same connection and key (the
 * connection checks a record when it reads it, as it does after a restart). Checks the whole document first: a bad entry (not an address, a connection the
 * flow file does not have, one of the hub's own `_…` parameters, a parameter the flow does
 * not keep or does not have, not a string, number or boolean, or a value that does not
 * convert) refuses it all, so nothing is half imported and nothing is stored that no
 * parameter would ever read, with every bad entry named at once (PB_BAD_REQUEST; the first
 * 50, then how many more). Resolves with how many values were stored.
 */
export async function importState(
  store: StateStore,
  document: unknown,
  isConnection: (id: string) => boolean,
  keptParameterOf: KeptParameterOf,
  keepsRecords: KeepsRecords = (id) =>
    isConnection(id) ? ok(true) : fail('PB_UNKNOWN_CONNECTION', `the flow file has no connection "${id}"`),
): Promise<Result<number>> {
  const values = typeof document === 'object' && document !== null ? (document as { values?: unknown }).values : undefined;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return fail('PB_BAD_REQUEST', 'expected {"values": {"<address>": <string, number or boolean>, …}}, as `patchbay state export` writes');
  }
  const records = (document as { records?: unknown }).records ?? {};
  const entries = Object.entries(values);
  const bad: string[] = [];
  const converted: [string, Value][] = [];
  for (const [address, value] of entries) {
    const checked = checkEntry(address, value, isConnection, keptParameterOf);
    if (checked.ok) converted.push([address, checked.value]);
    else bad.push(`values[${JSON.stringify(address)}]: ${checked.error.message}`);
  }
  const keptRecords: [string, string, Json][] = [];
  if (typeof records !== 'object' || records === null || Array.isArray(records))
    bad.push('records: expected {"<connection>": {"<key>": <JSON>, …}, …}');
  else {
    for (const [connectionId, byKey] of Object.entries(records)) {
      const keeps = keepsRecords(connectionId);
      if (!keeps.ok) bad.push(`records[${JSON.stringify(connectionId)}]: ${keeps.error.message}`);
      else if (typeof byKey !== 'object' || byKey === null || Array.isArray(byKey))
        bad.push(`records[${JSON.stringify(connectionId)}]: expected {"<key>": <JSON>, …}`);
      else for (const [key, record] of Object.entries(byKey)) keptRecords.push([connectionId, key, record as Json]);
    }
  }
  if (bad.length === 1) return fail('PB_BAD_REQUEST', bad[0] as string);
  if (bad.length > 1) {
    const more = bad.length > SHOWN ? `\n  … and ${bad.length - SHOWN} more` : '';
    return fail('PB_BAD_REQUEST', `${bad.length} bad entries, nothing imported:\n  ${bad.slice(0, SHOWN).join('\n  ')}${more}`);
  }
  for (const [address, value] of converted) store.setValue(address, value);
  for (const [connectionId, key, record] of keptRecords) store.setRecord(connectionId, key, record);
  await store.settled();
  return store.health.ok ? ok(converted.length) : fail('PB_STATE_UNAVAILABLE', store.health.reason);
}

/** How many bad entries an import names one by one. */
const SHOWN = 50;

/** One entry of an import: the value to store, converted to its parameter's type, or what is wrong with it. */
function checkEntry(
  address: string,
  value: unknown,
  isConnection: (id: string) => boolean,
  keptParameterOf: KeptParameterOf,
): Result<Value> {
  const parsed = parseAddress(address);
  if (!parsed.ok) return parsed;
  const { connectionId, parameterId } = parsed.value;
  if (!isConnection(connectionId)) return fail('PB_UNKNOWN_CONNECTION', `the flow file has no connection "${connectionId}"`);
  if (parameterId.startsWith('_')) return fail('PB_RESERVED_ID', `"${parameterId}" is one of the hub's own parameters, which are not kept`);
  const type = keptParameterOf(connectionId, parameterId);
  if (!type.ok) return type;
  if (!isValue(value)) return fail('PB_BAD_REQUEST', 'expected a string, a finite number or a boolean');
  return convert(value, type.value);
}
