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
import { every } from '../../core/scheduler.ts';
import type { Value } from '../../core/value.ts';
import type { ConnectionConfig, ConnectionInstance, ConnectionPlan } from '../../connections/connection.ts';
import type { IsolationHooks } from '../../connections/runner.ts';
import { Channel } from '../../sdk/process/channel.ts';
import { ChildLink, type Watch } from '../../sdk/process/child-link.ts';
import { OutputLines } from '../../sdk/process/output-lines.ts';
import { DEFAULT_MAX_MEMORY_MB } from '../../sdk/process/processes.ts';
import { type Run, Supervisor } from '../../sdk/process/supervisor.ts';
import type { StopReason } from '../../sdk/type.ts';
import { childPlan, MOST_MESSAGE_BYTES } from './launch.ts';
import { Mirror } from './mirror.ts';
import { installedAnew } from '../../config/plugins.ts';
import { type ChildToHub, childPayloadCheck, type DefinedSpec, type Details, type FenceState, type HubToChild } from './messages.ts';

/** How long a stopping process has to stop before it is killed. */
const STOP_GRACE_MS = 2000;
const DEFAULT_HANG_MS = 5000;
/** How often the hub looks at its fence for the process. */
const FENCE_CHECK_MS = 100;
/** The lines a second of one connection's process that reach the hub's log. */
const MOST_LINES_PER_SECOND = 100;
/**
 * How long a new process may leave pings unanswered until its instance has started: loading
 * Node, the hub's code and then the type's (compiled on first import, after the process
 * first answered) takes seconds on a busy machine, and is no hang of the type's.
 */
const STARTING_MS = 60_000;

