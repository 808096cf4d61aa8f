/**
 * The hub's side of a connection in a process of its own (R-PK4). It forks the process,
 * defines in the hub the parameters the process defines, and mirrors their changes with who
 * made them (R-PK5); writes go to the process and are answered with its answer. When the
 * process exits, throws, is killed, runs out of its heap or stops answering pings, the
 * connection is `failed` with the reason, its parameters keep their last values (writes are
 * refused with PB_DEVICE_UNAVAILABLE), and a new process starts after a backoff: 1 s three
 * times, then doubling up to 60 s. The hub and every other connection carry on.
 */
import type { ChildProcess } from 'node:child_process';
import type { Subscription } from 'rxjs';
import { fail, HubError, ok, reasonOf } from '../../core/errors.ts';
import type { Answered, ParameterSpec } from '../../core/parameter.ts';
import { after, every } from '../../core/scheduler.ts';
import type { Value } from '../../core/value.ts';
import type { ConnectionConfig, ConnectionInstance, ConnectionPlan } from '../../connections/connection.ts';
import type { IsolationHooks } from '../../connections/runner.ts';
import type { StopReason } from '../../sdk/type.ts';
import { OutputBudget } from './child-output.ts';
import { DEFAULT_MAX_MEMORY_MB, MEMORY_MARGIN_MB, Restarts, residentMb } from '../../core/processes.ts';
import { exitReason, forkProcess } from './launch.ts';
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
  private child: ChildProcess | undefined;
  /** True once the current process has started its instance. */
  private up = false;
  private stopping = false;
  private readonly restarts = new Restarts();
  private restartTimer: Subscription | undefined;
  private pingTimer: Subscription | undefined;
  private lastPong = 0;
  private lastPing = 0;
  private lastTick = 0;
  /** Set when the process was killed for not answering, to the ms it went unanswered: the reason it ended. */
  private hungFor: number | undefined;
  /** Set when the process was killed for the memory it held, to that many MB. */
  private overMemory: number | undefined;
  /** Why the hub killed the process for what it sent, when it did. */
  private refused: string | undefined;
  private output: OutputBudget | undefined;
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
  /** The end of what the process wrote to its standard error, to say why it ended. */
  private stderrTail = '';

  constructor(
    private config: ConnectionConfig,
    private readonly hooks: IsolationHooks,
  ) {
    this.hangMs = config.common.hangMs ?? DEFAULT_HANG_MS;
    this.maxMemoryMb = config.common.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB;
    this.fence = this.fenceState();
    this.mirror = new Mirror(config.id, hooks.context, (parameterId, spec) => this.hubSpec(parameterId, spec));
  }

  /** Resolves once the first process has started its instance, or failed to (then a restart waits). */
  start(): Promise<void> {
    return new Promise((resolve) => this.spawn(resolve));
  }

  async stop(reason: StopReason = 'stop'): Promise<void> {
    this.stopping = true;
    this.restartTimer?.unsubscribe();
    this.pingTimer?.unsubscribe();
    const child = this.child;
    this.answerPending('its connection is stopping');
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const killer = after(this.hooks.context.scheduler, STOP_GRACE_MS, () => child.kill('SIGKILL'));
      child.once('exit', () => {
        killer.unsubscribe();
        resolve();
      });
      if (child.connected) child.send({ t: 'stop', reason } satisfies ToChild);
      else child.kill('SIGKILL');
    });
  }

  /**
   * New settings while it runs (a reload): the instance in its process takes them in place
   * when its type has `update`; false (no `update`, declined, no process, no answer within
   * `hangMs`) has the runner restart it; an `update` that throws fails it. The settings taken
   * are the ones a later process starts with.
   */
  update(plan: ConnectionPlan): Promise<boolean> {
    const child = this.child;
    if (!child?.connected || !this.up) return Promise.resolve(false);
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
      child.send({ t: 'update', n, settings: plan.written } satisfies ToChild);
    });
  }

  details(): Readonly<Record<string, unknown>> {
    return { ...this.reportedDetails, process: this.child?.pid && this.up ? { pid: this.child.pid } : { down: this.down } };
  }

  private spawn(started?: () => void): void {
    const { config, hooks } = this;
    const { id, plan, common } = config;
    const { scheduler } = hooks.context;
    this.up = false;
    // A package installed again since the hub loaded it: its new code does not run under what
    // the hub loaded (R-PK9); it is tried again with the backoff, and a reload loads it.
    const anew = plan.origin && installedAnew(plan.origin);
    if (anew) return this.startLater(new HubError('PB_PLUGIN_CHANGED', anew), started);
    this.stderrTail = '';
    this.mirror.newProcess();
    let reported = false;
    let crash: string | undefined;
    let startFailed: HubError | undefined;
    const child = forkProcess(this.maxMemoryMb);
    this.child = child;
    this.restarts.started(scheduler.now());
    this.lastPong = scheduler.now();
    this.lastTick = 0;
    this.refused = undefined;
    const output = new OutputBudget(hooks.context.log, () => scheduler.now());
    this.output = output;
    child.stdout?.on('data', (chunk: Buffer) => output.output(String(chunk), 'info'));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + String(chunk)).slice(-4000);
      output.output(String(chunk), 'warn');
    });
    // A message sent as the process dies, or after it closed its channel, fails (EPIPE,
    // ERR_IPC_CHANNEL_CLOSED) as the child's `error`: unheard, it would end the hub. Its
    // `exit` follows and says why the process ended (child.ts exits when its channel closes).
    child.on('error', (error) => hooks.context.log.debug(`its process: ${error.message}`));
    // The process runs a package's code, which may send anything: a message of no known shape,
    // or one the hub fails to take, ends the process (and fails the connection), not the hub.
    const refuse = (reason: string) => {
      crash ??= reason;
      this.refused ??= reason;
      hooks.context.log.warn(`its process ${reason}: killing it`);
      child.kill('SIGKILL');
    };
    child.on('message', (raw: unknown) => {
      if (this.child !== child || this.refused !== undefined) return;
      const message = fromChildOf(raw);
      if (typeof message === 'string') return refuse(`sent ${message}`);
      try {
        take(message);
      } catch (error) {
        refuse(`sent a "${message.t}" message the hub could not take: ${reasonOf(error)}`);
      }
    });
    const take = (message: FromChild) => {
      switch (message.t) {
        case 'started':
          this.up = true;
          // It answers again: the pings it left unanswered while starting are not held against it.
          this.lastPong = scheduler.now();
          this.mirror.removeUndefined();
          if (!reported) hooks.context.setStatus('ok');
          started?.();
          started = undefined;
          return;
        case 'failed':
          crash = message.error.message;
          startFailed = new HubError(message.error.code, message.error.message);
          hooks.failed(startFailed);
          child.kill('SIGKILL');
          return;
        case 'crash':
          crash = message.reason;
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
          this.lastPong = scheduler.now();
          this.reportedDetails = message.details;
          return;
        default:
          this.receive(message);
      }
    };
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.up = false;
      this.pingTimer?.unsubscribe();
      if (this.stopping) return;
      const { hungFor, overMemory, stderrTail: stderr, maxMemoryMb } = this;
      // A start that failed ended the process: the connection shows that failure, with its own code.
      const reason = startFailed?.message ?? exitReason({ hungFor, overMemory, stderr, maxMemoryMb, crash, code, signal });
      this.hungFor = undefined;
      this.overMemory = undefined;
      this.down = reason;
      this.answerPending(reason);
      this.startLater(new HubError(startFailed?.code ?? 'PB_PROCESS_ENDED', reason), started);
      started = undefined;
    });
    // Every 100 ms: the fence's changes go to the process, and pings (a few per hangMs) find
    // a process whose event loop is blocked.
    this.pingTimer = every(scheduler, FENCE_CHECK_MS, () => this.tick(child));
    child.send({
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
      if (this.child === child && child.connected) child.send({ t: 'running' } satisfies ToChild);
    });
  }

  /** The process ended, or may not start: the connection fails with why, and a new process is tried after the backoff. */
  private startLater(error: HubError, started: (() => void) | undefined): void {
    const { context } = this.hooks;
    this.hooks.failed(error);
    const { delay, attempt } = this.restarts.ended(context.scheduler.now());
    context.log.warn(`${error.message}; starting it again in ${delay / 1000} s (attempt ${attempt})`);
    this.restartTimer = after(context.scheduler, delay, () => this.spawn());
    // A first start that failed is over for the runner: the restarts go on without it.
    started?.();
  }

  private tick(child: ChildProcess): void {
    if (this.child !== child || !child.connected) return;
    // A hub whose own event loop stood still (a burst of clients, a million-value snapshot)
    // read no answer meanwhile: its stall is not the process's.
    const now = this.hooks.context.scheduler.now();
    const stalled = this.lastTick === 0 ? 0 : now - this.lastTick - FENCE_CHECK_MS;
    this.lastTick = now;
    if (stalled > FENCE_CHECK_MS) this.lastPong += stalled;
    const bound = this.up ? this.hangMs : Math.max(this.hangMs, STARTING_MS);
    if (now - this.lastPong > bound) {
      this.hooks.context.log.warn(`its process did not answer for ${bound} ms: killing it`);
      this.hungFor = bound;
      child.kill('SIGKILL');
      return;
    }
    // Its memory as a whole, Buffers and native memory too, which its heap limit leaves out.
    const resident = child.pid === undefined ? undefined : residentMb(child.pid);
    if (resident !== undefined && resident > this.maxMemoryMb + MEMORY_MARGIN_MB) {
      this.hooks.context.log.warn(`its process holds ${resident} MB: killing it`);
      this.overMemory = resident;
      child.kill('SIGKILL');
      return;
    }
    this.output?.flush();
    const fence = this.fenceState();
    if (fence.holds !== this.fence.holds || fence.epoch !== this.fence.epoch) {
      this.fence = fence;
      child.send({ t: 'fence', fence } satisfies ToChild);
    }
    const pingEvery = Math.min(1000, Math.max(FENCE_CHECK_MS, Math.floor(this.hangMs / 5)));
    if (now - this.lastPing < pingEvery) return;
    this.lastPing = now;
    child.send({ t: 'ping', n: this.pings++ } satisfies ToChild);
  }

  private fenceState(): FenceState {
    const { fence } = this.hooks.context;
    const holds = fence.holds();
    return { holds, epoch: fence.epoch, refusal: holds ? '' : fence.refusal().message };
  }

  /** What the process tells of its parameters and records. */
  private receive(message: FromChild): void {
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
        this.child?.send({ t: 'taken' } satisfies ToChild);
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
        const reply = () => this.child?.send({ t: 'settled', n: message.n } satisfies ToChild);
        if (context.settled) context.settled(reply);
        else reply();
        return;
      }
      case 'log':
        this.output?.line(message.line);
        return;
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
              const child = this.child;
              if (!child?.connected || !this.up) {
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
              child.send({ t: 'write', n, id: parameterId, value: written, origin } satisfies ToChild);
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
