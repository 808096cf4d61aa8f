import { basename, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as rx from 'rxjs';
import { isObservable, Subscription } from 'rxjs';
import { isConnectionId } from '../core/address.ts';
import { HubError, reasonOf } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { CodeFlow, FlowApi, FlowOutput } from './flow-api.ts';

export interface CodeFlowsOptions {
  readonly graph: Graph;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** Told of every flow that fails to load, throws, or whose stream errors (a PB_CODE_FLOW error naming the file). */
  readonly failed?: (id: string, error: HubError) => void;
}

/** The id of a flow module: its file name, lower-cased, with other characters as `-`. */
export function flowIdOf(path: string): string {
  return basename(path, extname(path))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64);
}

/**
 * Loads and runs the code flows of a flow file (R-R6), each isolated: a flow that fails to
 * load, throws, or whose Observable errors is reported with its file and stopped; the
 * others run on. Everything a flow returns is owned here and stopped by `stop`.
 */
export class CodeFlows {
  private readonly owned = new Map<string, Subscription>();
  private generation = 0;

  constructor(private readonly options: CodeFlowsOptions) {}

  /** Starts every module in order; resolves with the ids that run. */
  async start(paths: readonly string[]): Promise<string[]> {
    // A new query string makes a reload import the edited module, not the cached one.
    this.generation++;
    const started: string[] = [];
    for (const path of paths) {
      const id = flowIdOf(path);
      const log = this.options.log.child({ connection: id });
      const fail = (message: string, detail = message) => {
        log.error(detail);
        this.options.failed?.(id, new HubError('PB_CODE_FLOW', message));
      };
      if (!isConnectionId(id) || this.owned.has(id) || this.options.graph.hasConnection(id)) {
        fail(`code flow ${path}: its id "${id}" (from the file name) is taken or invalid; rename the file`);
        continue;
      }
      const subscription = new Subscription();
      this.owned.set(id, subscription);
      subscription.add(() => {
        this.options.graph.removeParameters(id);
        this.options.graph.unregisterConnection(id);
      });
      try {
        const module = (await import(`${pathToFileURL(path).href}?v=${this.generation}`)) as { default?: unknown };
        if (typeof module.default !== 'function') throw new Error('its default export is not a function (hub) => …');
        this.options.graph.registerConnection(id);
        const output = await (module.default as CodeFlow)(this.api(id, log));
        this.own(subscription, output, (error) => {
          fail(`code flow ${path} stopped: ${reasonOf(error)}`, `code flow stopped: ${reasonOf(error)}`);
          this.stopOne(id);
        });
        log.info(`code flow ${basename(path)} started`);
        started.push(id);
      } catch (error) {
        fail(`code flow ${path} failed: ${reasonOf(error)}`, `code flow ${path} failed: ${reasonOf(error, { stack: true })}`);
        this.stopOne(id);
      }
    }
    return started;
  }

  /** Stops every flow and removes the parameters they defined. Idempotent. */
  stop(): void {
    for (const id of [...this.owned.keys()]) this.stopOne(id);
  }

  private stopOne(id: string): void {
    const subscription = this.owned.get(id);
    this.owned.delete(id);
    subscription?.unsubscribe();
  }

  private own(into: Subscription, output: FlowOutput, failed: (error: unknown) => void): void {
    if (output === undefined) return;
    if (Array.isArray(output)) {
      for (const item of output as readonly FlowOutput[]) this.own(into, item, failed);
    } else if (isObservable(output)) {
      into.add(output.subscribe({ error: failed }));
    } else if (output instanceof Subscription || typeof output === 'function') {
      into.add(output as Subscription | (() => void));
    } else {
      throw new Error('a flow returns Observables, Subscriptions, teardown functions or a list of them');
    }
  }

  private api(id: string, log: Logger): FlowApi {
    const { graph, scheduler } = this.options;
    return {
      rx,
      id,
      scheduler,
      log,
      parameter: (address) => graph.get(address),
      value: (address) => graph.get(address)?.value,
      watch: (address) => graph.watch(address),
      write: (address, value) => graph.write(address, value, `flow ${id}`),
      define: (parameterId, { type, access = 'read-write', initial }) => {
        const defined = graph.define(id, parameterId, initial === undefined ? { type, access } : { type, access, initial });
        if (!defined.ok) throw defined.error;
        return defined.value;
      },
    };
  }
}