export class IsolatedConnection implements ConnectionInstance {
  private link: ChildLink | undefined;
  /** The wire to the current process. */
  private channel: Channel<HubToChild, ChildToHub> | undefined;
  /** True once the current process has started its instance. */
  private up = false;
  private readonly supervisor: Supervisor;
  private fenceTimer: Subscription | undefined;
  private reportedDetails: Details = null;
  /** Why the last process ended, while none runs. */
  private down = 'it has not started yet';
  /** Its parameters in the hub, kept across processes so their values stay readable. */
  private readonly mirror: Mirror;
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
        this.endChannel(error.message);
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
    const { link, channel } = this;
    // Told to stop before the channel ends (what still waits on it is refused).
    const stopping = link?.stop(() => channel?.tell('stop', { reason }), STOP_GRACE_MS);
    this.endChannel('its connection is stopping');
    await stopping;
  }

  /**
   * New settings while it runs (a reload): the instance in its process takes them in place
   * when its type has `update`; false (no `update`, declined, no process, no answer within
   * `hangMs`) has the runner restart it; an `update` that throws fails it. The settings taken
   * are the ones a later process starts with.
   */
  async update(plan: ConnectionPlan): Promise<boolean> {
    const { link, channel } = this;
    if (!link?.running || !channel || !this.up) return false;
    let taken: boolean;
    try {
      taken = await channel.call('update', { settings: plan.written }, this.hangMs);
    } catch (error) {
      // No answer within hangMs, or the process went: the runner restarts it with the new settings.
      if (error instanceof HubError && (error.code === 'PB_DEVICE_TIMEOUT' || error.code === 'PB_DEVICE_UNAVAILABLE')) return false;
      throw error;
    }
    if (taken) this.config = { ...this.config, plan };
    return taken;
  }

  details(): Readonly<Record<string, unknown>> {
    const pid = this.link?.pid;
    return { ...this.reportedDetails, process: pid && this.up ? { pid } : { down: this.down } };
  }

  /** One process: started, given the connection, ready once its instance has started. */
  private async run(): Promise<Run> {
    const { config, hooks } = this;
    const { id, plan, common } = config;
    const { context } = hooks;
    this.up = false;
    // A package installed again since the hub loaded it: its new code does not run under what
    // the hub loaded (R-PK9); it is tried again with the backoff, and a reload loads it.
    const anew = plan.origin && installedAnew(plan.origin);
    if (anew) throw new HubError('PB_PLUGIN_CHANGED', anew);
    this.mirror.newProcess();
    let started: (() => void) | undefined;
    let startFailed: HubError | undefined;
    // What it writes, and logs, reaches the hub's log at most this many lines a second.
    const output = new OutputLines({
      log: context.log,
      scheduler: context.scheduler,
      perSecond: MOST_LINES_PER_SECOND,
      prefix: 'process: ',
      whose: 'its process',
    });
    let reported = false;
    // The process runs a package's code, which may send anything: a message of no known shape,
    // or one the hub fails to take, ends the process (and fails the connection), not the hub.
    const refuse = (reason: string) => {
      context.log.warn(`its process ${reason}: killing it`);
      link.kill(`its process failed: ${reason}`);
    };
    const channel: Channel<HubToChild, ChildToHub> = new Channel<HubToChild, ChildToHub>({
      send: (message) => link.send(message),
      scheduler: context.scheduler,
      called: 'its process',
      check: childPayloadCheck,
      refuse: (why) => refuse(`sent ${why}`),
      handlers: {
        started: () => {
          this.up = true;
          // It answers again: it is held to its hangMs from now on.
          link.watchWith(this.watch(channel, this.hangMs));
          this.mirror.removeUndefined();
          if (!reported) context.setStatus('ok');
          started?.();
        },
        failed: (error) => {
          startFailed = new HubError(error.code, error.message);
          link.kill(error.message);
        },
        crash: ({ reason, stack }) => {
          link.failedWith(reason);
          if (stack) context.log.error(`its process failed: ${stack}`);
        },
        status: ({ status, reason, code }) => {
          reported = true;
          if (status === 'degraded' || status === 'failed') context.setStatus(status, reason, code ?? 'PB_START_FAILED');
          else context.setStatus(status, reason, code);
        },
        problem: ({ part, code, message }) => context.problem(part, code ? { code, message: message ?? '' } : undefined),
        log: ({ line }) => output.json(line),
        define: ({ id: parameterId, spec }) => this.mirror.define(parameterId, spec),
        table: ({ rows }) => this.mirror.defineTable(rows),
        remove: ({ id: parameterId }) => this.mirror.remove(parameterId),
        describe: ({ id: parameterId, meta }) => this.mirror.describe(parameterId, meta),
        values: ({ changes }) => {
          for (const [parameterId, value, by] of changes) this.mirror.report(parameterId, value, by);
          return null;
        },
        record: ({ key, value }) => context.records.set(key, value),
        settle: () => new Promise<null>((settled) => (context.settled ? context.settled(() => settled(null)) : settled(null))),
        stopped: () => {},
      },
    });
    const link: ChildLink = ChildLink.start(
      {
        ...childPlan(),
        maxMemoryMb: this.maxMemoryMb,
        memorySetting: 'maxMemoryMb',
        called: 'its process',
        maxMessageBytes: MOST_MESSAGE_BYTES,
      },
      {
        message: (message) => {
          if (this.link === link) channel.received(message);
        },
        output: (line, level) => output.say(level, line),
      },
      context.scheduler,
    );
    this.link = link;
    this.channel = channel;
    // Loading Node, the hub's code and then the type's (compiled on first import) takes seconds
    // on a busy machine, and is no hang of the type's: until it has started, it has longer.
    link.watchWith(this.watch(channel, Math.max(this.hangMs, STARTING_MS)));
    // Every 100 ms: the fence's changes go to the process.
    this.fenceTimer?.unsubscribe();
    this.fenceTimer = every(context.scheduler, FENCE_CHECK_MS, () => this.sendFence(channel));
    channel.tell('start', {
      module: plan.origin?.module,
      type: plan.type,
      id,
      baseDir: context.baseDir,
      filesFolder: context.filesFolder,
      settings: plan.written,
      // What the hub keeps of it, as a restart of the hub would give it: the values of its kept
      // parameters (the others start as the type defines them).
      values: this.mirror.kept(),
      records: hooks.records(),
      debug: common.debug,
      fence: this.fence,
    });
    context.whenRunning(() => {
      if (this.link === link) channel.tell('running', null);
    });
    void link.ended.then(() => {
      output.stop();
      if (this.link === link) this.fenceTimer?.unsubscribe();
    });
    const ready = new Promise<boolean>((resolve) => (started = () => resolve(true)));
    if (!(await Promise.race([ready, link.ended.then(() => false)])))
      // A start that failed ended the process: the connection shows that failure, with its own code.
      throw startFailed ?? new HubError('PB_PROCESS_ENDED', await link.ended);
    return link;
  }

  /** How the process is held to answering: pinged a few times within `hangMs`, its details kept from each answer. */
  private watch(channel: Channel<HubToChild, ChildToHub>, hangMs: number): Watch {
    const ping = () =>
      channel.call('ping', null).then(
        (details) => (this.reportedDetails = details),
        () => {},
      );
    return { hangMs, hangSetting: 'hangMs', ping: () => void ping() };
  }

  private sendFence(channel: Channel<HubToChild, ChildToHub>): void {
    const fence = this.fenceState();
    if (fence.holds !== this.fence.holds || fence.epoch !== this.fence.epoch) {
      this.fence = fence;
      channel.tell('fence', fence);
    }
  }

  private fenceState(): FenceState {
    const { fence } = this.hooks.context;
    const holds = fence.holds();
    return { holds, epoch: fence.epoch, refusal: holds ? '' : fence.refusal().message };
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
              const { link, channel } = this;
              if (!link?.running || !channel || !this.up) {
                return fail(
                  'PB_DEVICE_UNAVAILABLE',
                  `connection "${this.config.id}" runs in a process of its own, which is not running: ${this.down}`,
                );
              }
              // A hub that lost its lease sends nothing on, whatever the process last heard (R-B3).
              const { fence } = this.hooks.context;
              if (!fence.holds()) return { ok: false, error: fence.refusal() };
              channel.call('write', { id: parameterId, value: written, origin }).then(
                (changed) => answered?.(ok(changed)),
                (error: unknown) =>
                  answered?.({ ok: false, error: error instanceof HubError ? error : new HubError('PB_BAD_ANSWER', reasonOf(error)) }),
              );
              return ok(true);
            },
          }),
    };
  }

  /** The process is gone, or going: what waits on it is refused with why. */
  private endChannel(reason: string): void {
    this.channel?.close(`connection "${this.config.id}" runs in a process of its own, which ended before it answered: ${reason}`);
  }
}
