import { type SchedulerAction, type SchedulerLike, Subscription } from 'rxjs';

/**
 * The hub's only source of time: everything timed is scheduler work, so specs run it in
 * virtual time. lib/ reads the real clock elsewhere only where virtual time cannot stand in
 * (how long work held the event loop, a watchdog with no hub running), saying so beside it.
 */
export type Scheduler = SchedulerLike;

/** The longest delay one Node timer holds; a longer one would fire after 1 ms. */
const longestTimeout = 2 ** 31 - 1;

/**
 * One piece of scheduled work (RxJS's `SchedulerAction`: work may reschedule itself with
 * `this.schedule`). A delay longer than `longest` is waited for in steps of at most
 * `longest`, each on Node's monotonic timer, so it runs as written, never early.
 */
class ChainedAction<T> extends Subscription implements SchedulerAction<T> {
  private timeout: ReturnType<typeof setTimeout> | undefined;
  private state: T | undefined;

  constructor(
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
    private readonly longest: number,
  ) {
    super();
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.state = state;
    this.wait(delay);
    return this;
  }

  override unsubscribe(): void {
    clearTimeout(this.timeout);
    super.unsubscribe();
  }

  private wait(ms: number): void {
    clearTimeout(this.timeout);
    const step = Math.min(ms, this.longest);
    this.timeout = setTimeout(() => (ms > step ? this.wait(ms - step) : this.run()), step);
  }

  private run(): void {
    this.timeout = undefined;
    try {
      this.work(this.state);
    } catch (error) {
      this.unsubscribe();
      throw error;
    }
  }
}

/**
 * Wall-clock time whose delays may be as long as wanted (RxJS's asyncScheduler hands them
 * to Node as they are, and 2^31 ms or more fires at once). `longest` is the step a long
 * delay is waited in; only specs change it.
 */
export function chainedTime(longest = longestTimeout): Scheduler {
  return {
    now: () => Date.now(),
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      return new ChainedAction(work, longest).schedule(state, delay);
    },
  };
}

/** Wall-clock time, for a running hub: every timer, pulse and timed step runs on it. */
export const realTime: Scheduler = chainedTime();

let turnTime: number | undefined;
const forgetTurnTime = () => (turnTime = undefined);

/**
 * The wall clock as read once per turn of the event loop (until its check phase, where
 * `setImmediate` runs): what stamps changes. A clock read costs 100–150 ns on our virtual
 * machines, more than a rule hop, and every change of a cascade within one turn — a
 * message's writes, the rules they wake in the microtasks after, what those write — happened
 * in the same millisecond or so anyway. Forgotten at the next microtask instead, a rule that
 * holds state (which runs in one) read the clock again for each change it wrote. Timers keep
 * the exact `now`.
 */
export function wallClockOfTurn(): number {
  if (turnTime === undefined) {
    turnTime = Date.now();
    setImmediate(forgetTurnTime);
  }
  return turnTime;
}

/** How changes are stamped on `scheduler`: once per turn on the wall clock; exactly on any other (virtual time in specs). */
export function changeClockOf(scheduler: Scheduler): () => number {
  return scheduler === realTime ? wallClockOfTurn : () => scheduler.now();
}

/** Runs `work` once, `ms` from now. Unsubscribe to cancel. */
export function after(scheduler: Scheduler, ms: number, work: () => void): Subscription {
  return scheduler.schedule(work, ms);
}

/**
 * Runs `work(n)` at start + n × `intervalMs` for n = 1, 2, …. Each run is planned from the
 * start, never from the previous run, so lateness never accumulates (no drift). When the
 * process was blocked past whole intervals (or the wall clock was set forward), the missed
 * runs are skipped rather than fired in a burst, and counting resumes at the next slot. When
 * the wall clock was set back (an operator, or NTP stepping it), the runs go on at the
 * interval from the run after the step, rather than wait for the clock to come round to
 * the old slots again. Unsubscribe to stop.
 *
 * `start` (scheduler time, now by default) may lie in the past, to keep the phase of a
 * run that began earlier (a pulse across a restart): the first run is then at the next
 * slot after now.
 */
export function every(scheduler: Scheduler, intervalMs: number, work: (n: number) => void, start = scheduler.now()): Subscription {
  let origin = start;
  const slotAfter = (now: number) => Math.max(1, Math.floor((now - origin) / intervalMs) + 1);
  const first = slotAfter(scheduler.now());
  return scheduler.schedule(
    function (this: SchedulerAction<number>, n = first) {
      work(n);
      const now = scheduler.now();
      // A clock more than an interval before the slot that just ran was set back: plan from now.
      if (now < origin + (n - 1) * intervalMs) origin = now - n * intervalMs;
      const next = Math.max(n + 1, slotAfter(now));
      this.schedule(next, origin + next * intervalMs - now);
    },
    origin + first * intervalMs - scheduler.now(),
    first,
  );
}

/**
 * Runs `work` once the current event-loop turn has handled all of its I/O (Node's check
 * phase): every request and message that arrived together has run by then, so work that
 * serves them all (one commit for their writes) is done once.
 */
export function afterTurn(work: () => void): void {
  setImmediate(work);
}

/**
 * Holds the process open until the returned function is called: a hub of passive
 * connections (dummies only) has no socket or timer of its own to do that.
 */
export function keepAlive(): () => void {
  const handle = setInterval(() => {}, 2 ** 30);
  return () => clearInterval(handle);
}
