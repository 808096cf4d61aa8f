import test from 'ava';
import { param, startHub } from '../../helpers/hub.ts';

// In a file of its own: the virtual-time specs run days of clock work at a time and would hold this worker's event loop.
test('an every-second entry fires on the real clock within each second it announced', async (t) => {
  const hub = await startHub(t, {
    connections: { plan: { type: 'schedule', timezone: 'UTC', entries: [{ id: 'tick', cron: '* * * * * *' }] } },
  });
  const next = param(hub, 'plan/tick/next');
  const fires: { at: number; announced: number }[] = [];
  // `next` still names the time being fired while its fire is heard.
  const listening = param(hub, 'plan/tick/fire').changes$.subscribe(() =>
    fires.push({ at: Date.now(), announced: Date.parse(String(next.value)) }),
  );
  t.teardown(() => listening.unsubscribe());
  await new Promise((resolve) => setTimeout(resolve, 3200));
  t.true(fires.length >= 3, `fired ${fires.length} times in 3.2 s`);
  for (const { at, announced } of fires) {
    t.is(announced % 1000, 0, 'a whole second');
    t.is(Math.floor(at / 1000), announced / 1000, `fired at ${new Date(at).toISOString()} for ${new Date(announced).toISOString()}`);
  }
  t.deepEqual(
    fires.map(({ announced }) => announced - (fires[0]?.announced ?? 0)),
    fires.map((_, n) => n * 1000),
    'one fire each second',
  );
});
