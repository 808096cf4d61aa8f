import { parseAddress } from '../core/address.ts';
import { fail, ok, type Result } from '../core/errors.ts';
import type { Value } from '../core/value.ts';
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
 * Stores the values of an export, over what is stored. Checks the whole document first:
 * one bad entry (not an address, a connection the flow file does not have, not a string,
 * number or boolean) refuses it all (PB_BAD_REQUEST naming the entry), so nothing is half
 * imported. Whether a value fits its parameter's type is known only once the parameter
 * exists: at the next start, one that does not is dropped for the default with a warning.
 * Resolves with how many values were stored.
 */
export async function importState(store: StateStore, document: unknown, isConnection: (id: string) => boolean): Promise<Result<number>> {
  const values = typeof document === 'object' && document !== null ? (document as { values?: unknown }).values : undefined;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return fail('PB_BAD_REQUEST', 'expected {"values": {"<address>": <string, number or boolean>, …}}, as `patchbay state export` writes');
  }
  const entries = Object.entries(values);
  for (const [address, value] of entries) {
    const parsed = parseAddress(address);
    if (!parsed.ok) return fail('PB_BAD_REQUEST', `values[${JSON.stringify(address)}]: ${parsed.error.message}`);
    if (!isConnection(parsed.value.connectionId)) {
      return fail('PB_BAD_REQUEST', `values[${JSON.stringify(address)}]: the flow file has no connection "${parsed.value.connectionId}"`);
    }
    if (!isValue(value))
      return fail('PB_BAD_REQUEST', `values[${JSON.stringify(address)}]: expected a string, a finite number or a boolean`);
  }
  for (const [address, value] of entries) store.setValue(address, value as Value);
  await store.settled();
  return store.health.ok ? ok(entries.length) : fail('PB_STATE_UNAVAILABLE', store.health.reason);
}
