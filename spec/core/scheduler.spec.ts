import test from 'ava';
import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { after, chainedTime, every, realTime } from '../../lib/core/scheduler.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

const testScheduler = (t: { deepEqual(a: unknown, b: unknown): void }) =>
  new TestScheduler((actual, expected) => t.deepEqual(actual, expected));

test('after runs its work once, when due', (t) => {
  const scheduler = testScheduler(t);
  scheduler.run(({ expectObservable }) => {
    const done$ = new Observable<string>((subscriber) => after(scheduler, 5, () => subscriber.next('x')));
    expectObservable(done$, '^ 20ms !').toBe('5ms x');
  });
});

test('every fires at start + n × interval', (t) => {
  const scheduler = testScheduler(t);
  scheduler.run(({ expectObservable }) => {
    const fires$ = new Observable<number>((subscriber) => every(scheduler, 10, (n) => subscriber.next(n)));
    expectObservable(fires$, '^ 35ms !').toBe('10ms a 9ms b 9ms c', { a: 1, b: 2, c: 3 });
  });
});

test('a late run does not shift the runs after it', (t) => {
  const clock = new VirtualClock();
  const times: number[] = [];
  const runs = every(clock.scheduler, 10, () => {
    times.push(clock.now);
    if (times.length === 1) clock.scheduler.frame += 3; // the first run was 3 ms late
  });
  clock.advanceBy(35);
  runs.unsubscribe();
  t.deepEqual(times, [10, 20, 30]);
});

test('runs missed while the process was blocked are skipped, not fired in a burst', (t) => {
  const clock = new VirtualClock();
  const fires: [number, number][] = [];
  const runs = every(clock.scheduler, 10, (n) => {
    fires.push([clock.now, n]);
    if (n === 1) clock.scheduler.frame += 35; // blocked for 35 ms: slots 2, 3 and 4 pass
  });
  clock.advanceBy(65);
  runs.unsubscribe();
  t.deepEqual(fires, [
    [10, 1],
    [50, 5],
    [60, 6],
  ]);
});

test('a wall clock set back an hour does not hold the runs for an hour: they go on at the interval', (t) => {
  const clock = new VirtualClock();
  // The scheduler a hub runs on reads the wall clock, which an operator or NTP may set back; its timers wait on a monotonic clock.
  let setBack = 0;
  const wall = { now: () => clock.now - setBack, schedule: clock.scheduler.schedule.bind(clock.scheduler) };
  const fires: [number, number][] = [];
  const runs = every(wall, 10, (n) => {
    fires.push([clock.now, n]);
    if (n === 2) setBack = 3_600_000;
  });
  clock.advanceBy(55);
  runs.unsubscribe();
  t.deepEqual(fires, [
    [10, 1],
    [20, 2],
    [30, 3],
    [40, 4],
    [50, 5],
  ]);
});

test('unsubscribing stops the runs', (t) => {
  const clock = new VirtualClock();
  let count = 0;
  const runs = every(clock.scheduler, 10, () => count++);
  clock.advanceBy(25);
  runs.unsubscribe();
  clock.advanceBy(100);
  t.is(count, 2);
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('in real time, a delay of 2^31 ms or more waits: it does not fire at once, nor does a pulse of that interval', async (t) => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  t.teardown(() => process.off('warning', onWarning));
  let once = 0;
  let pulses = 0;
  const runs = [
    after(realTime, 2 ** 31, () => once++),
    after(realTime, 30 * 24 * 3600 * 1000, () => once++), // 30 days
    every(realTime, 2 ** 31, () => pulses++),
    every(realTime, 2 ** 40, () => pulses++),
  ];
  await pause(300);
  for (const run of runs) run.unsubscribe();
  t.is(once, 0);
  t.is(pulses, 0);
  t.deepEqual(warnings, [], 'no TimeoutOverflowWarning');
});

test('a delay longer than one timer can hold is waited for in steps, never fired before it is due', async (t) => {
  const scheduler = chainedTime(40); // steps of 40 ms stand for Node's 2^31 − 1 ms
  const started = performance.now();
  const ran = new Promise<number>((resolve) => after(scheduler, 150, () => resolve(performance.now() - started)));
  t.true((await ran) >= 149, 'waited the whole delay');
  // A loaded machine may hold the process past a whole interval, and `every` then skips the
  // missed run: what holds is that run n is never before n intervals, in order.
  const runs: { n: number; at: number }[] = [];
  // Measured on the scheduler's own clock, which `every` counts its intervals on (whole
  // milliseconds): another clock read a moment before may run up to a millisecond apart.
  const origin = scheduler.now();
  await new Promise<void>((resolve) => {
    const pulses = every(scheduler, 100, (n) => {
      runs.push({ n, at: scheduler.now() - origin });
      if (n >= 3) {
        pulses.unsubscribe();
        resolve();
      }
    });
  });
  t.true(runs.length >= 1 && runs.length <= 3);
  runs.forEach(({ n, at }, i) => {
    t.true(at >= n * 100 - 1, `run ${n} at ${at} ms`);
    if (i > 0) t.true(n > (runs[i - 1]?.n ?? 0), 'in order, none twice');
  });
});

test('unsubscribing a long wait cancels it between steps', async (t) => {
  const scheduler = chainedTime(20);
  let count = 0;
  const run = after(scheduler, 100, () => count++);
  await pause(50);
  run.unsubscribe();
  await pause(150);
  t.is(count, 0);
});
