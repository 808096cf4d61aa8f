import { type SchedulerLike, Subscription } from 'rxjs';
/**
 * The hub's only source of time. lib/ never calls setTimeout or Date.now: everything timed
 * is scheduler work, so specs run it in virtual time.
 */
export type Scheduler = SchedulerLike;
/**
 * Wall-clock time whose delays may be as long as wanted (RxJS's asyncScheduler hands them
 * to Node as they are, and 2^31 ms or more fires at once). `longest` is the step a long
 * delay is waited in; only specs change it.
 */
export declare function chainedTime(longest?: number): Scheduler;
/** Wall-clock time, for a running hub: every timer, pulse and timed step runs on it. */
export declare const realTime: Scheduler;
/**
 * The wall clock as read once per turn of the event loop (until the next microtask
 * checkpoint): what stamps changes. A clock read costs 100–150 ns on our virtual
 * machines, more than a rule hop, and every change of a cascade within one turn happened
 * in the same millisecond or so anyway. Timers keep the exact `now`.
 */
export declare function wallClockOfTurn(): number;
/** How changes are stamped on `scheduler`: once per turn on the wall clock; exactly on any other (virtual time in specs). */
export declare function changeClockOf(scheduler: Scheduler): () => number;
/** Runs `work` once, `ms` from now. Unsubscribe to cancel. */
export declare function after(scheduler: Scheduler, ms: number, work: () => void): Subscription;
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
export declare function every(scheduler: Scheduler, intervalMs: number, work: (n: number) => void, start?: number): Subscription;
/**
 * Runs `work` once the current event-loop turn has handled all of its I/O (Node's check
 * phase): every request and message that arrived together has run by then, so work that
 * serves them all (one commit for their writes) is done once.
 */
export declare function afterTurn(work: () => void): void;
/**
 * Holds the process open until the returned function is called: a hub of passive
 * connections (dummies only) has no socket or timer of its own to do that.
 */
export declare function keepAlive(): () => void;
