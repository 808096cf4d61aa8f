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
 * a bad entry (not an address, a connection the flow file does not have, not a string,
 * number or boolean) refuses it all, so nothing is half imported, with every bad entry
 * named at once (PB_BAD_REQUEST; the first 50, then how many more). Whether a value fits its parameter's type is known only once the parameter
 * exists: at the next start, one that does not is dropped for the default with a warning.
 * Resolves with how many values were stored.
 */
export async function importState(store: StateStore, document: unknown, isConnection: (id: string) => boolean): Promise<Result<number>> {
  const values = typeof document === 'object' && document !== null ? (document as { values?: unknown }).values : undefined;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return fail('PB_BAD_REQUEST', 'expected {"values": {"<address>": <string, number or boolean>, …}}, as `patchbay state export` writes');
  }
  const entries = Object.entries(values);
  const bad: string[] = [];
  for (const [address, value] of entries) {
    const problem = entryProblem(address, value, isConnection);
    if (problem) bad.push(`values[${JSON.stringify(address)}]: ${problem}`);
  }
  if (bad.length === 1) return fail('PB_BAD_REQUEST', bad[0] as string);
  if (bad.length > 1) {
    const more = bad.length > SHOWN ? `\n  … and ${bad.length - SHOWN} more` : '';
    return fail('PB_BAD_REQUEST', `${bad.length} bad entries, nothing imported:\n  ${bad.slice(0, SHOWN).join('\n  ')}${more}`);
  }
  for (const [address, value] of entries) store.setValue(address, value as Value);
  await store.settled();
  return store.health.ok ? ok(entries.length) : fail('PB_STATE_UNAVAILABLE', store.health.reason);
}

/** How many bad entries an import names one by one. */
const SHOWN = 50;

/** What is wrong with one entry of an import, if anything. */
function entryProblem(address: string, value: unknown, isConnection: (id: string) => boolean): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed.ok) return parsed.error.message;
  if (!isConnection(parsed.value.connectionId)) return `the flow file has no connection "${parsed.value.connectionId}"`;
  if (!isValue(value)) return 'expected a string, a finite number or a boolean';
  return undefined;
}
