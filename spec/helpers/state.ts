import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { StateStore } from '../../lib/state/store.ts';

/** A fresh state folder for one spec. */
export const stateFolder = () => mkdtemp(join(tmpdir(), 'patchbay-state-'));

/** A real store in a fresh folder (or `folder`), holding `values`, closed when the spec ends. */
export async function storeWith(
  t: ExecutionContext,
  values: Record<string, string | number | boolean> = {},
  folder?: string,
): Promise<StateStore> {
  const opened = StateStore.open(folder ?? (await stateFolder()));
  if (!opened.ok) throw opened.error;
  t.teardown(() => opened.value.close());
  for (const [address, value] of Object.entries(values)) opened.value.setValue(address, value);
  await opened.value.settled();
  return opened.value;
}
