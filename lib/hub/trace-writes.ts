/**
 * Debug lines of writes: which writes the hub logs at debug level, each with its origin, for
 * `--log-level debug` and for the connections marked `debug: true`.
 */
import type { Flow } from '../config/flow-file.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import { toWire } from '../core/value.ts';

/**
 * Debug lines for every write and report with its origin: all of them at `--log-level
 * debug`, those of connections with `debug: true` otherwise. Without either, no tracer is
 * set and a write pays one check.
 */
export function traceWrites(graph: Graph, flow: Flow, hubLog: Logger): void {
  const everything = hubLog.isLevelEnabled('debug');
  const chosen = new Set(flow.connections.filter((c) => c.common.debug).map((c) => c.id));
  if (!everything && chosen.size === 0) {
    graph.hooks.traceWith('hub', undefined);
    return;
  }
  const loggers = new Map<string, Logger>();
  graph.hooks.traceWith('hub', (parameter, value, origin, changed) => {
    const id = parameter.connectionId;
    if (!everything && !chosen.has(id)) return;
    let log = loggers.get(id);
    if (!log) loggers.set(id, (log = hubLog.child({ connection: id }, { level: 'debug' })));
    const text = parameter.type === 'T' ? 'fired' : `= ${JSON.stringify(toWire(value))}${changed ? '' : ' (unchanged)'}`;
    log.debug(`${parameter.address} ${text} by ${origin ?? 'its connection'}`);
  });
}
