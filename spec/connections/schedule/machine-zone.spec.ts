import test from 'ava';
import { param, startHub } from '../../helpers/hub.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';

// A file of its own: ava runs each file in a process of its own, so this zone stays here.
process.env['TZ'] = 'America/New_York';

test("without a timezone, the clock and the entries follow the machine's zone", async (t) => {
  const clock = new VirtualClock();
  clock.scheduler.frame = Date.parse('2026-07-01T12:00:00Z'); // 08:00 EDT
  const hub = await startHub(
    t,
    { connections: { plan: { type: 'schedule', entries: [{ id: 'nine', cron: '0 0 9 * * *' }] } } },
    { scheduler: clock.scheduler },
  );
  t.is(param(hub, 'plan/clock/time').value, '08:00');
  t.is(param(hub, 'plan/nine/next').value, '2026-07-01T09:00:00-04:00');
  t.deepEqual(hub.connection('plan')?.info.details, { timezone: 'America/New_York', entries: 1 });
});
