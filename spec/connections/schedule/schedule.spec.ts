import test from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { connectionTypeOf } from '../../../lib/connections/connection.ts';
import { scheduleType } from '../../../lib/connections/schedule/schedule.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import type { StateStore } from '../../../lib/state/store.ts';
import { flowOf, param, record, startHub } from '../../helpers/hub.ts';
import { storeWith } from '../../helpers/state.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';

type Spec = Parameters<typeof startHub>[0];

/** A virtual clock that reads `start` (an ISO instant). */
function clockAt(start: string): VirtualClock {
  const clock = new VirtualClock();
  clock.scheduler.frame = Date.parse(start);
  return clock;
}

async function scheduleHub(t: Spec, clock: VirtualClock, settings: object, state?: StateStore) {
  const flow = { connections: { plan: { type: 'schedule', ...settings } } };
  return startHub(t, flow, { scheduler: clock.scheduler, ...(state ? { state } : {}) });
}

/** The times of a record as UTC ISO text. */
const times = (fires: [number, unknown][]) => fires.map(([at]) => new Date(at).toISOString().replace('.000', ''));

const hour = 3_600_000;
const day = 24 * hour;

test('each entry has fire, next and enabled; the connection has its clock', async (t) => {
  const hub = await scheduleHub(t, clockAt('2026-06-01T10:00:00Z'), { timezone: 'UTC', entries: [{ id: 'news', cron: '0 0 * * * *' }] });
  t.deepEqual(
    hub.graph.all().map((p) => [p.address, p.type, p.access]),
    [
      ['plan/clock/time', 'S', 'read-only'],
      ['plan/clock/date', 'S', 'read-only'],
      ['plan/clock/weekday', 'I', 'read-only'],
      ['plan/news/fire', 'T', 'read-only'],
      ['plan/news/next', 'S', 'read-only'],
      ['plan/news/enabled', 'B', 'read-write'],
    ],
  );
  t.is(param(hub, 'plan/news/enabled').value, true);
});

test('spring: a local time the change skips fires once, at the change, in Berlin and in New York', async (t) => {
  const clock = clockAt('2026-03-06T12:00:00Z');
  const hub = await scheduleHub(t, clock, {
    entries: [
      { id: 'berlin', cron: '0 30 2 * * *', timezone: 'Europe/Berlin' },
      { id: 'new-york', cron: '0 30 2 * * *', timezone: 'America/New_York' },
    ],
  });
  const berlin = record(t, param(hub, 'plan/berlin/fire'), () => clock.now);
  const newYork = record(t, param(hub, 'plan/new-york/fire'), () => clock.now);
  clock.advanceBy(24 * day);
  const onChangeDays = (fires: [number, unknown][], date: string) => times(fires).filter((at) => at.startsWith(date));
  t.deepEqual(onChangeDays(newYork, '2026-03-08'), ['2026-03-08T07:00:00Z'], '03:00 EDT, the change');
  t.deepEqual(onChangeDays(berlin, '2026-03-29'), ['2026-03-29T01:00:00Z'], '03:00 CEST, the change');
  t.is(berlin.length, 24, 'one fire a day');
  t.is(newYork.length, 24, 'one fire a day');
});

