/**
 * The hub's side of a connection in a process of its own (R-PK4). It forks the process,
 * defines in the hub the parameters the process defines, and mirrors their changes with who
 * made them (R-PK5); writes go to the process and are answered with its answer. When the
 * process exits, throws, is killed, runs out of its heap or stops answering pings, the
 * connection is `failed` with the reason, its parameters keep their last values (writes are
 * refused with PB_DEVICE_UNAVAILABLE), and a new process starts after a backoff: 1 s three
 * times, then doubling up to 60 s. The hub and every other connection carry on.
 */
import type { Subscription } from 'rxjs';
import { fail, HubError, ok, reasonOf } from '../../core/errors.ts';
import type { Answered, ParameterSpec } from '../../core/parameter.ts';
import { after, every } from '../../core/scheduler.ts';
import type { Value } from '../../core/value.ts';
import type { ConnectionConfig, ConnectionInstance, ConnectionPlan } from '../../connections/connection.ts';
import type { IsolationHooks } from '../../connections/runner.ts';
import { ChildLink, type Watch } from '../../sdk/process/child-link.ts';
import { DEFAULT_MAX_MEMORY_MB } from '../../sdk/process/processes.ts';
import { type Run, Supervisor } from '../../sdk/process/supervisor.ts';
import type { StopReason } from '../../sdk/type.ts';
import { OutputBudget } from './child-output.ts';
import { childPlan, MOST_MESSAGE_BYTES } from './launch.ts';
import { Mirror } from './mirror.ts';
import { installedAnew } from '../../config/plugins.ts';
import { type DefinedSpec, type FenceState, type FromChild, fromChildOf, type ToChild, type WireError } from './messages.ts';

/** How long a stopping process has to stop before it is killed. */
const STOP_GRACE_MS = 2000;
const DEFAULT_HANG_MS = 5000;
/** How often the hub looks at its fence for the process, and at the process's answers. */
const FENCE_CHECK_MS = 100;
/**
 * How long a new process may leave pings unanswered until its instance has started: loading
 * Node, the hub's code and then the type's (compiled on first import, after the process
 * first answered) takes seconds on a busy machine, and is no hang of the type's.
 */
const STARTING_MS = 60_000;

export class IsolatedConnection implements ConnectionInstance {
  private link: ChildLink | undefined;
  /** True once the current process has started its instance. */
  private up = false;
  private readonly supervisor: Supervisor;
  private fenceTimer: Subscription | undefined;
  private pings = 0;
  private reportedDetails: Readonly<Record<string, unknown>> | undefined;
  /** Why the last process ended, while none runs. */
  private down = 'it has not started yet';
  /** Its parameters in the hub, kept across processes so their values stay readable. */
  private readonly mirror: Mirror;
  private nextWrite = 0;
  private readonly pending = new Map<number, Answered>();
  private nextUpdate = 0;
  /** Updates sent to the process, by number: each settled by its answer, its end, or `hangMs`. */
  private readonly updating = new Map<number, (taken: boolean, error?: WireError) => void>();
  private fence: FenceState;
  private readonly hangMs: number;
  private readonly maxMemoryMb: number;

  constructor(
    private config: ConnectionConfig,
    private readonly hooks: IsolationHooks,
  ) {
    this.hangMs = config.common.hangMs ?? DEFAULT_HANG_MS;
    this.maxMemoryMb = config.common.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB;
    this.fence = this.fenceState();
    this.mirror = new Mirror(config.id, hooks.context, (parameterId, spec) => this.hubSpec(parameterId, spec));
    const { context } = hooks;
    this.supervisor = new Supervisor({
      scheduler: context.scheduler,
      run: () => this.run(),
      down: (error, next) => {
        this.up = false;
        this.down = error.message;
        this.answerPending(error.message);
        hooks.failed(error);
        if (next) context.log.warn(`${error.message}; starting it again in ${next.delay / 1000} s (attempt ${next.attempt})`);
      },
    });
  }

  /** Resolves once the first process has started its instance, or failed to (then a restart waits). */
  start(): Promise<void> {
    return this.supervisor.start();
  }

  async stop(reason: StopReason = 'stop'): Promise<void> {
    this.supervisor.stop();
    this.fenceTimer?.unsubscribe();
    this.answerPending('its connection is stopping');
    await this.link?.stop(() => this.link?.send({ t: 'stop', reason } satisfies ToChild), STOP_GRACE_MS);
  }

