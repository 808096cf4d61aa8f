import { basename } from 'node:path';
import * as rx from 'rxjs';
import { isObservable, Observable, Subscription } from 'rxjs';
import { isConnectionId } from '../../core/address.ts';
import { HubError, reasonOf } from '../../core/errors.ts';
import type { Graph } from '../../core/graph.ts';
import type { Logger } from '../../core/log.ts';
import type { OwnedParameter, SetResult } from '../../core/parameter.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import type { Value } from '../../core/value.ts';
import type { CodeFlow, FlowApi, FlowOutput } from '../flow-api.ts';
import { describeLoop, Loop, type LoopGuard } from '../loop-guard.ts';
import { flowIdOf } from './flow-id.ts';
import { FlowParameter, type Guarded, OwnedFlowParameter } from './flow-parameter.ts';
import { loadFailure, ModuleLoader } from './module-loader.ts';
import { current, type RunningFlow, within } from './running-flow.ts';
import { answeredBy } from './write-handler.ts';

export interface CodeFlowsOptions {
  readonly graph: Graph;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /**
   * The hub's loop guard (R-R5), shared with the rules: every write of a flow goes through
   * it, so a flow that writes what it watches is cut like a loop of rules.
   */
  readonly guard: LoopGuard;
  /**
   * Told of every problem of a flow, as a HubError naming its file: PB_CODE_FLOW when it
   * fails to load, throws (at start, from a timer, by a rejection nobody handles) or its
   * stream errors, and it is stopped; PB_FEEDBACK_LOOP when one of its writes was cut.
   */
  readonly report?: (id: string, error: HubError) => void;
  /**
   * Told when the flows loaded one more file: tsx tells of ES modules by message, so some
   * arrive after the import that loaded them resolved (see `files`).
   */
  readonly loaded?: () => void;
}

/** A flow `load` imported (or failed to), waiting for `run`. */
interface Pending {
  readonly id: string;
  readonly path: string;
  readonly log: Logger;
  readonly report: (error: HubError, thrown?: unknown) => void;
  readonly flow: RunningFlow;
  module?: { default?: unknown };
  failure?: HubError;
}

/**
 * Loads and runs the code flows of a flow file (R-R6), each isolated: a flow that fails to
 * load, throws, or whose Observable errors is reported with its file and stopped; the
 * others run on. Everything a flow returns is owned here and stopped by `stop`.
 */
export class CodeFlows {
  private readonly owned = new Map<string, { readonly flow: RunningFlow; readonly subscription: Subscription }>();
  /** How many watches of each flow wait for each address that has no parameter yet (R-G2). */
  private readonly waitingFor = new Map<string, Map<string, number>>();
  private loader: ModuleLoader | undefined;
  /** What `load` imported, for `run`. */
  private readonly pending: Pending[] = [];

  constructor(private readonly options: CodeFlowsOptions) {}

  /** Starts every module in order; resolves with the ids that run. */
  async start(paths: readonly string[]): Promise<string[]> {
    await this.load(paths);
    return this.run();
  }

