/**
 * How a connection's process is started (R-PK4): the child's entry, the hub's own Node
 * options with the process's heap bound, and why it ended, as the connection's reason says
 * it. The waits between restarts and the memory bound are core/processes.ts, shared with
 * the processes connections run themselves.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { MEMORY_MARGIN_MB, ownEntry, packageEnvironment } from '../../core/processes.ts';

const childEntry = ownEntry('./child.ts', import.meta.url);

/**
 * How the process runs: the hub's own Node options, its heap bound, and, in a checkout (the
 * sources are TypeScript), tsx's loader, which the command registers in the hub alone.
 */
function execArgvFor(maxMemoryMb: number): string[] {
  const own = process.execArgv.filter((arg) => !arg.startsWith('--max-old-space-size'));
  const loader = own.some((arg) => arg.includes('tsx')) ? [] : childEntry.loader;
  return [...own, ...loader, `--max-old-space-size=${maxMemoryMb}`];
}

/** A new process for a connection, its messages in the structured clone format, its output piped for the log. */
export function forkProcess(maxMemoryMb: number): ChildProcess {
  return fork(childEntry.file, [], {
    execArgv: execArgvFor(maxMemoryMb),
    // What a package sees of the hub's environment: not its tokens (core/processes.ts).
    env: packageEnvironment(),
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
}

/** What is known of a process that ended. */
export interface Ended {
  /** Set when the hub killed it for not answering within this many milliseconds. */
  readonly hungFor: number | undefined;
  /** Set when the hub killed it for holding this many MB, past `maxMemoryMb` and the margin. */
  readonly overMemory: number | undefined;
  /** The end of what it wrote to stderr. */
  readonly stderr: string;
  readonly maxMemoryMb: number;
  /** What it threw, as it told the hub before it died. */
  readonly crash: string | undefined;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Why the process ended, most telling first: a hang, its heap, what it threw, a signal, its exit code. */
export function exitReason({ hungFor, overMemory, stderr, maxMemoryMb, crash, code, signal }: Ended): string {
  if (hungFor !== undefined) return `its process did not answer for ${hungFor} ms (hangMs) and was killed`;
  if (overMemory !== undefined)
    return `its process held ${overMemory} MB, more than its ${maxMemoryMb} MB (maxMemoryMb) and ${MEMORY_MARGIN_MB} MB for Node itself, and was killed`;
  if (/heap out of memory|Reached heap limit/i.test(stderr))
    return `its process used more than its ${maxMemoryMb} MB of heap (maxMemoryMb) and was stopped`;
  if (crash !== undefined) return `its process failed: ${crash}`;
  if (signal) return `its process was killed (${signal})`;
  return `its process exited with code ${code}`;
}