  /**
   * New settings while it runs (a reload): the instance in its process takes them in place
   * when its type has `update`; false (no `update`, declined, no process, no answer within
   * `hangMs`) has the runner restart it; an `update` that throws fails it. The settings taken
   * are the ones a later process starts with.
   */
  update(plan: ConnectionPlan): Promise<boolean> {
    const link = this.link;
    if (!link?.running || !this.up) return Promise.resolve(false);
    const n = this.nextUpdate++;
    return new Promise((resolve, reject) => {
      const timer = after(this.hooks.context.scheduler, this.hangMs, () => this.updating.get(n)?.(false));
      this.updating.set(n, (taken, error) => {
        timer.unsubscribe();
        this.updating.delete(n);
        if (error) return reject(new HubError(error.code, error.message));
        if (taken) this.config = { ...this.config, plan };
        resolve(taken);
      });
      link.send({ t: 'update', n, settings: plan.written } satisfies ToChild);
    });
  }

  details(): Readonly<Record<string, unknown>> {
    const pid = this.link?.pid;
    return { ...this.reportedDetails, process: pid && this.up ? { pid } : { down: this.down } };
  }

  /** One process: started, given the connection, ready once its instance has started. */
  private async run(): Promise<Run> {
    const { config, hooks } = this;
    const { id, plan, common } = config;
    const { scheduler } = hooks.context;
    this.up = false;
    // A package installed again since the hub loaded it: its new code does not run under what
    // the hub loaded (R-PK9); it is tried again with the backoff, and a reload loads it.
    const anew = plan.origin && installedAnew(plan.origin);
    if (anew) throw new HubError('PB_PLUGIN_CHANGED', anew);
    this.mirror.newProcess();
    let reported = false;
    let started: (() => void) | undefined;
    let startFailed: HubError | undefined;
    const output = new OutputBudget(hooks.context.log, () => scheduler.now());
    const link: ChildLink = ChildLink.start(
      {
        ...childPlan(),
        maxMemoryMb: this.maxMemoryMb,
        memorySetting: 'maxMemoryMb',
        called: 'its process',
        maxMessageBytes: MOST_MESSAGE_BYTES,
      },
      {
        message: (raw) => {
          if (this.link !== link) return;
          const message = fromChildOf(raw);
          if (typeof message === 'string') return refuse(`sent ${message}`);
          try {
            take(message);
          } catch (error) {
            refuse(`sent a "${message.t}" message the hub could not take: ${reasonOf(error)}`);
          }
        },
        output: (line, level) => output.output(line, level),
      },
      scheduler,
    );
    this.link = link;
    // The process runs a package's code, which may send anything: a message of no known shape,
    // or one the hub fails to take, ends the process (and fails the connection), not the hub.
    const refuse = (reason: string) => {
      hooks.context.log.warn(`its process ${reason}: killing it`);
      link.kill(`its process failed: ${reason}`);
    };
    const take = (message: FromChild) => {
      switch (message.t) {
        case 'started':
          this.up = true;
          // It answers again: it is held to its hangMs from now on.
          link.watchWith(this.watch(link, this.hangMs));
          this.mirror.removeUndefined();
          if (!reported) hooks.context.setStatus('ok');
          started?.();
          return;
        case 'failed':
          startFailed = new HubError(message.error.code, message.error.message);
          link.kill(message.error.message);
          return;
        case 'crash':
          link.failedWith(message.reason);
          if (message.stack) hooks.context.log.error(`its process failed: ${message.stack}`);
          return;
        case 'status':
          reported = true;
          if (message.status === 'degraded' || message.status === 'failed')
            hooks.context.setStatus(message.status, message.reason, message.code ?? 'PB_START_FAILED');
          else if (message.status === 'ok' || message.status === 'connecting' || message.status === 'disabled')
            hooks.context.setStatus(message.status, message.reason, message.code);
          return;
        case 'problem':
          hooks.context.problem(message.part, message.code ? { code: message.code, message: message.message ?? '' } : undefined);
          return;
        case 'pong':
          this.reportedDetails = message.details;
          return;
        case 'log':
          output.line(message.line);
          return;
        default:
          this.receive(link, message);
      }
    };
    // Loading Node, the hub's code and then the type's (compiled on first import) takes seconds
    // on a busy machine, and is no hang of the type's: until it has started, it has longer.
    link.watchWith(this.watch(link, Math.max(this.hangMs, STARTING_MS)));
    // Every 100 ms: the fence's changes go to the process, and what it wrote too much of is counted.
    this.fenceTimer?.unsubscribe();
    this.fenceTimer = every(scheduler, FENCE_CHECK_MS, () => {
      output.flush();
      this.sendFence(link);
    });
    link.send({
      t: 'start',
      module: plan.origin?.module,
      type: plan.type,
      id,
      baseDir: hooks.context.baseDir,
      filesFolder: hooks.context.filesFolder,
      settings: plan.written,
      // What the hub keeps of it, as a restart of the hub would give it: the values of its kept
      // parameters (the others start as the type defines them).
      values: this.mirror.kept(),
      records: hooks.records(),
      debug: common.debug,
      fence: this.fence,
    } satisfies ToChild);
    hooks.context.whenRunning(() => {
      if (this.link === link) link.send({ t: 'running' } satisfies ToChild);
    });
    void link.ended.then(() => {
      if (this.link === link) this.fenceTimer?.unsubscribe();
    });
    const ready = new Promise<boolean>((resolve) => (started = () => resolve(true)));
    if (!(await Promise.race([ready, link.ended.then(() => false)])))
      // A start that failed ended the process: the connection shows that failure, with its own code.
      throw startFailed ?? new HubError('PB_PROCESS_ENDED', await link.ended);
    return link;
  }

