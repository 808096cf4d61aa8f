/**
 * `ClientLink` (R-PK7) with a client the spec drives: what it says is the connection's
 * status, in any order and as often; `start` waits for the first word, at most
 * `connectTimeoutMs`, and a `stop` meanwhile ends the wait; commands get the hub's bounds.
 */
import test from 'ava';
import { HubError } from '../../lib/core/errors.ts';
import { type Fence, Lease, unfenced } from '../../lib/core/lease.ts';
import type { SetResult } from '../../lib/core/parameter.ts';
import { ClientLink } from '../../lib/sdk/device/client-link.ts';
import type { LinkAttempt } from '../../lib/sdk/device/device-link.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

function client(fence: Fence = unfenced) {
  const clock = new VirtualClock();
  const statuses: string[] = [];
  let events: LinkAttempt | undefined;
  let starts = 0;
  let closed = 0;
  const link = new ClientLink(
    {
      start: (given) => {
        starts++;
        events = given;
      },
      close: () => void closed++,
    },
    {
      scheduler: clock.scheduler,
      status: (status: string, reason?: string, code?: string) => void statuses.push([status, reason, code].filter(Boolean).join(' ')),
      fence,
      timeoutMs: 500,
      connectTimeoutMs: 1000,
    },
  );
  return { clock, link, statuses, events: () => events as LinkAttempt, starts: () => starts, closed: () => closed };
}

test('what the library says is the status, as often as it says it; the library is started once and never again (R-PK7)', async (t) => {
  const { clock, link, statuses, events, starts } = client();
  const started = link.start();
  t.deepEqual(statuses, ['connecting']);
  events().down('connection refused');
  await started;
  events().up();
  events().down('the deck closed the link');
  clock.advanceBy(60_000);
  events().up();
  t.deepEqual(statuses, [
    'connecting',
    'degraded connection refused PB_DEVICE_UNAVAILABLE',
    'ok',
    'degraded the deck closed the link PB_DEVICE_UNAVAILABLE',
    'ok',
  ]);
  t.is(starts(), 1, 'no attempt of its own: the library reconnects');
  t.true(link.up);
});

test('start waits at most connectTimeoutMs for a quiet library, and a stop meanwhile ends the wait and closes the library', async (t) => {
  const quiet = client();
  const started = quiet.link.start();
  quiet.clock.advanceBy(1000);
  await started;
  t.deepEqual(quiet.statuses, ['connecting', 'degraded the device has not answered: not connected yet PB_DEVICE_UNAVAILABLE']);
  quiet.events().up();
  t.is(quiet.statuses.at(-1), 'ok', 'its later up is taken');

  const stopped = client();
  const waiting = stopped.link.start();
  await stopped.link.stop();
  await waiting;
  t.is(stopped.closed(), 1);
  stopped.events().up();
  t.false(stopped.link.up, 'nothing is taken after a stop');
});

test("commands: refused while down and while fenced, answered with the promise's outcome, and timed out (R-PK7)", async (t) => {
  const lease = new Lease();
  const { clock, link, events } = client(lease);
  void link.start();
  const answers: SetResult[] = [];
  const answered = (result: SetResult) => void answers.push(result);
  t.like(
    link.command(() => Promise.resolve(), answered),
    { ok: false, error: { code: 'PB_DEVICE_UNAVAILABLE' } },
  );
  events().up();
  t.like(
    link.command(() => Promise.resolve(), answered),
    { ok: false, error: { code: 'PB_NOT_ACTIVE' } },
  );
  lease.grant(1, performance.now() + 60_000);
  t.like(
    link.command(() => Promise.resolve(), answered),
    { ok: true },
  );
  link.command(() => Promise.reject({ code: 103, name: 'unsupported' }), answered);
  link.command(() => Promise.reject(new HubError('PB_BAD_ANSWER', 'locked', { declared: 'DECK_LOCKED' })), answered);
  link.command(() => new Promise(() => {}), answered);
  await new Promise((resolve) => setImmediate(resolve));
  clock.advanceBy(500);
  t.like(answers, [
    { ok: true, value: true },
    { ok: false, error: { code: 'PB_DEVICE_UNAVAILABLE', message: 'the device refused: {"code":103,"name":"unsupported"}' } },
    { ok: false, error: { code: 'PB_BAD_ANSWER', declared: 'DECK_LOCKED' } },
    { ok: false, error: { code: 'PB_DEVICE_TIMEOUT' } },
  ]);
});
