import test from 'ava';
import { DeviceLink, type LinkAttempt } from '../../lib/sdk/device/device-link.ts';
import { HubError } from '../../lib/core/errors.ts';
import { type Fence, Lease, unfenced } from '../../lib/core/lease.ts';
import type { SetResult } from '../../lib/core/parameter.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

/** A device whose every attempt the spec decides: the attempts are kept, in order, with when they were made. */
function device(fence: Fence = unfenced, longestRetryMs?: number) {
  const clock = new VirtualClock();
  const attempts: { attempt: LinkAttempt; at: number }[] = [];
  const statuses: string[] = [];
  let closed = 0;
  const link = new DeviceLink(
    { open: (attempt) => void attempts.push({ attempt, at: clock.now }), close: () => void closed++ },
    {
      scheduler: clock.scheduler,
      status: (status: string, reason?: string, code?: string) => void statuses.push([status, reason, code].filter(Boolean).join(' ')),
      fence,
      ...(longestRetryMs === undefined ? {} : { longestRetryMs }),
    },
  );
  const last = () => attempts[attempts.length - 1]!.attempt;
  return { clock, link, attempts, statuses, last, closed: () => closed };
}

test('a link reports connecting, ok, and degraded with the reason while it tries again after 0.25 s, doubling to 2 s, so a device back is ok within 2 s (R-G1, R-DV5)', async (t) => {
  const { link, statuses, last } = device();
  const first = link.start();
  t.deepEqual(statuses, ['connecting']);
  last().down('connection refused');
  await first;
  t.deepEqual(statuses, ['connecting', 'degraded connection refused PB_DEVICE_UNAVAILABLE']);
  // Retries measured one by one: 250, 500, 1000, then 2000 forever.
  const clock2 = device();
  void clock2.link.start();
  const times: number[] = [];
  for (let i = 0; i < 8; i++) {
    const before = clock2.attempts.length;
    clock2.last().down('gone');
    let waited = 0;
    while (clock2.attempts.length === before) {
      clock2.clock.advanceBy(1);
      waited++;
    }
    times.push(waited);
  }
  t.deepEqual(times, [250, 500, 1000, 2000, 2000, 2000, 2000, 2000]);
  clock2.last().up();
  t.true(clock2.link.up);
  t.is(clock2.statuses.at(-1), 'ok');
  clock2.last().down('reset');
  const before = clock2.attempts.length;
  clock2.clock.advanceBy(250);
  t.is(clock2.attempts.length, before + 1, 'once up, the backoff starts again at 0.25 s');
});

test('longestRetryMs caps the backoff: a link that everything waits for (a broker) tries every second', (t) => {
  const { clock, link, attempts, last } = device(unfenced, 1000);
  void link.start();
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const before = attempts.length;
    last().down('gone');
    let waited = 0;
    while (attempts.length === before) {
      clock.advanceBy(1);
      waited++;
    }
    times.push(waited);
  }
  t.deepEqual(times, [250, 500, 1000, 1000, 1000, 1000]);
});

test('a write while the link is down is refused at once; one the device never confirms times out; confirmations and refusals are answered (R-G1)', async (t) => {
  const { clock, link, last } = device();
  void link.start();
  const sent: string[] = [];
  const answers: SetResult[] = [];
  const down = link.write(
    () => sent.push('never'),
    (result) => answers.push(result),
  );
  t.false(down.ok);
  if (!down.ok) t.is(down.error.code, 'PB_DEVICE_UNAVAILABLE');
  t.deepEqual(sent, [], 'nothing is sent while down');
  last().up();

  let confirm: (error?: unknown) => void = () => {};
  t.true(
    link.write(
      (done) => (confirm = done),
      (result) => answers.push(result),
    ).ok,
  );
  clock.advanceBy(1999);
  t.deepEqual(answers, [], 'no answer before the device confirms');
  confirm();
  t.deepEqual(answers, [{ ok: true, value: true }]);

  link.write(
    (done) => done(new HubError('PB_READ_ONLY', 'the device refuses')),
    (result) => answers.push(result),
  );
  t.is(answers.length, 2);
  t.like(answers[1], { ok: false, error: { code: 'PB_READ_ONLY' } });

  link.write(
    () => {},
    (result) => answers.push(result),
  );
  clock.advanceBy(1999);
  t.is(answers.length, 2);
  clock.advanceBy(1);
  t.like(answers[2], { ok: false, error: { code: 'PB_DEVICE_TIMEOUT' } });
  confirm();
  t.is(answers.length, 3, 'a late confirmation answers nothing twice');
});