  /**
   * Imports the modules of `paths` afresh, in a loader of their own, and runs none of them
   * yet (`run` does): so a hub can learn that an edited flow does not load while the old one
   * still runs. Resolves with the flows that failed to load, by id, with why.
   */
  async load(paths: readonly string[]): Promise<ReadonlyMap<string, HubError>> {
    const failures = new Map<string, HubError>();
    if (paths.length === 0) return failures; // no loader hooks for flow files without code flows
    const loader = (this.loader = await ModuleLoader.open(() => this.options.loaded?.()));
    for (const path of paths) {
      const id = flowIdOf(path);
      const log = this.options.log.child({ connection: id });
      // The log line carries the stack of what was thrown, the problem only its message.
      const report = (error: HubError, thrown?: unknown) => {
        const stack = thrown instanceof Error ? thrown.stack?.split('\n').slice(1).join('\n') : undefined;
        log.error(stack ? `${error.message}\n${stack}` : error.message);
        this.options.report?.(id, error);
      };
      const flow: RunningFlow = {
        id,
        path,
        stopped: false,
        fail: (error) => {
          if (flow.stopped) return;
          report(new HubError('PB_CODE_FLOW', `code flow ${path} stopped: ${reasonOf(error)}`), error);
          flow.stopped = true;
          this.stopOne(id);
        },
      };
      const pending: Pending = { id, path, log, report, flow };
      this.pending.push(pending);
      if (!isConnectionId(id)) continue; // `run` says so
      try {
        pending.module = (await current.run(flow, () => loader.import(path))) as { default?: unknown };
      } catch (error) {
        pending.failure = new HubError(
          'PB_CODE_FLOW',
          `code flow ${path} failed to load: ${loadFailure(error, [...loader.files().slice(-1), path])}`,
        );
        failures.set(id, pending.failure);
      }
    }
    return failures;
  }

  /** Runs what `load` imported, in order, reporting those that did not load; resolves with the ids that run. */
  async run(): Promise<string[]> {
    const started: string[] = [];
    for (const { id, path, log, report, flow, module, failure } of this.pending.splice(0)) {
      if (flow.stopped) continue; // failed while loading, and reported
      if (!isConnectionId(id) || this.owned.has(id) || this.options.graph.hasConnection(id)) {
        report(new HubError('PB_CODE_FLOW', `code flow ${path}: its id "${id}" (from the file name) is taken or invalid; rename the file`));
        flow.stopped = true;
        continue;
      }
      if (failure || !module) {
        if (failure) report(failure);
        flow.stopped = true;
        continue;
      }
      const subscription = new Subscription();
      this.owned.set(id, { flow, subscription });
      subscription.add(() => {
        this.options.graph.removeParameters(id);
        this.options.graph.unregisterConnection(id);
      });
      try {
        const main = defaultExport(module);
        if (typeof main !== 'function') throw new Error('its default export is not a function (hub) => …');
        this.options.graph.registerConnection(id);
        const output = await current.run(flow, () => (main as CodeFlow)(this.api(flow, log, report)));
        current.run(flow, () => this.own(subscription, output, flow.fail));
        log.info(`code flow ${basename(path)} started`);
        started.push(id);
      } catch (error) {
        report(new HubError('PB_CODE_FLOW', `code flow ${path} failed: ${reasonOf(error)}`), error);
        this.stopOne(id);
      }
    }
    return started;
  }

  /** The ids of the flows that run now. */
  running(): string[] {
    return [...this.owned.keys()];
  }

  /**
   * The files the running flows were loaded from, with the local modules they import, as
   * far as known: an ES module may be told of just after its flow started (`loaded`).
   */
  files(): string[] {
    return this.loader?.files() ?? [];
  }

  /**
   * What the running flows watch that does not exist yet (R-G2): one entry per flow and
   * address, with the code PB_WAITING, until a parameter appears there or the watch ends.
   */
  waiting(): { readonly id: string; readonly code: 'PB_WAITING'; readonly message: string }[] {
    return [...this.waitingFor].flatMap(([id, addresses]) =>
      [...addresses.keys()].map((address) => ({
        id,
        code: 'PB_WAITING' as const,
        message: `code flow ${this.owned.get(id)?.flow.path ?? id} watches ${address}, which does not exist yet (${this.options.graph.whyMissing(address)})`,
      })),
    );
  }

