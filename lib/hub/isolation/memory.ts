/**
 * The memory a connection's process holds as a whole, as the hub reads it (R-PK4's
 * `maxMemoryMb`): V8's heap limit bounds only the heap, and a leak of Buffers or of native
 * memory grew past it unstopped. The hub reads the process's resident set from
 * /proc/<pid>/status itself rather than asking the process, which runs a package's code
 * and could answer anything. Where there is no /proc (macOS, Windows) only the heap is bound.
 */
import { readFileSync } from 'node:fs';

/**
 * What a process may hold beyond its `maxMemoryMb` of heap before it is killed, in MB: Node
 * itself, its code, buffers and stacks (a process of a checkout, whose TypeScript is compiled
 * as it loads, starts at some 150 MB).
 */
export const MEMORY_MARGIN_MB = 256;

/** The resident memory of process `pid` in MB, or undefined when it cannot be read. */
export function residentMb(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
}
