import test from 'ava';
import { Client } from './helpers/http.ts';
import { capturedLog, flowOf, param, record, startHub } from './helpers/hub.ts';
import { storeWith } from './helpers/state.ts';

const stored = {
  'vars/level': 0.8,
  'vars/title': 'Evening News',
  'vars/count': 'not a number any more',
  'vars/cue': true,
  'core/logic/2': true,
  'core/function/on': false,
};

const flow = {
  connections: {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
    vars: { type: 'dummy', parameters: ['level,F,0.1', 'title,S', 'count,I,3', 'cue,T', 'copy,F'] },
    core: { type: 'virtual-core', logics: 2, functions: [{ id: 'on', op: 'or', inputs: ['core/logic/2'] }] },
  },
  rules: [{ source: 'vars/level', destinations: ['vars/copy'] }],
};

test('a stored value that no longer fits is warned of as the hub starts, before anything uses its parameter (R-S3)', async (t) => {
  const { log, lines } = capturedLog();
  const hub = await startHub(t, flow, { log, state: await storeWith(t, stored) });
  const warnings = lines().filter((l) => l.level === 40 && l.msg.includes('no longer fits'));
  t.deepEqual(
    warnings.map((l) => l.msg.replace(/ \(.*\)/, '')),
    ['vars/count: the stored value no longer fits; the default is used'],
    'once, at start',
  );
  t.is(param(hub, 'vars/count').value, 3);
  t.is(lines().filter((l) => l.msg.includes('no longer fits')).length, 1, 'not again when the parameter is first used');
});

test('persistent parameters start with their stored values, without notifying anyone', async (t) => {
  const { log, lines } = capturedLog();
  const hub = await startHub(t, flow, { log, state: await storeWith(t, stored) });
  t.is(param(hub, 'vars/level').value, 0.8, 'the stored value wins over the default');
  t.is(param(hub, 'vars/title').value, 'Evening News', 'and over no default');
  t.is(param(hub, 'vars/count').value, 3, 'a stored value that no longer converts falls back to the default');
  t.true(lines().some((l) => l.level === 40 && /vars\/count: the stored value no longer fits .*the default is used/.test(l.msg)));
  t.is(param(hub, 'core/logic/2').value, true, 'virtual-core logics persist');
  t.is(param(hub, 'core/function/on').value, true, 'function outputs are computed, not restored');
  t.is(param(hub, 'vars/copy').value, undefined, 'restoring fired no rule');

  const port = hub.connection('api')?.info.details?.['port'] as number;
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  await client.until(
    () => client.state()['vars/title'] === 'Evening News' && client.state()['vars/level'] === '0.8',
    'restored values in the snapshot',
  );

  const copies = record(t, param(hub, 'vars/copy'));
  param(hub, 'vars/level').set(0.9);
  t.deepEqual(copies, [[0, 0.9]], 'rules run on later changes');
});

test('every change of a persistent parameter is written through in its turn; persist: false keeps a connection out', async (t) => {
  const state = await storeWith(t, { 'scratch/x': 'stale' });
  const hub = await startHub(
    t,
    {
      connections: {
        vars: { type: 'dummy', parameters: ['level,F,0.1', 'cue,T'] },
        scratch: { type: 'dummy', persist: false, parameters: ['x,S,fresh'] },
        core: { type: 'virtual-core', logics: 1, functions: [{ id: 'on', op: 'not', inputs: ['core/logic/1'] }] },
      },
    },
    { state },
  );
  t.is(param(hub, 'scratch/x').value, 'fresh', 'a connection with persist: false starts from its defaults');
  param(hub, 'vars/level').set(0.5);
  param(hub, 'vars/level').set(0.6);
  param(hub, 'scratch/x').set('passing');
  param(hub, 'core/logic/1').set(true);
  param(hub, 'vars/cue').set(null);
  await state.settled();
  t.deepEqual(Object.fromEntries(state.values()), { 'core/logic/1': true, 'scratch/x': 'stale', 'vars/level': 0.6 });
});

test('a connection removed from the flow forgets its values; one restarted with other settings keeps them', async (t) => {
  const state = await storeWith(t, {});
  const hub = await startHub(
    t,
    { connections: { a: { type: 'dummy', parameters: 'x,I' }, b: { type: 'dummy', parameters: 'y,I' } } },
    { state },
  );
  param(hub, 'a/x').set(1);
  param(hub, 'b/y').set(2);
  // statusParameters restarts a dummy instead of updating it in place
  await hub.reload(flowOf({ connections: { a: { type: 'dummy', parameters: 'x,I', statusParameters: true } } }));
  t.is(param(hub, 'a/x').value, 1, 'restarted, and restored');
  await state.settled();
  t.deepEqual(Object.fromEntries(state.values()), { 'a/x': 1 });
});
