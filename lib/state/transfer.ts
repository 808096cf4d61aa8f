import { parseAddress } from '../core/address.ts';
import { fail, ok, type Result } from '../core/errors.ts';
import { convert, type Value, type ValueType } from '../core/value.ts';
import type { StateStore } from './store.ts';

/** The export format of `patchbay state export` and `import` (R-S6). */
export interface StateExport {
  readonly values: Readonly<Record<string, Value>>;
}

const isValue = (value: unknown): value is Value =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** Every stored parameter value, by address. */
export function exportState(store: StateStore): StateExport {
  const values: Record<string, Value> = {};
  for (const [address, value] of store.values()) if (isValue(value)) values[address] = value;
  return { values };
}

/**
 * What the flow file says of an address an import names, its connection being one of the
 * file's: the type of a parameter the hub keeps there, or why none is kept (no such
 * parameter, one that is not kept, a connection that keeps nothing).
 */
export type KeptParameterOf = (connectionId: string, parameterId: string) => Result<ValueType>;

/**
 * Stores the values of an export, over what is stored, each converted to its parameter's
 * type. Checks the whole document first: a bad entry (not an address, a connection the
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
): Promise<Result<number>> {
  const values = typeof document === 'object' && document !== null ? (document as { values?: unknown }).values : undefined;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return fail('PB_BAD_REQUEST', 'expected {"values": {"<address>": <string, number or boolean>, …}}, as `patchbay state export` writes');
  }
  const entries = Object.entries(values);
  const bad: string[] = [];
  const converted: [string, Value][] = [];
  for (const [address, value] of entries) {
    const checked = checkEntry(address, value, isConnection, keptParameterOf);
    if (checked.ok) converted.push([address, checked.value]);
    else bad.push(`values[${JSON.stringify(address)}]: ${checked.error.message}`);
  }
  if (bad.length === 1) return fail('PB_BAD_REQUEST', bad[0] as string);
  if (bad.length > 1) {
    const more = bad.length > SHOWN ? `\n  … and ${bad.length - SHOWN} more` : '';
    return fail('PB_BAD_REQUEST', `${bad.length} bad entries, nothing imported:\n  ${bad.slice(0, SHOWN).join('\n  ')}${more}`);
  }
  for (const [address, value] of converted) store.setValue(address, value);
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