  /** `Graph.watch`, counted in `waiting` while no parameter is at the address. */
  private watched(flow: RunningFlow, address: string): Observable<Value | undefined> {
    const { graph } = this.options;
    return new Observable<Value | undefined>((subscriber) => {
      let counted = false;
      const count = (missing: boolean) => {
        if (missing === counted) return;
        counted = missing;
        const addresses = this.waitingFor.get(flow.id) ?? new Map<string, number>();
        const n = (addresses.get(address) ?? 0) + (missing ? 1 : -1);
        if (n > 0) addresses.set(address, n);
        else addresses.delete(address);
        if (addresses.size > 0) this.waitingFor.set(flow.id, addresses);
        else this.waitingFor.delete(flow.id);
      };
      const stop = graph.follow(address, (parameter) => count(parameter === undefined));
      const values = graph.watch(address).subscribe(subscriber);
      return () => {
        stop();
        values.unsubscribe();
        count(false);
      };
    });
  }

  /** Stops every flow and removes the parameters they defined; forgets what `load` loaded. Idempotent. */
  stop(): void {
    for (const { flow } of this.pending.splice(0)) flow.stopped = true;
    for (const id of [...this.owned.keys()]) this.stopOne(id);
    this.loader?.close();
    this.loader = undefined;
  }

  private stopOne(id: string): void {
    const owned = this.owned.get(id);
    this.owned.delete(id);
    if (owned) owned.flow.stopped = true;
    owned?.subscription.unsubscribe();
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

  private api(flow: RunningFlow, log: Logger, report: (error: HubError, thrown?: unknown) => void): FlowApi {
    const { graph, scheduler, guard } = this.options;
    const origin = `flow ${flow.id}`;
    // Every write of the flow passes the loop guard: a write that would close a loop is
    // refused, with the result saying so, and reported once per cascade.
    const guarded: Guarded = (address, write) => {
      const mark = guard.enter(guard.point(address));
      if (typeof mark === 'number') {
        try {
          return write();
        } finally {
          guard.leave(mark);
        }
      }
      const error = new HubError('PB_FEEDBACK_LOOP', describeLoop(mark));
      if (mark !== Loop.quiet) report(new HubError('PB_FEEDBACK_LOOP', `code flow ${flow.path}: ${error.message}`));
      return { ok: false, error };
    };
    return {
      rx,
      id: flow.id,
      scheduler,
      log,
      parameter: (address) => {
        const found = graph.get(address);
        return found && new FlowParameter(found, flow, guarded, origin);
      },
      value: (address) => graph.get(address)?.value,
      watch: (address) => within(flow, this.watched(flow, address)),
      write: (address, value) => guarded(address, () => graph.write(address, value, origin)),
      writeConfirmed: (address, value) =>
        new Promise<SetResult>((resolve) => {
          // Only a parameter written through (a device's, another hub's) answers later; the others have answered.
          const later = graph.get(address)?.answersLater === true;
          const written = guarded(address, () => graph.write(address, value, origin, resolve));
          if (!written.ok || !later) resolve(written);
        }),
      define: (parameterId, { type, access = 'read-write', initial, onWrite, meta }) => {
        let owned: OwnedParameter | undefined;
        // A parameter whose writes the flow answers is this hub's own, answered later as a device's is.
        const answered = onWrite && { ownedHere: true, forward: answeredBy(onWrite, flow, (value, by) => owned?.report(value, by)) };
        const defined = graph.define(flow.id, parameterId, {
          type,
          access,
          ...(initial === undefined ? {} : { initial }),
          ...(meta === undefined ? {} : { meta }),
          ...answered,
        });
        if (!defined.ok) throw defined.error;
        owned = defined.value;
        return new OwnedFlowParameter(defined.value, flow, guarded, origin);
      },
    };
  }
}

/**
 * A module's default export as the flow: `export default` of an ES module, or
 * `module.exports` of a CommonJS one (which Node hands over as `default`), also when that is
 * itself a transpiled ES module carrying `default`.
 */
function defaultExport(module: { default?: unknown }): unknown {
  const main = module.default;
  if (main !== null && typeof main === 'object' && typeof (main as { default?: unknown }).default === 'function')
    return (main as { default: unknown }).default;
  return main;
}