test('autumn: a local time the change repeats fires once, at its first pass, in Berlin and in New York', async (t) => {
  const clock = clockAt('2026-10-23T12:00:00Z');
  const hub = await scheduleHub(t, clock, {
    entries: [
      { id: 'berlin', cron: '0 30 2 * * *', timezone: 'Europe/Berlin' },
      { id: 'new-york', cron: '0 30 1 * * *', timezone: 'America/New_York' },
      { id: 'quarters', cron: '0 */15 * * * *', timezone: 'Europe/Berlin' },
    ],
  });
  const berlin = record(t, param(hub, 'plan/berlin/fire'), () => clock.now);
  const newYork = record(t, param(hub, 'plan/new-york/fire'), () => clock.now);
  const quarters = record(t, param(hub, 'plan/quarters/fire'), () => clock.now);
  clock.advanceBy(10 * day);
  t.deepEqual(
    times(berlin).filter((at) => at.startsWith('2026-10-25')),
    ['2026-10-25T00:30:00Z'],
    '02:30 CEST only',
  );
  t.deepEqual(
    times(newYork).filter((at) => at.startsWith('2026-11-01')),
    ['2026-11-01T05:30:00Z'],
    '01:30 EDT only',
  );
  t.is(berlin.length, 10);
  t.is(newYork.length, 10);
  // 25 October in Berlin has 25 hours, of which one repeats: 96 quarter hours fire, as on any day.
  const onChangeDay = times(quarters).filter((at) => at >= '2026-10-24T22:00:00Z' && at < '2026-10-25T23:00:00Z');
  t.is(onChangeDay.length, 96);
  t.is(new Set(onChangeDay).size, 96);
});

test('next shows the coming fire as local time with its offset, and moves on after each fire', async (t) => {
  const clock = clockAt('2026-03-28T12:00:00Z');
  const hub = await scheduleHub(t, clock, { timezone: 'Europe/Berlin', entries: [{ id: 'night', cron: '0 30 2 * * *' }] });
  const next = param(hub, 'plan/night/next');
  t.is(next.value, '2026-03-29T03:00:00+02:00', 'the skipped 02:30 comes at the change');
  clock.advanceBy(day);
  t.is(next.value, '2026-03-30T02:30:00+02:00');
});

test('an at entry fires once at its local time; next is empty afterwards', async (t) => {
  const clock = clockAt('2026-12-24T16:00:00Z');
  const hub = await scheduleHub(t, clock, { timezone: 'Europe/Berlin', entries: [{ id: 'eve', at: '2026-12-24T18:00:00' }] });
  const fires = record(t, param(hub, 'plan/eve/fire'), () => clock.now);
  t.is(param(hub, 'plan/eve/next').value, '2026-12-24T18:00:00+01:00');
  clock.advanceBy(2 * day);
  t.deepEqual(times(fires), ['2026-12-24T17:00:00Z']);
  t.is(param(hub, 'plan/eve/next').value, '');
});

test('enabled false stops the fires and empties next; true fires again from now on, not what passed meanwhile', async (t) => {
  const clock = clockAt('2026-06-01T10:00:30Z');
  const hub = await scheduleHub(t, clock, { timezone: 'UTC', entries: [{ id: 'minute', cron: '0 * * * * *' }] });
  const fires = record(t, param(hub, 'plan/minute/fire'), () => clock.now);
  clock.advanceBy(60_000);
  t.true(param(hub, 'plan/minute/enabled').set(false).ok);
  t.is(param(hub, 'plan/minute/next').value, '');
  clock.advanceBy(5 * 60_000);
  t.deepEqual(times(fires), ['2026-06-01T10:01:00Z']);
  param(hub, 'plan/minute/enabled').set(true);
  t.is(param(hub, 'plan/minute/next').value, '2026-06-01T10:07:00+00:00');
  clock.advanceBy(60_000);
  t.deepEqual(times(fires), ['2026-06-01T10:01:00Z', '2026-06-01T10:07:00Z']);
});

test('enabled is kept across a restart of the hub', async (t) => {
  const state = await storeWith(t);
  const clock = clockAt('2026-06-01T10:00:30Z');
  const settings = { timezone: 'UTC', entries: [{ id: 'minute', cron: '0 * * * * *' }] };
  const first = await scheduleHub(t, clock, settings, state);
  param(first, 'plan/minute/enabled').set(false);
  await state.settled();
  await first.stop();
  const second = await scheduleHub(t, clock, settings, state);
  const fires = record(t, param(second, 'plan/minute/fire'), () => clock.now);
  t.is(param(second, 'plan/minute/enabled').value, false);
  clock.advanceBy(10 * 60_000);
  t.deepEqual(fires, []);
});

