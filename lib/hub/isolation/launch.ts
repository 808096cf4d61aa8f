/**
 * How a connection's process is started (R-PK4): the child's entry and the hub's own Node
 * options. Its lifecycle — the channel read by the hub, its memory and answers watched, why it
 * ended, the restarts — is the process kit's (sdk/process/).
 */
import { ownEntry } from '../../sdk/process/processes.ts';

const childEntry = ownEntry('./child.ts', import.meta.url);

/**
 * The longest message taken from a process: a table of parameters, or a turn's changes, run
 * to megabytes.
 */
export const MOST_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * How the process runs: the hub's own Node options (less its heap bound: the process has its
 * own), and, in a checkout (the sources are TypeScript), tsx's loader, which the command
 * registers in the hub alone.
 */
function execArgv(): string[] {
  const own = process.execArgv.filter((arg) => !arg.startsWith('--max-old-space-size'));
  const loader = own.some((arg) => arg.includes('tsx')) ? [] : childEntry.loader;
  return [...own, ...loader];
}

/** What the process kit starts for a connection: the entry, and the Node options it runs with. */
export function childPlan(): { readonly main: string; readonly execArgv: readonly string[] } {
  return { main: childEntry.file, execArgv: execArgv() };
}
