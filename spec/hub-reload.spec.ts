import test from 'ava';
import { validateFlow } from '../lib/config/flow-file.ts';
import { formatIssue } from '../lib/core/issue.ts';
import { Hub } from '../lib/hub/hub.ts';
import { siteKeyFile } from './helpers/site-key.ts';
import { Client } from './helpers/http.ts';
import { capturedLog, flowOf, param, record } from './helpers/hub.ts';
import { VirtualClock } from './helpers/virtual-time.ts';

const base = {
  api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
  vars: { type: 'dummy', parameters: ['a,I,1', 'b,S'] },
  clock: { type: 'timer', timers: [{ duration: 1000 }] },
  old: { type: 'dummy', parameters: ['gone,B,true'] },
};

test('a reload keeps untouched connections and their values, restarts changed ones, and rebuilds rules', async (t) => {
  const clock = new VirtualClock();
  const hub = new Hub({
    flow: flowOf({ connections: base, rules: [{ source: 'vars/a', destinations: ['vars/b'], pipe: [{ format: 'old $VALUE' }] }] }),
    scheduler: clock.scheduler,
  });
  t.teardown(() => hub.stop());
  await hub.start();
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  await client.untilCount(2);

  param(hub, 'vars/a').set(42);
  const fires = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  param(hub, 'clock/timer/1/start').set(true); // running when the reload comes
  clock.advanceBy(500);
  const varsBefore = hub.connection('vars');

  const summary = await hub.reload(
    flowOf({
      connections: {
        api: base.api,
        vars: base.vars,
        clock: { type: 'timer', timers: [{ duration: 200 }] },
        fresh: { type: 'dummy', parameters: ['c,S,new'] },
      },
      rules: [{ source: 'vars/a', destinations: ['vars/b'], pipe: [{ format: 'new $VALUE' }] }],
    }),
  );
  t.deepEqual(summary, { kept: ['api', 'vars'], updated: [], restarted: ['clock'], added: ['fresh'], removed: ['old'] });
  t.is(hub.connection('vars'), varsBefore, 'the same running connection');
  t.is(param(hub, 'vars/a').value, 42, 'an untouched dummy keeps its values');
  t.is(hub.graph.get('old/gone'), undefined);
  t.is(param(hub, 'fresh/c').value, 'new');

  clock.advanceBy(5000);
  t.deepEqual(fires, [], 'the changed timer restarted: the run in progress is gone');
  const restartedFires = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  param(hub, 'clock/timer/1/start').set(true);
  clock.advanceBy(300);
  t.is(restartedFires.length, 1, 'the new timer runs with the new duration');

  param(hub, 'vars/a').set(7);
  t.is(param(hub, 'vars/b').value, 'new 7', 'only the new rule runs');
  // The WebSocket client of the kept rest-api stayed connected and sees everything.
  await client.until(() => client.state()['vars/b'] === 'new 7' && client.state()['fresh/c'] === 'new', 'changes after the reload');
  t.is(client.socket.readyState, client.socket.OPEN);
});

test('a connection whose settings are only reordered is kept', async (t) => {
  const hub = new Hub({ flow: flowOf({ connections: { t: { type: 'timer', timers: [{ duration: 5 }], pulses: [] } } }) });
  t.teardown(() => hub.stop());
  await hub.start();
  const summary = await hub.reload(flowOf({ connections: { t: { pulses: [], timers: [{ duration: 5 }], type: 'timer' } } }));
  t.deepEqual(summary.kept, ['t']);
});

test('a changed dummy keeps the values of the parameters that stay, with no restart', async (t) => {
  const hub = new Hub({ flow: flowOf({ connections: { vars: { type: 'dummy', parameters: ['a,I,1', 'b,S', 'c,B,true', 'd,F'] } } }) });
  t.teardown(() => hub.stop());
  await hub.start();
  param(hub, 'vars/a').set(42);
  param(hub, 'vars/b').set('set by an operator');
  param(hub, 'vars/d').set(1.5);
  const seen = record(t, param(hub, 'vars/a'));
  const summary = await hub.reload(
    flowOf({ connections: { vars: { type: 'dummy', parameters: ['a,I,5', 'b,S', 'c,B,true', 'd,S', 'e,S,new line'] } } }),
  );
  t.deepEqual(summary, { kept: ['vars'], updated: ['vars'], restarted: [], added: [], removed: [] });
  t.is(param(hub, 'vars/a').value, 42, 'a changed default does not overwrite a value');
  t.is(param(hub, 'vars/b').value, 'set by an operator');
  t.is(param(hub, 'vars/c').value, true);
  t.is(param(hub, 'vars/d').type, 'S', 'a parameter whose type changed is new');
  t.is(param(hub, 'vars/d').value, undefined);
  t.is(param(hub, 'vars/e').value, 'new line');
  t.deepEqual(seen, [], 'listeners of a kept parameter are not disturbed');

  await hub.reload(flowOf({ connections: { vars: { type: 'dummy', parameters: ['a,I'] } } }));
  t.is(param(hub, 'vars/a').value, 42);
  t.deepEqual(
    hub.graph.byPrefix('vars/').map((p) => p.id),
    ['a'],
    'removed lines are gone',
  );
});

