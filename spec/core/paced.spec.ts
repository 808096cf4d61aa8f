import test from 'ava';
import { Paced } from '../../lib/core/paced.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

/** What the work saw each time it ran, with when. */
function paced(most: number) {
  const clock = new VirtualClock();
  const shown: [number, number][] = [];
  const pace = new Paced(clock.scheduler, most, 0, (value) => shown.push([clock.now, value]));
  const change = (value: number) => pace.set(value);
  return { clock, pace, shown, change };
}

test('up to `most` changes a second are shown at once; past them, the latest once when the second is up', (t) => {
  const { clock, shown, change } = paced(3);
  for (let n = 1; n <= 1000; n++) change(n);
  t.deepEqual(shown, [
    [0, 1],
    [0, 2],
    [0, 3],
  ]);
  clock.advanceBy(999);
  t.is(shown.length, 3, 'nothing more within the second');
  clock.advanceBy(1);
  t.deepEqual(shown.at(-1), [1000, 1000], 'the last change, once the second is up');
  t.is(shown.length, 4);
  change(1001);
  t.deepEqual(shown.at(-1), [1000, 1001], 'the new second has room again');
});

test("a value of this side's own is shown at once, in place of what waits", (t) => {
  const { clock, pace, shown, change } = paced(1);
  change(1);
  change(2);
  pace.setNow(99);
  t.deepEqual(shown, [
    [0, 1],
    [0, 99],
  ]);
  clock.advanceBy(5000);
  t.is(shown.length, 2, 'what waited is not shown after it');
  t.is(pace.value, 99);
});

test('a stop shows what waits at once; a cancel forgets that it waits', (t) => {
  const flushed = paced(1);
  flushed.change(1);
  flushed.change(2);
  flushed.pace.flush();
  t.deepEqual(flushed.shown, [
    [0, 1],
    [0, 2],
  ]);
  flushed.clock.advanceBy(5000);
  t.is(flushed.shown.length, 2, 'shown once');

  const cancelled = paced(1);
  cancelled.change(1);
  cancelled.change(2);
  cancelled.pace.cancel();
  cancelled.clock.advanceBy(5000);
  t.deepEqual(cancelled.shown, [[0, 1]]);
});
