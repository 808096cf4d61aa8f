/**
 * How a connection's process is started (R-PK4): the child's entry, the hub's own Node
 * options with the process's heap bound, the waits between restarts when it keeps failing,
 * and why it ended, as the connection's reason says it.
 */
import { type ChildProcess } from 'node:child_process';
/** The wait before the n-th restart in a row (n from 1): 1 s three times, then doubling up to 60 s. */
export declare function restartDelayMs(attempt: number): number;
/** How long a process must run before its failures count from the start again. */
export declare const STEADY_MS = 60000;
export declare const DEFAULT_MAX_MEMORY_MB = 512;
/** A new process for a connection, its messages in the structured clone format, its output piped for the log. */
export declare function forkProcess(maxMemoryMb: number): ChildProcess;
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
export declare function exitReason({ hungFor, overMemory, stderr, maxMemoryMb, crash, code, signal }: Ended): string;