test('a changed virtual core keeps its logic levels; its functions follow the new wiring', async (t) => {
  const core = (logics: number, op: string) => ({
    type: 'virtual-core',
    logics,
    functions: [{ id: 'both', op, inputs: ['core/logic/1', 'core/logic/2'] }],
  });
  const hub = new Hub({ flow: flowOf({ connections: { core: core(4, 'and') } }) });
  t.teardown(() => hub.stop());
  await hub.start();
  param(hub, 'core/logic/1').set(true);
  param(hub, 'core/logic/3').set(true);
  t.is(param(hub, 'core/function/both').value, false);
  const summary = await hub.reload(flowOf({ connections: { core: core(2, 'or') } }));
  t.deepEqual(summary.updated, ['core']);
  t.is(param(hub, 'core/logic/1').value, true);
  t.is(hub.graph.get('core/logic/3'), undefined);
  t.is(param(hub, 'core/function/both').value, true, 'rewired as or');
  param(hub, 'core/logic/1').set(false);
  t.is(param(hub, 'core/function/both').value, false);
});

test('a connection whose description alone changed is kept as it runs', async (t) => {
  const hub = new Hub({ flow: flowOf({ connections: { t: { type: 'timer', timers: [{ duration: 5 }] } } }) });
  t.teardown(() => hub.stop());
  await hub.start();
  const runner = hub.connection('t');
  const summary = await hub.reload(flowOf({ connections: { t: { type: 'timer', timers: [{ duration: 5 }], description: 'Cue clock' } } }));
  t.deepEqual(summary.kept, ['t']);
  t.is(hub.connection('t'), runner);
  t.is(hub.connection('t')?.info.description, 'Cue clock');
});

test('a reload that puts the hub in a redundancy group, or takes it out, is refused: that takes a restart (R-B1)', async (t) => {
  const plain = { connections: { d: { type: 'dummy', parameters: ['x,I,1'] } } };
  const hub = new Hub({ flow: flowOf(plain) });
  t.teardown(() => hub.stop());
  await hub.start();
  const grouped = {
    connections: {
      ...plain.connections,
      bus: { type: 'mqtt', url: 'mqtt://127.0.0.1:1', hub: { id: 'a', group: 'studio', share: [], key: { env: 'PATH' } } },
    },
  };
  const refused = await t.throwsAsync(hub.reload(flowOf(grouped)));
  t.like(refused, { code: 'PB_FLOW_FILE_INVALID' });
  t.regex(refused?.message ?? '', /joins or leaves a redundancy group when it restarts/);
  t.is(hub.connection('d')?.status.status, 'ok', 'the hub runs on as it was');
});

test('a redundancy group is refused with qos 0 (no acknowledgement to answer a write after), and on a second mqtt connection of the same hub (R-B1, R-B2)', (t) => {
  const mqtt = (id: string, extra: Record<string, unknown> = {}) => ({
    type: 'mqtt',
    url: 'mqtt://127.0.0.1:1',
    hub: { id, group: 'studio', share: [], key: { file: siteKeyFile } },
    ...extra,
  });
  const issues = (connections: Record<string, unknown>) => {
    const checked = validateFlow({ connections }, '/virtual/flow.json5');
    return checked.ok ? [] : checked.issues.map(formatIssue);
  };
  t.deepEqual(issues({ bus: mqtt('a', { qos: 0 }) }), [
    'connections.bus.qos: a redundancy group needs qos 1 or 2: the active hub answers a write once the broker acknowledged its value',
  ]);
  t.deepEqual(issues({ bus: mqtt('a'), other: mqtt('b') }), [
    'connections.other.hub.group: a hub is in one redundancy group at most; connection "bus" puts it in group "studio" already',
  ]);
  t.deepEqual(issues({ bus: mqtt('a') }), []);
});

test('a reload says what the new flow warns of, as the start does: two writers of a lamp (R-RS4)', async (t) => {
  const { log, lines } = capturedLog('warn');
  const connections = { vars: { type: 'dummy', parameters: ['a,B,false', 'b,B,false', 'lamp,B'] } };
  const hub = new Hub({ flow: flowOf({ connections, rules: [{ from: 'vars/a', to: 'vars/lamp' }] }), log });
  t.teardown(() => hub.stop());
  await hub.start();
  t.deepEqual(lines(), []);
  await hub.reload(
    flowOf({
      connections,
      rules: [
        { from: 'vars/a', to: 'vars/lamp' },
        { source: 'vars/b', destinations: ['vars/lamp'] },
      ],
    }),
  );
  t.true(
    lines().some((line) => line.level === 40 && line.msg.startsWith('rules[1].destinations: vars/lamp is written by rules[0] too')),
    JSON.stringify(lines()),
  );
});