  /** How the process is held to answering: pinged a few times within `hangMs`. */
  private watch(link: ChildLink, hangMs: number): Watch {
    return { hangMs, hangSetting: 'hangMs', ping: () => link.send({ t: 'ping', n: this.pings++ } satisfies ToChild) };
  }

  private sendFence(link: ChildLink): void {
    const fence = this.fenceState();
    if (fence.holds !== this.fence.holds || fence.epoch !== this.fence.epoch) {
      this.fence = fence;
      link.send({ t: 'fence', fence } satisfies ToChild);
    }
  }

  private fenceState(): FenceState {
    const { fence } = this.hooks.context;
    const holds = fence.holds();
    return { holds, epoch: fence.epoch, refusal: holds ? '' : fence.refusal().message };
  }

  /** What the process tells of its parameters and records. */
  private receive(link: ChildLink, message: FromChild): void {
    const { context } = this.hooks;
    switch (message.t) {
      case 'define':
        this.mirror.define(message.id, message.spec);
        return;
      case 'table':
        this.mirror.defineTable(message.rows);
        return;
      case 'remove':
        this.mirror.remove(message.id);
        return;
      case 'describe':
        this.mirror.describe(message.id, message.meta);
        return;
      case 'values':
        for (const [id, value, by] of message.changes) this.mirror.report(id, value, by);
        link.send({ t: 'taken' } satisfies ToChild);
        return;
      case 'record':
        context.records.set(message.key, message.value);
        return;
      case 'answer': {
        const answered = this.pending.get(message.n);
        this.pending.delete(message.n);
        const { error } = message;
        answered?.(
          error ? { ok: false, error: new HubError(error.code, error.message, { declared: error.declared }) } : ok(message.changed),
        );
        return;
      }
      case 'updated':
        this.updating.get(message.n)?.(message.taken, message.error);
        return;
      case 'settle': {
        const reply = () => link.send({ t: 'settled', n: message.n } satisfies ToChild);
        if (context.settled) context.settled(reply);
        else reply();
        return;
      }
      default:
        return;
    }
  }

  /** The hub's parameter for one of the process's: its writes go to the process, answered with its answer. */
  private hubSpec(parameterId: string, { type, access, persist, value, meta }: DefinedSpec): ParameterSpec {
    return {
      type,
      access,
      persist,
      ...(meta === undefined ? {} : { meta }),
      ...(value === undefined ? {} : { initial: value }),
      ...(access === 'read-only'
        ? {}
        : {
            ownedHere: true,
            forward: (written: Value, origin: string | undefined, answered?: Answered) => {
              const link = this.link;
              if (!link?.running || !this.up) {
                return fail(
                  'PB_DEVICE_UNAVAILABLE',
                  `connection "${this.config.id}" runs in a process of its own, which is not running: ${this.down}`,
                );
              }
              // A hub that lost its lease sends nothing on, whatever the process last heard (R-B3).
              const { fence } = this.hooks.context;
              if (!fence.holds()) return { ok: false, error: fence.refusal() };
              const n = this.nextWrite++;
              if (answered) this.pending.set(n, answered);
              link.send({ t: 'write', n, id: parameterId, value: written, origin } satisfies ToChild);
              return ok(true);
            },
          }),
    };
  }

  private answerPending(reason: string): void {
    // An update its process did not answer: the runner restarts it with the new settings.
    for (const settle of [...this.updating.values()]) settle(false);
    const error = new HubError(
      'PB_DEVICE_UNAVAILABLE',
      `connection "${this.config.id}" runs in a process of its own, which ended before it answered: ${reason}`,
    );
    for (const answered of this.pending.values()) answered({ ok: false, error });
    this.pending.clear();
  }
}
