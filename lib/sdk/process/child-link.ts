/**
 * One run of a program the hub keeps in a process of its own — a connection's (R-PK4), a
 * Companion module (R-CM2), the key process (R-K2) — held the same way whoever runs it:
 *
 * - started with what a package's code may see of the hub's environment, its heap bound, and
 *   Node's IPC channel read by the hub's own `NodeChannel`: what the program sends that is no
 *   message (junk written to its channel's descriptor) ends that program, never the hub, as
 *   Node's own reading of a forked child's channel would;
 * - its output passed on a line at a time, and the end of its stderr kept to say why it ended;
 * - watched, once asked: its memory as a whole (Buffers and native memory, which its heap
 *   bound leaves out) and whether it still answers, killed with the reason when not;
 * - ended with one reason, most telling first: why the hub killed it, its heap, what it threw,
 *   a signal, its exit code.
 *
 * All its timing is on the scheduler it is given (virtual in specs). Starting it again after
 * it ended is `Supervisor`'s.
 */
import type { ChildProcess } from 'node:child_process';
import type { Subscription } from 'rxjs';
import { HubError } from '../../core/errors.ts';
import { after, every, type Scheduler } from '../../core/scheduler.ts';
import { NodeChannel, spawnWithChannel } from './node-channel.ts';
import { MEMORY_MARGIN_MB, packageEnvironment, privateView, residentMb } from './processes.ts';

/** How long an ended process's last output may take to arrive before its end is said (a grandchild may hold the pipe). */
const OUTPUT_WAIT_MS = 250;
/** The end of its stderr kept to say why it ended. */
const STDERR_TAIL = 4000;
/** How often a watched process's memory is read and its answers looked at. */
const WATCH_EVERY_MS = 100;
/** How long the longest reason taken from what a process threw. */
const MOST_THROWN = 300;

/** What to run, and how the hub names and bounds it. */
export interface ChildPlan {
  /** The file Node runs (`ownEntry` gives the hub's own, with `loader`), and its arguments. */
  readonly main: string;
  readonly args?: readonly string[];
  /** Node options it needs beyond its heap bound (a loader, an `--import`). */
  readonly execArgv?: readonly string[];
  readonly cwd?: string;
  /** Variables beyond what a package's code sees of the hub's environment (`packageEnvironment`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Run in a private view of the machine's processes (`privateView`) where the machine lets it. */
  readonly privateView?: boolean;
  /** Its heap, MB, and the setting that says so; its memory as a whole may hold MEMORY_MARGIN_MB more. */
  readonly maxMemoryMb?: number;
  readonly memorySetting?: string;
  /** How the reasons it ended name it: "its process", "the module's process". */
  readonly called: string;
  /** What some of its exit codes mean, said beside the code: codes its runtime gives a meaning of its own. */
  readonly exitMeanings?: Readonly<Record<number, string>>;
  /** The longest message taken from it, bytes, and whether only flat records are read (node-channel.ts). */
  readonly maxMessageBytes: number;
  readonly flat?: boolean;
}

export interface ChildEvents {
  /** A message it sent, in order. */
  message(message: unknown): void;
  /** A line it wrote, on stdout (`info`) or stderr (`warn`). */
  output?(line: string, level: 'info' | 'warn'): void;
  /** A message of another shape than a flat record, dropped unread (`flat`). */
  dropped?(): void;
}

/** How a running process is watched. */
export interface Watch {
  /** How long it may go without sending anything (each ping asks it to), and the setting that says so. */
  readonly hangMs: number;
  readonly hangSetting: string;
  /** Asks it for an answer: called a few times within `hangMs`. */
  ping(): void;
}

export class ChildLink {
  private readonly channel: NodeChannel;
  /** Why the hub ended it, once it did: said as the reason it ended. */
  private endedBecause: string | undefined;
  private stderrTail = '';
  /** What it said it failed with, before it ended. */
  private failure: string | undefined;
  private lastHeard: number;
  private watching: Subscription | undefined;
  private watch: Watch | undefined;
  private lastPing = 0;
  private lastTick = 0;
  /** Why it ended, once it did and its last output arrived. */
  readonly ended: Promise<string>;