test('a fire missed while the hub was down is dropped; with catchUp it fires once at start, never twice across restarts', async (t) => {
  for (const catchUp of [false, true]) {
    const state = await storeWith(t);
    const clock = clockAt('2026-06-01T03:00:00Z'); // 05:00 in Berlin
    const settings = { timezone: 'Europe/Berlin', catchUp, entries: [{ id: 'onair', cron: '0 0 6 * * *' }] };
    const first = await scheduleHub(t, clock, settings, state);
    clock.advanceBy(30 * 60_000);
    await state.settled();
    await first.stop();
    clock.advanceBy(hour + 30 * 60_000); // down through 06:00

    const second = await scheduleHub(t, clock, settings, state);
    const fires = record(t, param(second, 'plan/onair/fire'), () => clock.now);
    clock.advanceBy(0);
    t.deepEqual(times(fires), catchUp ? ['2026-06-01T05:00:00Z'] : [], `catchUp ${catchUp}: at start`);
    t.is(param(second, 'plan/onair/next').value, '2026-06-02T06:00:00+02:00');
    clock.advanceBy(10 * 60_000);
    await state.settled();
    await second.stop();

    const third = await scheduleHub(t, clock, settings, state);
    const again = record(t, param(third, 'plan/onair/fire'), () => clock.now);
    clock.advanceBy(hour);
    t.deepEqual(again, [], `catchUp ${catchUp}: no second fire after another restart`);
    await third.stop();
  }
});

test("an entry's own catchUp: false drops its missed fire where the connection catches up", async (t) => {
  const state = await storeWith(t);
  const clock = clockAt('2026-06-01T03:00:00Z');
  const settings = { timezone: 'Europe/Berlin', catchUp: true, entries: [{ id: 'onair', cron: '0 0 6 * * *', catchUp: false }] };
  await (await scheduleHub(t, clock, settings, state)).stop();
  clock.advanceBy(3 * hour);
  const second = await scheduleHub(t, clock, settings, state);
  const fires = record(t, param(second, 'plan/onair/fire'), () => clock.now);
  clock.advanceBy(0);
  t.deepEqual(fires, []);
});

test('a clock set back across a restart does not fire a handled time again', async (t) => {
  const state = await storeWith(t);
  const clock = clockAt('2026-06-01T10:00:30Z');
  const settings = { timezone: 'UTC', entries: [{ id: 'minute', cron: '0 * * * * *' }] };
  const first = await scheduleHub(t, clock, settings, state);
  const before = record(t, param(first, 'plan/minute/fire'), () => clock.now);
  clock.advanceBy(60_000);
  t.deepEqual(times(before), ['2026-06-01T10:01:00Z']);
  await state.settled();
  await first.stop();
  clock.scheduler.frame = Date.parse('2026-06-01T10:00:10Z'); // the machine's clock is set back 80 s
  const second = await scheduleHub(t, clock, settings, state);
  const after = record(t, param(second, 'plan/minute/fire'), () => clock.now);
  t.is(param(second, 'plan/minute/next').value, '2026-06-01T10:02:00+00:00');
  clock.advanceBy(2 * 60_000);
  t.deepEqual(times(after), ['2026-06-01T10:02:00Z']);
});

test('an entry that was disabled while its time passed does not catch it up', async (t) => {
  const state = await storeWith(t);
  const clock = clockAt('2026-06-01T03:00:00Z');
  const settings = { timezone: 'Europe/Berlin', catchUp: true, entries: [{ id: 'onair', cron: '0 0 6 * * *' }] };
  const first = await scheduleHub(t, clock, settings, state);
  param(first, 'plan/onair/enabled').set(false);
  clock.advanceBy(3 * hour); // 06:00 passes while disabled
  param(first, 'plan/onair/enabled').set(true);
  await state.settled();
  await first.stop();
  const second = await scheduleHub(t, clock, settings, state);
  const fires = record(t, param(second, 'plan/onair/fire'), () => clock.now);
  clock.advanceBy(0);
  t.deepEqual(fires, []);
});

