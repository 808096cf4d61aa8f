/**
 * What a process may hold beyond its `maxMemoryMb` of heap before it is killed, in MB: Node
 * itself, its code, buffers and stacks (a process of a checkout, whose TypeScript is compiled
 * as it loads, starts at some 150 MB).
 */
export declare const MEMORY_MARGIN_MB = 256;
/** The resident memory of process `pid` in MB, or undefined when it cannot be read. */
export declare function residentMb(pid: number): number | undefined;
