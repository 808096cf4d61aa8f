import test from 'ava';
import { Client } from './helpers/http.ts';
import { capturedLog, param, record, startHub } from './helpers/hub.ts';

const stored = new Map<string, unknown>([
  ['vars/level', 0.8],
  ['vars/title', 'Evening News'],
  ['vars/count', 'not a number any more'],
  ['vars/cue', true],
  ['core/logic/2', true],
  ['core/function/on', false],
]);

const flow = {
  connections: {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
    vars: { type: 'dummy', parameters: ['level,F,0.1', 'title,S', 'count,I,3', 'cue,T', 'copy,F'] },
    core: { type: 'virtual-core', logics: 2, functions: [{ id: 'on', op: 'or', inputs: ['core/logic/2'] }] },
  },
  rules: [{ source: 'vars/level', destinations: ['vars/copy'] }],
};

test('persistent parameters start with their stored values, without notifying anyone', async (t) => {
  const { log, lines } = capturedLog();
  const hub = await startHub(t, flow, { log, restore: (address) => stored.get(address) });
  t.is(param(hub, 'vars/level').value, 0.8, 'the stored value wins over the default');
  t.is(param(hub, 'vars/title').value, 'Evening News', 'and over no default');
  t.is(param(hub, 'vars/count').value, 3, 'a stored value that no longer converts falls back to the default');
  t.true(lines().some((l) => l.level === 40 && /vars\/count: the stored value no longer fits .*the default is used/.test(l.msg)));
  t.is(param(hub, 'core/logic/2').value, true, 'virtual-core logics persist');
  t.is(param(hub, 'core/function/on').value, true, 'function outputs are computed, not restored');
  t.is(param(hub, 'vars/copy').value, undefined, 'restoring fired no rule');

  const port = hub.connection('api')?.info.details?.['port'] as number;
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  await client.until(() => client.state()['vars/title'] === 'Evening News' && client.state()['vars/level'] === '0.8', 'restored values in the snapshot');

  const copies = record(t, param(hub, 'vars/copy'));
  param(hub, 'vars/level').set(0.9);
  t.deepEqual(copies, [[0, 0.9]], 'rules run on later changes');
});
