/**
 * Runs of a program kept running (R-PK4, R-CM2, R-K2): a run that ends, or cannot start, is
 * followed by another after the hub's one backoff for its processes (`Restarts`: 1 s three
 * times, then doubling to 60 s, counted from the start again after a minute's steady run),
 * until stopped. What a run is — a `ChildLink` and what makes it ready — is the caller's; the
 * waits are on the scheduler it is given.
 */
import type { Subscription } from 'rxjs';
import { HubError, reasonOf } from '../../core/errors.ts';
import { after, type Scheduler } from '../../core/scheduler.ts';
import { Restarts } from './processes.ts';

/** A run that is ready: it ends when `ended` resolves, with why. */
export interface Run {
  readonly ended: Promise<string>;
}

export interface SupervisorOptions {
  readonly scheduler: Scheduler;
  /** Starts one run: resolves once it is ready, or rejects with why it could not start (it is then to have ended). */
  run(): Promise<Run>;
  /** A run is ready. */
  up?(): void;
  /** A run ended, or could not start: why, and when the next is started (not after a final failure). */
  down(error: HubError, next: { readonly delay: number; readonly attempt: number } | undefined): void;
  /** A failure no new run would mend (a refusal the flow must fix, a display that cannot be used): no run follows. */
  final?(error: HubError, wasUp: boolean): boolean;
}

export class Supervisor {
  private readonly restarts = new Restarts();
  private waiting: Subscription | undefined;
  private stopped = false;
  private wasUp = false;
  /** Counts runs, so that a run's end heard after `stop` and a start again is not taken for the new one's. */
  private runs = 0;

  constructor(private readonly options: SupervisorOptions) {}

  /**
   * Starts the first run. Resolves once it is ready, or once it failed and another waits;
   * rejects when it failed for good (`final`).
   */
  start(): Promise<void> {
    this.stopped = false;
    this.wasUp = false;
    return this.next();
  }

  /** No run is started from now on; the one running is the caller's to end. */
  stop(): void {
    this.stopped = true;
    this.runs += 1;
    this.waiting?.unsubscribe();
    this.waiting = undefined;
  }

  private async next(): Promise<void> {
    const { options } = this;
    const run = ++this.runs;
    this.restarts.started(options.scheduler.now());
    let started: Run;
    try {
      started = await options.run();
    } catch (error) {
      const failure = error instanceof HubError ? error : new HubError('PB_PROCESS_ENDED', reasonOf(error));
      if (run === this.runs && this.failed(failure)) throw failure;
      return;
    }
    if (run !== this.runs) return;
    this.wasUp = true;
    options.up?.();
    void started.ended.then((reason) => {
      if (run === this.runs && !this.stopped) this.failed(new HubError('PB_PROCESS_ENDED', reason));
    });
  }

  /** A run ended or could not start: the next is planned, unless the failure is final (true). */
  private failed(error: HubError): boolean {
    const { options } = this;
    if (this.stopped) return false;
    if (options.final?.(error, this.wasUp)) {
      this.stopped = true;
      options.down(error, undefined);
      return true;
    }
    const next = this.restarts.ended(options.scheduler.now());
    options.down(error, next);
    this.waiting = after(options.scheduler, next.delay, () => {
      this.waiting = undefined;
      if (!this.stopped) void this.next().catch(() => {});
    });
    return false;
  }
}
