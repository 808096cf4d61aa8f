/**
 * What the hub does about a process it runs — a connection's own (R-PK4) or a device
 * program a connection runs (a Companion module, R-CM2): what of the hub's environment it
 * sees, when to start it again after it ended, and how much memory it may hold. The hub reads a process's resident set from
 * /proc/<pid>/status itself rather than asking the process, which runs someone else's code
 * and could answer anything; V8's heap limit alone bounds only the heap, and a leak of
 * Buffers or of native memory grows past it unstopped. Where there is no /proc (macOS,
 * Windows) only the heap is bound.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The wait before the n-th restart in a row (n from 1): 1 s three times, then doubling up to 60 s. */
export function restartDelayMs(attempt: number): number {
  return attempt <= 3 ? 1000 : Math.min(60_000, 1000 * 2 ** (attempt - 3));
}

/** How long a process must run before its failures count from the start again. */
export const STEADY_MS = 60_000;

/**
 * The backoff of a process started again each time it ends: its ends in a row, counted from
 * the start again once one ran STEADY_MS, give the wait before the next start.
 */
export class Restarts {
  private ends = 0;
  private startedAt = 0;

  started(now: number): void {
    this.startedAt = now;
  }

  /** A process ended (or could not start): the wait before the next start, and which end in a row this is. */
  ended(now: number): { readonly delay: number; readonly attempt: number } {
    if (now - this.startedAt >= STEADY_MS) this.ends = 0;
    this.ends += 1;
    return { delay: restartDelayMs(this.ends), attempt: this.ends };
  }
}

/** The heap a process may use by default, in MB (`maxMemoryMb`). */
export const DEFAULT_MAX_MEMORY_MB = 512;

/**
 * What a process may hold beyond its `maxMemoryMb` of heap before it is killed, in MB: Node
 * itself, its code, buffers and stacks (a process of a checkout, whose TypeScript is compiled
 * as it loads, starts at some 150 MB).
 */
export const MEMORY_MARGIN_MB = 256;

/**
 * The resident memory of process `pid` and of the processes it started (a wrapper's child, a
 * module's helpers) in MB, or undefined when it cannot be read.
 */
export function residentMb(pid: number): number | undefined {
  const kb = residentKb(pid, 0);
  return kb === undefined ? undefined : Math.round(kb / 1024);
}

/** Processes deep below one whose memory is read: a tree deeper than this is no program's. */
const DEEPEST = 8;

function residentKb(pid: number, depth: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const own = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (own === undefined) return undefined;
  let kb = Number(own);
  if (depth < DEEPEST) for (const child of childrenOf(pid)) kb += residentKb(child, depth + 1) ?? 0;
  return kb;
}

/** The processes `pid` started, as its main thread's `children` lists them; none when unreadable. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * What a package's code sees of the hub's environment, in the thread that reads its types and
 * in the processes that run its connections and modules: the variables a program needs to run
 * and to find its locale and temporary folder, and nothing else. The hub's own variables
 * (tokens and passwords a flow file fills in with `${NAME}`, NODE_OPTIONS) stay in the hub: a
 * package gets what it needs through its connection's settings.
 */
const passed = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'NODE_ENV',
  'SYSTEMROOT',
  'SystemRoot',
  'WINDIR',
  'PATHEXT',
  'COMSPEC',
];

/** The environment a package's code runs with, from the hub's. */
export function packageEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (passed.includes(name) || name.startsWith('LC_'))) out[name] = value;
  }
  return out;
}

/**
 * A process started from a file beside the code that starts it: `name` as written in the
 * sources (`./child.ts`), `from` that code's `import.meta.url`. Gives the file to start and the
 * Node options it needs: run from TypeScript sources (a checkout), tsx's loader reads them;
 * built (the package), the file is the `.js` beside and needs nothing.
 */
export function ownEntry(name: string, from: string): { readonly file: string; readonly loader: readonly string[] } {
  const fromSources = from.endsWith('.ts');
  const file = fileURLToPath(new URL(fromSources ? name : name.replace(/\.ts$/, '.js'), from));
  return { file, loader: fromSources ? [`--import=${import.meta.resolve('tsx')}`] : [] };
}

/**
 * What runs a program in a private view of the machine's processes (Linux namespaces of its
 * own: user, mount, PID, with its own /proc): it sees no other process, so not the hub's
 * environment in /proc/<hub>/environ; its helpers end with it; it keeps the hub's user, files
 * and network. `unshare` from util-linux, as an unprivileged user; it costs some 1 ms at a
 * start of 55. Undefined where it cannot run (no `unshare`, user namespaces refused, as in a
 * container by default): found out once, then the same answer.
 */
export function privateView(): readonly string[] | undefined {
  if (viewChecked) return view;
  viewChecked = true;
  const wrapper = ['unshare', '--user', '--map-current-user', '--mount', '--pid', '--fork', '--mount-proc', '--kill-child'];
  const tried = spawnSync(wrapper[0] as string, [...wrapper.slice(1), 'true'], { stdio: 'ignore', timeout: 5000 });
  view = tried.status === 0 ? wrapper : undefined;
  return view;
}

let viewChecked = false;
let view: readonly string[] | undefined;