test('a stopped link closes its protocol once, tries no more, and ignores what an old attempt says', async (t) => {
  const { clock, link, attempts, statuses, last, closed } = device();
  void link.start();
  const attempt = last();
  attempt.down('refused');
  await link.stop();
  await link.stop();
  t.is(closed(), 1);
  clock.advanceBy(60_000);
  t.is(attempts.length, 1, 'no attempt after the stop');
  attempt.up();
  t.false(link.up);
  t.is(statuses.at(-1), 'degraded refused PB_DEVICE_UNAVAILABLE');
  t.false(link.write(() => t.fail('sent')).ok);
});

test('a write is sent only while the lease holds: once it ended, or before it was granted, nothing reaches the device (R-B3)', async (t) => {
  const lease = new Lease();
  const { link, last } = device(lease);
  void link.start();
  last().up();
  const sent: string[] = [];
  const write = (text: string) => link.write(() => void sent.push(text));
  const before = write('before the lease');
  t.like(before, { ok: false, error: { code: 'PB_NOT_ACTIVE' } }, 'a standby sends nothing');
  lease.grant(7, performance.now() + 60_000);
  t.like(write('held'), { ok: true });
  lease.end();
  const after = write('after');
  t.like(after, { ok: false, error: { code: 'PB_NOT_ACTIVE' } });
  t.regex(after.ok ? '' : after.error.message, /lease \(epoch 7\) ended/);
  lease.grant(8, performance.now() - 1);
  t.like(write('run out'), { ok: false, error: { code: 'PB_NOT_ACTIVE' } }, 'a lease past its time holds no more, with no timer to say so');
  lease.renew(performance.now() + 60_000);
  t.like(write('renewed late'), { ok: false }, 'a renewal does not revive a lease that ran out');
  t.deepEqual(sent, ['held']);
});

test('what an attempt opened is released once it is down, before the next attempt opens, and at stop: no socket left behind', async (t) => {
  const clock = new VirtualClock();
  const said: string[] = [];
  const attempts: LinkAttempt[] = [];
  const link = new DeviceLink(
    {
      open: (attempt) => {
        const n = attempts.push(attempt);
        said.push(`open ${n}`);
        return () => said.push(`release ${n}`);
      },
      close: () => void said.push('close'),
    },
    { scheduler: clock.scheduler, status: () => {}, fence: unfenced },
  );
  void link.start();
  attempts[0]?.up();
  attempts[0]?.down('reset by the device');
  attempts[0]?.down('said twice');
  t.deepEqual(said, ['open 1', 'release 1'], 'released at once, and once');
  clock.advanceBy(250);
  t.deepEqual(said, ['open 1', 'release 1', 'open 2'], 'the next attempt after the release');
  await link.stop();
  t.deepEqual(said, ['open 1', 'release 1', 'open 2', 'release 2', 'close']);

  // An attempt that is down before `open` returned (a host that does not resolve) releases at once too.
  const early: string[] = [];
  const quick = new DeviceLink(
    {
      open: (attempt) => {
        attempt.down('no such host');
        return () => early.push('released');
      },
      close: () => {},
    },
    { scheduler: clock.scheduler, status: () => {}, fence: unfenced },
  );
  await quick.start();
  t.deepEqual(early, ['released']);
  await quick.stop();
});

test("a fault the device reports while it answers survives the link going down and up again, and `_status/connected`'s code stays the device's", (t) => {
  const { link, statuses, last, clock } = device();
  void link.start();
  last().up();
  link.fault({ reason: 'output 3 is shorted', code: 'PB_BAD_ANSWER' });
  t.is(statuses.at(-1), 'degraded output 3 is shorted PB_BAD_ANSWER');
  last().down('reset');
  t.is(statuses.at(-1), 'degraded reset PB_DEVICE_UNAVAILABLE', 'away, the link says so');
  clock.advanceBy(250);
  last().up();
  t.is(statuses.at(-1), 'degraded output 3 is shorted PB_BAD_ANSWER', 'back, the fault is still shown: not a bare ok');
  link.fault(undefined);
  t.is(statuses.at(-1), 'ok');
});