test('the clock shows local time, date and weekday, changing at each minute of its zone', async (t) => {
  const clock = clockAt('2026-03-29T00:59:30Z'); // a Sunday, 01:59:30 CET, just before the spring change
  const hub = await scheduleHub(t, clock, { timezone: 'Europe/Berlin' });
  const time = param(hub, 'plan/clock/time');
  t.deepEqual([time.value, param(hub, 'plan/clock/date').value, param(hub, 'plan/clock/weekday').value], ['01:59', '2026-03-29', 7]);
  const seen = record(t, time, () => clock.now);
  clock.advanceBy(29_999);
  t.deepEqual(seen, []);
  clock.advanceBy(1);
  t.deepEqual(seen, [[Date.parse('2026-03-29T01:00:00Z'), '03:00']]);
  clock.advanceBy(day);
  t.deepEqual([time.value, param(hub, 'plan/clock/date').value, param(hub, 'plan/clock/weekday').value], ['03:00', '2026-03-30', 1]);
  t.is(seen.length, 1 + 24 * 60);
});

test('a rule from clock/weekday keeps a weekend logic from the start, and changes it at midnight', async (t) => {
  const clock = clockAt('2026-11-29T22:59:00Z'); // Sunday 23:59 in Berlin
  const flow = {
    connections: { plan: { type: 'schedule', timezone: 'Europe/Berlin' }, core: { type: 'virtual-core', logics: 2 } },
    rules: [{ source: 'plan/clock/weekday', destinations: ['core/logic/2'], pipe: [{ map: { '6': true, '7': true, '*': false } }] }],
  };
  const hub = await startHub(t, flow, { scheduler: clock.scheduler });
  const weekend = param(hub, 'core/logic/2');
  const changes = record(t, weekend, () => clock.now);
  clock.advanceBy(0);
  t.is(weekend.value, true, 'Sunday, from the start: logics start false');
  clock.advanceBy(60_000);
  t.deepEqual(changes, [[Date.parse('2026-11-29T23:00:00Z'), false]], 'Monday 00:00');
});

test('stopping the connection cancels its waits', async (t) => {
  const clock = clockAt('2026-06-01T10:00:00Z');
  const hub = await scheduleHub(t, clock, { timezone: 'UTC', entries: [{ id: 'second', cron: '* * * * * *' }] });
  const fires = record(t, param(hub, 'plan/second/fire'), () => clock.now);
  clock.advanceBy(2000);
  await hub.stop();
  clock.advanceBy(10_000);
  t.is(fires.length, 2);
  t.is(clock.scheduler.actions.length, 0, 'nothing left scheduled');
});

test('a reload with other entries restarts the connection: the new entries fire, the old ones wait no more', async (t) => {
  const clock = clockAt('2026-06-01T10:00:30Z');
  const hub = await scheduleHub(t, clock, { timezone: 'UTC', entries: [{ id: 'old', cron: '0 * * * * *' }] });
  const old = record(t, param(hub, 'plan/old/fire'), () => clock.now);
  await hub.reload(
    flowOf({ connections: { plan: { type: 'schedule', timezone: 'UTC', entries: [{ id: 'new', cron: '30 * * * * *' }] } } }),
  );
  const fresh = record(t, param(hub, 'plan/new/fire'), () => clock.now);
  t.is(param(hub, 'plan/clock/time').value, '10:00');
  clock.advanceBy(2 * 60_000);
  t.deepEqual(old, []);
  t.deepEqual(times(fresh), ['2026-06-01T10:01:30Z', '2026-06-01T10:02:30Z']);
  t.is(clock.scheduler.actions.length, 2, 'the new entry and the clock wait; nothing else');
});

