/**
 * Debug lines of writes: which writes the hub logs at debug level, each with its origin, for
 * `--log-level debug` and for the connections marked `debug: true`.
 */
import type { Flow } from '../config/flow-file.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
/**
 * Debug lines for every write and report with its origin: all of them at `--log-level
 * debug`, those of connections with `debug: true` otherwise. Without either, no tracer is
 * set and a write pays one check.
 */
export declare function traceWrites(graph: Graph, flow: Flow, hubLog: Logger): void;