  private constructor(
    private readonly child: ChildProcess,
    socket: import('node:stream').Duplex,
    private readonly plan: ChildPlan,
    events: ChildEvents,
    private readonly scheduler: Scheduler,
  ) {
    this.lastHeard = scheduler.now();
    this.channel = new NodeChannel(
      socket,
      {
        message: (message) => {
          this.lastHeard = scheduler.now();
          events.message(message);
        },
        dropped: () => events.dropped?.(),
        fault: (reason) => this.kill(`${plan.called} was ended: ${reason}`),
      },
      { maxFrameBytes: plan.maxMessageBytes, flat: plan.flat ?? false },
    );
    const lines = (level: 'info' | 'warn') => (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') events.output?.(line.trimEnd(), level);
    };
    child.stdout?.on('data', lines('info'));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
    });
    child.stderr?.on('data', lines('warn'));
    // Not started (no Node, no folder): said by its end, as any other.
    child.on('error', (error) => (this.stderrTail += `\n${error.message}`));
    this.ended = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.watching?.unsubscribe();
        this.channel.close();
        const said = () => resolve(this.endReason(code, signal));
        if (!child.stderr || child.stderr.readableEnded) return said();
        const wait = after(scheduler, OUTPUT_WAIT_MS, said);
        child.stderr.once('end', () => {
          wait.unsubscribe();
          said();
        });
      });
    });
  }

  /** Starts `plan`'s program; what it sends and writes goes to `events`. */
  static start(plan: ChildPlan, events: ChildEvents, scheduler: Scheduler): ChildLink {
    const wrapper = plan.privateView ? privateView() : undefined;
    const heap = plan.maxMemoryMb === undefined ? [] : [`--max-old-space-size=${plan.maxMemoryMb}`];
    const { child, socket } = spawnWithChannel(plan.main, plan.args ?? [], {
      ...(wrapper ? { wrapper } : {}),
      cwd: plan.cwd ?? process.cwd(),
      env: { ...packageEnvironment(), ...plan.env },
      execArgv: [...(plan.execArgv ?? []), ...heap],
    });
    return new ChildLink(child, socket, plan, events, scheduler);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether it runs and its channel is open. */
  get running(): boolean {
    return this.channel.open && this.child.exitCode === null && this.child.signalCode === null;
  }

  send(message: unknown): void {
    this.channel.send(message);
  }

  /** Ends it at once; `reason`, when given, is why it ended (the first reason given is kept). */
  kill(reason?: string): void {
    if (reason !== undefined) this.endedBecause ??= reason;
    this.channel.close();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** It says why it is failing (what it threw): why it ended, unless the hub killed it or its heap ran out. */
  failedWith(reason: string): void {
    this.failure ??= reason;
  }

  /** Asks it to stop (`ask`), and ends it after `graceMs` when it has not. Resolves once it has ended. */
  async stop(ask: () => void, graceMs: number): Promise<void> {
    this.watching?.unsubscribe();
    if (!this.running) this.kill();
    else {
      const killer = after(this.scheduler, graceMs, () => this.kill());
      ask();
      void this.ended.then(() => killer.unsubscribe());
    }
    await this.ended;
  }

  /**
   * Resolves with what `ready` gives once it does; rejects — and ends the process — when it
   * does not within `withinMs` (PB_DEVICE_TIMEOUT, "did not <what> within …") or the process
   * ended first (PB_PROCESS_ENDED, with why).
   */
  async ready<T>(ready: Promise<T>, withinMs: number, what: string): Promise<T> {
    let deadline: Subscription | undefined;
    try {
      return await Promise.race([
        ready,
        this.ended.then((reason) => Promise.reject(new HubError('PB_PROCESS_ENDED', reason))),
        new Promise<never>((_, reject) => {
          deadline = after(this.scheduler, withinMs, () =>
            reject(new HubError('PB_DEVICE_TIMEOUT', `${this.plan.called} did not ${what} within ${withinMs} ms`)),
          );
        }),
      ]);
    } catch (error) {
      this.kill(error instanceof HubError && error.code === 'PB_DEVICE_TIMEOUT' ? error.message : undefined);
      throw error;
    } finally {
      deadline?.unsubscribe();
    }
  }

  /**
   * Watches it from now on (or with new bounds): killed, with the reason, when it sends
   * nothing for `hangMs` — its event loop is blocked — or holds more memory than its heap
   * bound and the margin for Node itself.
   */
  watchWith(watch: Watch): void {
    this.watch = watch;
    this.lastHeard = this.scheduler.now();
    this.watching ??= every(this.scheduler, WATCH_EVERY_MS, () => this.tick());
  }

  private tick(): void {
    const { watch, plan } = this;
    if (!watch || !this.running) return;
    // A hub whose own event loop stood still (a burst of clients, a long snapshot) read no
    // answer meanwhile: its stall is not the process's.
    const now = this.scheduler.now();
    const stalled = this.lastTick === 0 ? 0 : now - this.lastTick - WATCH_EVERY_MS;
    this.lastTick = now;
    if (stalled > WATCH_EVERY_MS) this.lastHeard += stalled;
    if (now - this.lastHeard > watch.hangMs)
      return this.kill(`${plan.called} did not answer for ${watch.hangMs} ms (${watch.hangSetting}) and was killed`);
    const bound = plan.maxMemoryMb;
    const resident = bound === undefined || this.child.pid === undefined ? undefined : residentMb(this.child.pid);
    if (bound !== undefined && resident !== undefined && resident > bound + MEMORY_MARGIN_MB)
      return this.kill(
        `${plan.called} held ${resident} MB, more than its ${bound} MB (${plan.memorySetting}) and ${MEMORY_MARGIN_MB} MB for Node itself, and was killed`,
      );
    const pingEvery = Math.min(1000, Math.max(WATCH_EVERY_MS, Math.floor(watch.hangMs / 5)));
    if (now - this.lastPing < pingEvery) return;
    this.lastPing = now;
    watch.ping();
  }

  /** Why it ended, most telling first. */
  private endReason(code: number | null, signal: NodeJS.Signals | null): string {
    const { called, maxMemoryMb, memorySetting } = this.plan;
    if (this.endedBecause !== undefined) return this.endedBecause;
    if (/heap out of memory|Reached heap limit/i.test(this.stderrTail))
      return `${called} used more than its ${maxMemoryMb} MB of heap (${memorySetting}) and was stopped`;
    if (this.failure !== undefined) return `${called} failed: ${this.failure}`;
    if (signal) return `${called} was killed (${signal})`;
    // What it threw, as Node printed it last (`Error: …`): a program that cannot load says why.
    const thrown = [...this.stderrTail.matchAll(/^(?:\w*Error|Error \[\w+\]): .*$/gm)].at(-1)?.[0];
    const meaning = code === null ? undefined : this.plan.exitMeanings?.[code];
    return `${called} exited with code ${code}${meaning ? ` (${meaning})` : ''}${thrown ? `: ${thrown.slice(0, MOST_THROWN)}` : ''}`;
  }

  /** The last line of what it wrote to stderr that is no stack frame, when any. */
  get lastWords(): string | undefined {
    const lines = this.stderrTail.split('\n').filter((line) => line.trim() && !/^\s+at /.test(line));
    return lines.at(-1)?.trim();
  }
}