test('of its parameters, the hub keeps enabled only: what patchbay state import may store', (t) => {
  const plan = connectionTypeOf(scheduleType).prepare(
    { timezone: 'UTC', entries: [{ id: 'news', cron: '0 0 * * * *' }] },
    { id: 'plan', baseDir: '/virtual' },
  );
  if (!plan.ok) return void t.fail('the settings are fine');
  const declared = (id: string) => plan.value.declared?.(id);
  t.deepEqual(declared('news/enabled'), { type: 'B', persist: true });
  t.deepEqual(declared('news/fire'), { type: 'T', persist: false });
  t.deepEqual(declared('news/next'), { type: 'S', persist: false });
  t.deepEqual(declared('clock/weekday'), { type: 'I', persist: false });
  t.is(declared('other/enabled'), undefined);
  t.is(declared('news/other'), undefined);
});

test('bad expressions, date-times, time zones and ids are refused with their paths', (t) => {
  const result = validateFlow(
    {
      connections: {
        plan: {
          type: 'schedule',
          timezone: 'Europe/Nowhere',
          entries: [
            { id: 'a', cron: '0 6 * * 1-5' },
            { id: 'b', cron: '0 0 0 30 2 *' },
            { id: 'c', at: '2026-02-30T12:00:00' },
            { id: 'd', cron: '* * * * * *', at: '2026-01-01T00:00:00' },
            { id: 'e' },
            { id: 'a', cron: '0 0 6 * * *', timezone: 'Mars/Olympus' },
            { id: 'clock', cron: '0 0 6 * * *' },
            { id: 'f/g', cron: '0 0 6 * * *' },
          ],
        },
        many: { type: 'schedule', entries: Array.from({ length: 257 }, (_, n) => ({ id: `e${n}`, cron: '0 0 6 * * *' })) },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (!result.ok) {
    t.deepEqual(result.issues.map(formatIssue).sort(), [
      'connections.many.entries: expected a list of at most 256 entries',
      "connections.plan.entries[0].cron: expected a cron expression of six fields, seconds first (\"0 0 6 * * MON-FRI\"): mode '6-part' requires exactly 6 parts, but pattern '0 6 * * 1-5' has 5 parts.",
      'connections.plan.entries[1].cron: expected a cron expression of six fields, seconds first ("0 0 6 * * MON-FRI"): it matches no date (such as 30 February)',
      'connections.plan.entries[2].at: expected an ISO 8601 date-time such as "2026-12-24T18:00:00" (seconds and a fraction optional), with an offset ("Z", "+01:00") for an instant, or without one for local time in the timezone',
      'connections.plan.entries[3]: expected exactly one of cron and at',
      'connections.plan.entries[4]: expected exactly one of cron and at',
      'connections.plan.entries[5].id: expected an id of its own; "a" names an earlier entry',
      'connections.plan.entries[5].timezone: expected an IANA time zone such as Europe/Berlin; this machine knows no zone "Mars/Olympus"',
      'connections.plan.entries[6].id: expected an id other than "clock": clock/… are the clock parameters',
      'connections.plan.entries[7].id: expected a string matching /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/',
      'connections.plan.timezone: expected an IANA time zone such as Europe/Berlin; this machine knows no zone "Europe/Nowhere"',
    ]);
  }
});

test('an at that has passed is valid but validate warns that it will not fire', (t) => {
  const result = validateFlow(
    {
      connections: {
        plan: {
          type: 'schedule',
          timezone: 'UTC',
          entries: [
            { id: 'gone', at: '2020-01-01T00:00:00.000Z' },
            { id: 'ahead', at: '2999-01-01T00:00:00Z' },
            { id: 'kept', at: '2020-01-01T00:00:00Z', catchUp: true },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  if (!result.ok) throw result.error;
  t.deepEqual(
    result.flow.warnings.map((issue) => formatIssue(issue).replace(/it is [^)]+ now/, 'it is … now')),
    ['connections.plan.entries[0].at: this time has passed (it is … now): the entry will not fire'],
  );
});
