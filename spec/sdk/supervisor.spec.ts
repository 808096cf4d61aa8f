import test from 'ava';
import { HubError } from '../../lib/core/errors.ts';
import { Supervisor } from '../../lib/sdk/process/supervisor.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

// The one backoff of every program the hub keeps running (R-PK4, R-CM2, R-K2), in virtual time.

/** Runs that start at the clock's `now`, each ending (or failing to start) when a spec says. */
function runs(clock: VirtualClock, { failToStart = false } = {}) {
  const started: number[] = [];
  const ends: ((reason: string) => void)[] = [];
  const downs: { at: number; reason: string; delay: number | undefined; attempt: number | undefined }[] = [];
  const supervisor = new Supervisor({
    scheduler: clock.scheduler,
    run: async () => {
      started.push(clock.now);
      if (failToStart) throw new HubError('PB_PROCESS_ENDED', `start ${started.length} failed`);
      return { ended: new Promise<string>((resolve) => ends.push(resolve)) };
    },
    down: (error, next) => downs.push({ at: clock.now, reason: error.message, delay: next?.delay, attempt: next?.attempt }),
  });
  return { supervisor, started, ends, downs };
}

/** Lets the promises of a run settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a run that cannot start is tried again after 1 s three times, then after doubling waits up to a minute', async (t) => {
  const clock = new VirtualClock();
  const { supervisor, started, downs } = runs(clock, { failToStart: true });
  await supervisor.start();
  for (let second = 0; second < 200; second++) {
    clock.advanceBy(1000);
    await settle();
  }
  t.deepEqual(
    downs.slice(0, 9).map(({ delay }) => delay),
    [1000, 1000, 1000, 2000, 4000, 8000, 16000, 32000, 60000],
  );
  t.deepEqual(started.slice(0, 6), [0, 1000, 2000, 3000, 5000, 9000]);
  t.deepEqual(
    downs.slice(0, 3).map(({ reason, attempt }) => [reason, attempt]),
    [
      ['start 1 failed', 1],
      ['start 2 failed', 2],
      ['start 3 failed', 3],
    ],
  );
  supervisor.stop();
});

test('a run that ends is followed by another after the backoff; one that ran a minute counts from the start again', async (t) => {
  const clock = new VirtualClock();
  const { supervisor, started, ends, downs } = runs(clock);
  await supervisor.start();
  for (let end = 0; end < 4; end++) {
    ends.at(-1)?.('it ended');
    await settle();
    clock.advanceBy(downs.at(-1)?.delay ?? 0);
    await settle();
  }
  t.deepEqual(
    downs.map(({ delay }) => delay),
    [1000, 1000, 1000, 2000],
  );
  t.is(started.length, 5);
  // A steady minute: the next end waits a second again.
  clock.advanceBy(60_000);
  ends.at(-1)?.('it ended after a minute');
  await settle();
  t.like(downs.at(-1), { delay: 1000, attempt: 1, reason: 'it ended after a minute' });
  supervisor.stop();
});

test('stopped, no run follows: not one waiting, not one for a run that ends after', async (t) => {
  const clock = new VirtualClock();
  const { supervisor, started, ends, downs } = runs(clock);
  await supervisor.start();
  ends[0]?.('ended');
  await settle();
  t.is(downs.length, 1);
  supervisor.stop();
  clock.advanceBy(120_000);
  await settle();
  t.is(started.length, 1, 'the waiting run is not started');

  await supervisor.start();
  t.is(started.length, 2);
  supervisor.stop();
  ends[1]?.('ended after the stop');
  await settle();
  clock.advanceBy(120_000);
  await settle();
  t.is(downs.length, 1, 'an end after the stop is no failure');
  t.is(started.length, 2);
});

test('a failure no run would mend is final: the start rejects with it and no run follows', async (t) => {
  const clock = new VirtualClock();
  let runs = 0;
  const downs: (number | undefined)[] = [];
  const supervisor = new Supervisor({
    scheduler: clock.scheduler,
    run: async () => {
      runs += 1;
      throw new HubError('PB_START_FAILED', 'the settings are wrong');
    },
    down: (_error, next) => downs.push(next?.delay),
    final: (error) => error.code === 'PB_START_FAILED',
  });
  await t.throwsAsync(supervisor.start(), { message: 'the settings are wrong' });
  clock.advanceBy(120_000);
  await settle();
  t.is(runs, 1);
  t.deepEqual(downs, [undefined]);
});
