import type { Flow } from './config/flow-file.ts';
import { ConnectionRunner } from './connections/runner.ts';
import { Graph } from './core/graph.ts';
import { type Logger, silentLogger } from './core/log.ts';
import { realTime, type Scheduler } from './core/scheduler.ts';

export interface HubOptions {
  readonly flow: Flow;
  readonly scheduler?: Scheduler;
  readonly log?: Logger;
}

/**
 * The running hub: the graph and the connections of one flow. Connections start in flow
 * order, each isolated from the others' failures, and stop in reverse order (R-L3).
 */
export class Hub {
  readonly graph = new Graph();
  readonly connections: readonly ConnectionRunner[];
  readonly log: Logger;
  private stopping: Promise<void> | undefined;
  private readonly flow: Flow;

  constructor({ flow, scheduler = realTime, log = silentLogger }: HubOptions) {
    this.log = log;
    this.flow = flow;
    this.connections = flow.connections.map(
      (config) =>
        new ConnectionRunner(config, {
          graph: this.graph,
          scheduler,
          log,
          baseDir: flow.baseDir,
          connections: () => this.connections.map((c) => c.info),
        }),
    );
  }

  connection(id: string): ConnectionRunner | undefined {
    return this.connections.find((c) => c.id === id);
  }

  async start(): Promise<void> {
    if (this.flow.rules.length > 0 || this.flow.flows.length > 0) {
      this.log.warn('this build validates rules and code flows but does not run them yet');
    }
    for (const connection of this.connections) await connection.start();
    const failed = this.connections.filter((c) => c.status.status === 'failed').length;
    this.log.info(
      `running: ${this.connections.length} connection${this.connections.length === 1 ? '' : 's'}, ` +
        `${this.graph.size} parameters${failed ? `, ${failed} failed` : ''}`,
    );
  }

  /** Stops every connection in reverse start order. Idempotent; later calls share the first. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const connection of [...this.connections].reverse()) await connection.stop();
      this.log.info('stopped');
    })();
    return this.stopping;
  }
}
