import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { retryIntervalMs } from '../../lib/state/supervise-store.ts';
import { StateStore } from '../../lib/state/store.ts';
import { eventually } from '../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../helpers/hub.ts';
import { stateFolder, storeWith } from '../helpers/state.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

test('a state folder that cannot be written is a hub problem; values work in memory and are saved once it recovers', async (t) => {
  const folder = join(await stateFolder(), 'state');
  await writeFile(folder, 'in the way');
  const state = StateStore.openOrWait(folder);
  t.teardown(() => state.close());
  const clock = new VirtualClock();
  const { log, lines } = capturedLog();
  const hub = await startHub(
    t,
    { connections: { vars: { type: 'dummy', parameters: 'a,I,1' } } },
    { state, scheduler: clock.scheduler, log },
  );
  t.like(hub.problems(), [{ source: 'state', id: folder, code: 'PB_STATE_UNAVAILABLE' }]);
  t.like(
    hub.connection('vars')?.status,
    { status: 'degraded', code: 'PB_STATE_UNAVAILABLE' },
    'a connection whose values are kept shows it',
  );
  t.regex(hub.connection('vars')?.status.reason ?? '', /values are kept in memory only, not saved: cannot open the state folder/);
  param(hub, 'vars/a').set(5);
  t.is(param(hub, 'vars/a').value, 5);
  t.true(lines().some((l) => l.level === 40 && l.msg.includes(`state folder ${folder}: values are kept in memory only`)));

  await rm(folder);
  clock.advanceBy(retryIntervalMs);
  await state.settled();
  await eventually(() => state.health.ok, 'the store to recover');
  t.deepEqual(hub.problems(), []);
  t.deepEqual(hub.connection('vars')?.status, { status: 'ok', reason: '' }, 'ok again');
  t.true(lines().some((l) => l.msg === `state folder ${folder}: saving values again`));
  const reader = await storeWith(t, {}, folder);
  t.deepEqual(reader.values(), [['vars/a', 5]]);
});
