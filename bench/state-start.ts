/**
 * Start time of persisted parameters (R-S3): a dummy connection of N parameters started
 * from N stored values, beside the same connection started from its defaults with no
 * state folder. Both include validating the flow and starting the hub. The first start on
 * the stored values checks each against the settings (they changed since the values were
 * stored: the warning of R-S3); a restart on the same settings does not.
 *
 *   node --import tsx bench/state-start.ts [count]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';
import { StateStore } from '../lib/state/store.ts';

export interface StateStartResult {
  readonly count: number;
  /** Milliseconds to validate and start with every value restored from the store, the first time on these settings. */
  readonly restoredMs: number;
  /** The same, started again on the same settings: what a restart takes. */
  readonly restartMs: number;
  /** The same, from defaults, without a state folder. */
  readonly defaultsMs: number;
}

async function startMs(count: number, state: StateStore | undefined): Promise<number> {
  const lines = Array.from({ length: count }, (_, i) => `bank/${Math.floor(i / 1000)}/p${i},I,${i}`);
  const started = process.hrtime.bigint();
  const flow = validateFlow({ connections: { vars: { type: 'dummy', parameters: lines } } }, `${process.cwd()}/bench.json5`);
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow, ...(state ? { state } : {}) });
  await hub.start();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (state && hub.graph.get('vars/bank/0/p1')?.value !== -1) throw new Error('the stored values were not restored');
  await hub.stop();
  return ms;
}

export async function measureStateStart(count: number): Promise<StateStartResult> {
  const folder = mkdtempSync(join(tmpdir(), 'patchbay-bench-state-'));
  try {
    const opened = StateStore.open(folder);
    if (!opened.ok) throw opened.error;
    const store = opened.value;
    for (let i = 0; i < count; i++) store.setValue(`vars/bank/${Math.floor(i / 1000)}/p${i}`, -i);
    await store.settled();
    await startMs(count, undefined); // warm-up: modules loaded, code compiled
    const defaultsMs = await startMs(count, undefined);
    const restoredMs = await startMs(count, store);
    const restartMs = await startMs(count, store);
    await store.close();
    return { count, restoredMs, restartMs, defaultsMs };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { count, restoredMs, restartMs, defaultsMs } = await measureStateStart(Number(process.argv[2] ?? 100_000));
  console.log(
    `${count.toLocaleString('en')} parameters: ${restoredMs.toFixed(0)} ms from stored values on new settings (${(restoredMs / defaultsMs).toFixed(2)}×), ` +
      `${restartMs.toFixed(0)} ms on the same settings again (${(restartMs / defaultsMs).toFixed(2)}×), ${defaultsMs.toFixed(0)} ms from defaults`,
  );
}
