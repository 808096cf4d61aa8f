/**
 * `timer`: one-shot timers and drift-free pulses (R-T1–R-T5). Ids are 1-based positions
 * in the `timers` and `pulses` lists. With a state folder, a running timer survives a
 * restart of the hub or of the connection (R-S5): its deadline is kept as a record and it
 * fires at that deadline, or at once when the deadline passed meanwhile (`onRestart:
 * "skip"` drops those). Pulses keep their phase the same way.
 *
 * Parameters:
 *   timer/<n>/start     I   write-only   a number ≥ 1 runs the timer that many ms; any other
 *                                        value runs it for its configured duration
 *   timer/<n>/trigger   T   read-only    fires once when the timer elapses
 *   timer/<n>/left      I   read-only    whole seconds left while it runs (a countdown), 0 otherwise
 *   pulse/<n>           T   read-only    fires every interval while the pulse is enabled
 */
import { Type } from '@sinclair/typebox';
import type { Subscription } from 'rxjs';
import { after, asWritten, defineConnectionType, every, ok, type Result, withDefault, type Value } from '../../sdk/index.ts';

const settings = Type.Object({
  timers: withDefault(
    Type.Array(
      Type.Object(
        { duration: withDefault(Type.Integer({ minimum: 1, description: 'Milliseconds from start to trigger.' }), 1000) },
        { additionalProperties: false },
      ),
      { maxItems: 16, description: 'Up to 16 one-shot timers; timer/<n> is the n-th entry.' },
    ),
    [],
  ),
  pulses: withDefault(
    Type.Array(
      Type.Object(
        {
          enabled: withDefault(Type.Boolean({ description: 'A disabled pulse keeps its parameter and never fires.' }), true),
          interval: withDefault(Type.Integer({ minimum: 10, description: 'Milliseconds between fires.' }), 1000),
        },
        { additionalProperties: false },
      ),
      { maxItems: 16, description: 'Up to 16 pulses; pulse/<n> is the n-th entry.' },
    ),
    [],
  ),
  onRestart: withDefault(
    Type.Union([Type.Literal('fire'), Type.Literal('skip')], {
      description: 'A timer whose deadline passed while the hub was down: "fire" fires it at once, "skip" drops it.',
    }),
    'fire',
  ),
});

/** What a running timer keeps across restarts (scheduler time). */
interface TimerRecord {
  readonly deadline: number;
  readonly duration: number;
}

const isTimerRecord = (value: unknown): value is TimerRecord =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TimerRecord).deadline === 'number' &&
  typeof (value as TimerRecord).duration === 'number';

/**
 * R-T3: a number ≥ 1 (or its text) is the duration in ms; any other write (a boolean, a
 * trigger, other text, 0 or less) runs the configured duration. Either way the duration
 * used is what the start parameter remembers (R-P6).
 */
export function durationOf(raw: unknown, configured: number): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : Number.NaN;
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.trunc(n), Number.MAX_SAFE_INTEGER) : configured;
}

export const timerType = defineConnectionType({
  type: 'timer',
  summary: 'One-shot timers and drift-free pulses.',
  settings,
  parse: asWritten,
  create(context, { timers, pulses, onRestart }) {
    const running: (Subscription | undefined)[] = [];
    const counting: (Subscription | undefined)[] = [];
    const pulseRuns: Subscription[] = [];
    let stopped = false;
    const { scheduler, records } = context;
    return {
      start() {
        timers.forEach(({ duration }, index) => {
          const n = index + 1;
          const key = `timer/${n}`;
          const trigger = context.define(`timer/${n}/trigger`, { type: 'T', access: 'read-only' });
          const run = (deadline: number) => {
            running[index]?.unsubscribe(); // R-T4: a restart replaces the running timer
            counting[index]?.unsubscribe();
            const secondsLeft = () => Math.max(0, Math.ceil((deadline - scheduler.now()) / 1000));
            left.report(secondsLeft());
            // Each second on the second before the deadline, as a countdown reads: 3, 2, 1, then 0 as it fires.
            counting[index] = every(scheduler, 1000, () => left.report(secondsLeft()), deadline - secondsLeft() * 1000);
            running[index] = after(scheduler, Math.max(0, deadline - scheduler.now()), () => {
              running[index] = undefined;
              counting[index]?.unsubscribe();
              counting[index] = undefined;
              records.set(key, undefined);
              left.report(0);
              trigger.report(true);
            });
          };
          const start = context.define(`timer/${n}/start`, {
            type: 'I',
            access: 'write-only',
            meta: { label: `Timer ${n}: start`, description: 'Milliseconds to run; any other value runs its duration.', unit: 'ms' },
            accept: (raw): Result<Value> => ok(durationOf(raw, duration)),
            onWrite(ms) {
              const record: TimerRecord = { deadline: scheduler.now() + (ms as number), duration: ms as number };
              records.set(key, { ...record });
              run(record.deadline);
            },
          });
          // Defined after start: the parameters a timer had before keep their places in lists.
          const left = context.define(`timer/${n}/left`, {
            type: 'I',
            access: 'read-only',
            initial: 0,
            meta: { label: `Timer ${n}: time left`, unit: 's', minimum: 0 },
          });
          const kept = records.get(key);
          if (!isTimerRecord(kept)) return;
          if (onRestart === 'skip' && kept.deadline <= scheduler.now()) {
            records.set(key, undefined);
            context.log.info(`timer/${n}: its deadline passed while the hub was down; skipped`);
            return;
          }
          start.report(kept.duration);
          // Planned once the rules and code flows that listen to it run (R-S5): at its deadline,
          // or at once when that passed while the hub was down or starting. Planned here, a
          // deadline reached before the hub's start was over fired to no one.
          context.whenRunning(() => stopped || run(kept.deadline));
          context.log.info(`timer/${n}: running again, ${Math.max(0, kept.deadline - scheduler.now())} ms left`);
        });
        pulses.forEach(({ enabled, interval }, index) => {
          const pulse = context.define(`pulse/${index + 1}`, { type: 'T', access: 'read-only' });
          if (!enabled) return;
          const key = `pulse/${index + 1}`;
          const kept = records.get(key);
          const origin = typeof kept === 'number' ? kept : scheduler.now();
          if (kept !== origin) records.set(key, origin);
          pulseRuns.push(every(scheduler, interval, () => pulse.report(true), origin));
        });
      },
      stop() {
        stopped = true;
        for (const subscription of [...running, ...counting, ...pulseRuns]) subscription?.unsubscribe();
        running.length = 0;
        counting.length = 0;
        pulseRuns.length = 0;
      },
    };
  },
});
