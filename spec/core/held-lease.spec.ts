/**
 * A hub's own proof that it holds its etcd lease (R-EG2), on a virtual clock: keep-alives
 * answered at once, late, or never, and a clock that jumps, against a 2 s lease with its
 * 200 ms margin.
 */
import test from 'ava';
import { driftMargin, HeldLease } from '../../lib/core/held-lease.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

function held(leaseMs = 2000) {
  const clock = new VirtualClock();
  const lapses: number[] = [];
  const lease = new HeldLease(
    clock.scheduler,
    () => clock.now,
    leaseMs,
    () => lapses.push(clock.now),
  );
  return { clock, lease, lapses };
}

test('the margin for drift is a tenth of the lease, at least 100 ms', (t) => {
  t.is(driftMargin(2000), 200);
  t.is(driftMargin(500), 100);
  t.is(driftMargin(10_000), 1000);
});

test('nothing holds before a keep-alive was acknowledged', (t) => {
  const { lease } = held();
  lease.sending();
  t.false(lease.holds());
  t.is(lease.left(), 0);
});

test('a keep-alive answered at once holds until its send time plus the lease less the margin, and the hub is told at that moment', (t) => {
  const { clock, lease, lapses } = held();
  clock.advanceBy(1000);
  lease.acknowledged(lease.sending());
  t.true(lease.holds());
  t.is(lease.left(), 1800);
  t.is(lease.holdsUntil, 2800);
  clock.advanceBy(1799);
  t.true(lease.holds());
  clock.advanceBy(1);
  t.false(lease.holds());
  t.deepEqual(lapses, [2800]);
});

test('a keep-alive acknowledged late counts from when it was sent, not from its answer', (t) => {
  const { clock, lease } = held();
  const sent = lease.sending();
  clock.advanceBy(1500);
  lease.acknowledged(sent);
  t.is(lease.left(), 300);
  // Answered after the whole lease: it proves nothing.
  const late = lease.sending();
  clock.advanceBy(2000);
  t.false(lease.holds());
  lease.acknowledged(late);
  t.false(lease.holds());
});

test('keep-alives lost leave the hold where the last answered one put it; answers out of order never shorten it', (t) => {
  const { clock, lease, lapses } = held();
  const first = lease.sending();
  clock.advanceBy(500);
  const second = lease.sending();
  clock.advanceBy(100);
  lease.acknowledged(second);
  lease.acknowledged(first);
  t.is(lease.holdsUntil, 2300);
  // Three keep-alives lost, one every 500 ms.
  for (let i = 0; i < 3; i++) {
    lease.sending();
    clock.advanceBy(500);
  }
  t.true(lease.holds());
  clock.advanceBy(200);
  t.false(lease.holds());
  t.deepEqual(lapses, [2300]);
});

test('once ended the hold does not come back with an answer to a keep-alive sent before the end', (t) => {
  const { clock, lease, lapses } = held();
  lease.acknowledged(lease.sending());
  const before = lease.sending();
  lease.end();
  clock.advanceBy(10);
  lease.acknowledged(before);
  t.false(lease.holds());
  t.deepEqual(lapses, [], 'an end is not a lapse');
  lease.acknowledged(lease.sending());
  t.true(lease.holds());
});

test('a clock that jumps forward (a paused process) finds the hold ended before anything is sent', (t) => {
  const { clock, lease, lapses } = held();
  lease.acknowledged(lease.sending());
  // The scheduler did not run in between: a pause, as the process sees it when it wakes.
  clock.scheduler.frame += 5000;
  t.false(lease.holds());
  t.deepEqual(lapses, [5000]);
});

test('a clock that reads earlier than before ends the hold rather than lengthen it', (t) => {
  const { clock, lease, lapses } = held();
  clock.advanceBy(3000);
  lease.acknowledged(lease.sending());
  t.true(lease.holds());
  clock.scheduler.frame -= 1000;
  t.false(lease.holds());
  t.deepEqual(lapses, [2000]);
  // A keep-alive sent after the step counts again, from the clock as it reads now.
  lease.acknowledged(lease.sending());
  t.is(lease.left(), 1800);
});

test('with keep-alives every half lease, answered within the margin, the hold never ends', (t) => {
  const { clock, lease, lapses } = held();
  for (let i = 0; i < 60; i++) {
    const sent = lease.sending();
    clock.advanceBy(150);
    lease.acknowledged(sent);
    clock.advanceBy(850);
    t.true(lease.holds());
  }
  t.deepEqual(lapses, []);
});

test('a keep-alive lost to a dead member and sent again a deadline and a round later keeps the hold; a second lost ends it', (t) => {
  const { clock, lease, lapses } = held();
  lease.acknowledged(lease.sending());
  // Half a lease on, a keep-alive waits its 500 ms deadline; the next round (50 ms) sends another, answered.
  clock.advanceBy(1000 + 500 + 50);
  const again = lease.sending();
  clock.advanceBy(10);
  lease.acknowledged(again);
  t.true(lease.holds());
  t.deepEqual(lapses, []);
  // Two lost in a row: the proof (1.8 s from the last answered send) runs out before the third is sent.
  clock.advanceBy(1000 + 500 + 50 + 500 - 10);
  t.false(lease.holds());
  t.is(lapses.length, 1);
});
