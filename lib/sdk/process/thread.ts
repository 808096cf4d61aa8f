/**
 * A worker thread the hub starts for work off its event loop (R-G4, R-PK1): the module at
 * `entry` run in it, its heap bounded. In a checkout the sources are TypeScript, and Node 20
 * carries neither tsx nor the hub's other `--import` hooks into a thread by itself: the thread
 * registers them before it imports its entry, as the hub's command does for the hub.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type TransferListItem, Worker } from 'node:worker_threads';
import { packageEnvironment } from './processes.ts';

export interface ThreadPlan {
  /** The thread's heap, MiB. */
  readonly heapMb: number;
  /** Handed to the thread as `workerData` (beside what its start needs). */
  readonly workerData?: Readonly<Record<string, unknown>>;
  readonly transferList?: readonly TransferListItem[];
  /** It runs a package's code: it sees what a package's code may see of the hub's environment, and what it prints is dropped. */
  readonly packageCode?: boolean;
}

/** The hub's `--import` hooks other than tsx, as URLs a thread can import. */
function hooks(): string[] {
  return process.execArgv.flatMap((arg, index, all) => {
    const value = arg.startsWith('--import=') ? arg.slice('--import='.length) : arg === '--import' ? all[index + 1] : undefined;
    if (value === undefined || value.includes('tsx')) return [];
    if (value.startsWith('.') || isAbsolute(value)) return [pathToFileURL(resolve(value)).href];
    try {
      return [import.meta.resolve(value)];
    } catch {
      return [];
    }
  });
}

/** What the thread runs first: the loaders, then its entry. A package's prints go nowhere. */
const bootstrap = (quiet: boolean) => `const { workerData } = require('node:worker_threads');
${quiet ? 'process.stdout.write = process.stderr.write = () => true;' : ''}
(async () => {
  if (workerData.thread.tsx) (await import(workerData.thread.tsx)).register();
  for (const hook of workerData.thread.hooks) await import(hook);
  await import(workerData.thread.entry);
})();`;

/** Starts a thread running `entry` (its `.ts` in a checkout, its `.js` once built). */
export function startThread(entry: URL, plan: ThreadPlan): Worker {
  const tsx = entry.pathname.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : undefined;
  return new Worker(bootstrap(plan.packageCode === true), {
    eval: true,
    execArgv: [],
    workerData: { ...plan.workerData, thread: { tsx, hooks: hooks(), entry: entry.href } },
    ...(plan.transferList ? { transferList: [...plan.transferList] } : {}),
    ...(plan.packageCode ? { env: packageEnvironment() } : {}),
    resourceLimits: { maxOldGenerationSizeMb: plan.heapMb },
  });
}
