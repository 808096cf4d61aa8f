import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';
import { eventually } from '../helpers/eventually.ts';
import { param, record, startHub } from '../helpers/hub.ts';
import { storeWith } from '../helpers/state.ts';

async function timerHub(t: Parameters<typeof startHub>[0], settings: object) {
  const clock = new VirtualClock();
  const hub = await startHub(t, { connections: { clock: { type: 'timer', ...settings } } }, { scheduler: clock.scheduler });
  return { clock, hub };
}

test('timers and pulses expose their parameters with type and access', async (t) => {
  const { hub } = await timerHub(t, { timers: [{}, { duration: 50 }], pulses: [{ interval: 100 }] });
  t.deepEqual(
    hub.graph.all().map((p) => [p.address, p.type, p.access]),
    [
      ['clock/timer/1/trigger', 'T', 'read-only'],
      ['clock/timer/1/start', 'I', 'write-only'],
      ['clock/timer/1/left', 'I', 'read-only'],
      ['clock/timer/2/trigger', 'T', 'read-only'],
      ['clock/timer/2/start', 'I', 'write-only'],
      ['clock/timer/2/left', 'I', 'read-only'],
      ['clock/pulse/1', 'T', 'read-only'],
    ],
  );
});

test('left counts the whole seconds down while the timer runs, on each second before its deadline, and is 0 as it fires', async (t) => {
  const { clock, hub } = await timerHub(t, { timers: [{ duration: 3500 }] });
  const left = record(t, param(hub, 'clock/timer/1/left'), () => clock.now);
  t.is(param(hub, 'clock/timer/1/left').value, 0, 'idle');
  param(hub, 'clock/timer/1/start').set(true);
  clock.advanceBy(5000);
  t.deepEqual(left, [
    [0, 4],
    [500, 3],
    [1500, 2],
    [2500, 1],
    [3500, 0],
  ]);
  // Started again while it runs: the count starts again from the new duration.
  param(hub, 'clock/timer/1/start').set(2000);
  clock.advanceBy(1200);
  param(hub, 'clock/timer/1/start').set(1000);
  clock.advanceBy(3000);
  t.deepEqual(left.slice(5), [
    [5000, 2],
    [6000, 1],
    [7200, 0],
  ]);
});

test('a number ≥ 1 runs the timer for that many ms, then trigger fires once', async (t) => {
  const { clock, hub } = await timerHub(t, { timers: [{ duration: 1000 }] });
  const fires = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  param(hub, 'clock/timer/1/start').set(250);
  clock.advanceBy(249);
  t.deepEqual(fires, []);
  clock.advanceBy(5000);
  t.deepEqual(fires, [[250, true]]);
});

test('text such as "500" is a duration too', async (t) => {
  const { clock, hub } = await timerHub(t, { timers: [{ duration: 1000 }] });
  const fires = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  param(hub, 'clock/timer/1/start').set(' 500 ');
  clock.advanceBy(2000);
  t.deepEqual(fires, [[500, true]]);
  t.is(param(hub, 'clock/timer/1/start').value, 500, 'the start parameter remembers the duration it ran');
});

for (const raw of [true, false, null, 'go', '', 0, -5, 0.5, '0']) {
  test(`writing ${JSON.stringify(raw)} runs the configured duration`, async (t) => {
    const { clock, hub } = await timerHub(t, { timers: [{ duration: 300 }] });
    const fires = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
    t.true(param(hub, 'clock/timer/1/start').set(raw).ok);
    clock.advanceBy(1000);
    t.deepEqual(fires, [[300, true]]);
  });
}

test('the default duration is 1000 ms', async (t) => {
  const { clock, hub } = await timerHub(t, { timers: [{}] });
  const fires = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  param(hub, 'clock/timer/1/start').set(true);
  clock.advanceBy(5000);
  t.deepEqual(fires, [[1000, true]]);
});

test('a start while running restarts from zero with the new duration, firing once', async (t) => {
  const { clock, hub } = await timerHub(t, { timers: [{ duration: 100 }] });
  const fires = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  const start = param(hub, 'clock/timer/1/start');
  start.set(100);
  clock.advanceBy(80);
  start.set(100); // the same value restarts too
  clock.advanceBy(80);
  start.set(200);
  clock.advanceBy(1000);
  t.deepEqual(fires, [[360, true]]);
});

test('timers run independently of each other', async (t) => {
  const { clock, hub } = await timerHub(t, { timers: [{ duration: 100 }, { duration: 30 }] });
  const first = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  const second = record(t, param(hub, 'clock/timer/2/trigger'), () => clock.now);
  param(hub, 'clock/timer/1/start').set(true);
  param(hub, 'clock/timer/2/start').set(true);
  clock.advanceBy(500);
  t.deepEqual(first, [[100, true]]);
  t.deepEqual(second, [[30, true]]);
});

test('an enabled pulse fires every interval, first one interval after start', async (t) => {
  const { clock, hub } = await timerHub(t, { pulses: [{ interval: 250 }, { interval: 100, enabled: true }] });
  const slow = record(t, param(hub, 'clock/pulse/1'), () => clock.now);
  const fast = record(t, param(hub, 'clock/pulse/2'), () => clock.now);
  clock.advanceBy(1000);
  t.deepEqual(
    slow.map(([time]) => time),
    [250, 500, 750, 1000],
  );
  t.is(fast.length, 10);
});

test('a pulse fires on schedule over a long run: the 10,000th fire is exactly on time', async (t) => {
  const { clock, hub } = await timerHub(t, { pulses: [{ interval: 1000 }] });
  const fires = record(t, param(hub, 'clock/pulse/1'), () => clock.now);
  clock.advanceBy(10_000_000);
  t.is(fires.length, 10_000);
  t.is(fires.at(-1)?.[0], 10_000_000);
});

test('a disabled pulse has its parameter and never fires', async (t) => {
  const { clock, hub } = await timerHub(t, { pulses: [{ enabled: false, interval: 10 }] });
  const fires = record(t, param(hub, 'clock/pulse/1'), () => clock.now);
  clock.advanceBy(1000);
  t.deepEqual(fires, []);
});

test('stopping the connection cancels running timers and pulses', async (t) => {
  const { clock, hub } = await timerHub(t, { timers: [{ duration: 100 }], pulses: [{ interval: 10 }] });
  const trigger = record(t, param(hub, 'clock/timer/1/trigger'), () => clock.now);
  const pulse = record(t, param(hub, 'clock/pulse/1'), () => clock.now);
  param(hub, 'clock/timer/1/start').set(true);
  clock.advanceBy(25);
  await hub.stop();
  clock.advanceBy(1000);
  t.deepEqual(trigger, []);
  t.is(pulse.length, 2);
});

test('the trigger and pulse parameters are read-only', async (t) => {
  const { hub } = await timerHub(t, { timers: [{}], pulses: [{}] });
  for (const address of ['clock/timer/1/trigger', 'clock/pulse/1']) {
    const result = param(hub, address).set(true);
    t.false(result.ok);
    if (!result.ok) t.is(result.error.code, 'PB_READ_ONLY');
  }
});

test('limits and bounds are configuration errors with their paths', (t) => {
  const many = Array.from({ length: 17 }, () => ({}));
  const result = validateFlow(
    {
      connections: {
        clock: {
          type: 'timer',
          timers: [...many.slice(0, 1), { duration: 0 }, { duration: 1.5 }],
          pulses: [{ interval: 9 }, { every: 5 }],
        },
        c2: { type: 'timer', timers: many, pulses: many },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (!result.ok) {
    t.deepEqual(result.issues.map(formatIssue).sort(), [
      'connections.c2.pulses: expected a list of at most 16 entries',
      'connections.c2.timers: expected a list of at most 16 entries',
      'connections.clock.pulses[0].interval: expected an integer of at least 10',
      'connections.clock.pulses[1].every: unknown key; expected one of enabled, interval',
      'connections.clock.timers[1].duration: expected an integer of at least 1',
      'connections.clock.timers[2].duration: expected an integer of at least 1',
    ]);
  }
});

test('with a state folder, a running timer survives a restart and fires at its original deadline', async (t) => {
  const state = await storeWith(t);
  const clock = new VirtualClock();
  const flow = { connections: { clock: { type: 'timer', timers: [{ duration: 1000 }, { duration: 1000 }], pulses: [{ interval: 300 }] } } };
  const first = await startHub(t, flow, { scheduler: clock.scheduler, state });
  param(first, 'clock/timer/1/start').set(3000);
  clock.advanceBy(1000);
  await first.stop();
  clock.advanceBy(500); // the hub is down

  const second = await startHub(t, flow, { scheduler: clock.scheduler, state });
  const fires = record(t, param(second, 'clock/timer/1/trigger'), () => clock.now);
  const pulses = record(t, param(second, 'clock/pulse/1'), () => clock.now);
  t.is(param(second, 'clock/timer/1/start').value, 3000, 'the start parameter reads back the running duration');
  clock.advanceBy(2000);
  t.deepEqual(fires, [[3000, true]], 'at the original deadline, once');
  t.deepEqual(
    pulses.map(([at]) => at),
    [1800, 2100, 2400, 2700, 3000, 3300],
    'the pulse keeps its phase across the restart',
  );
  t.deepEqual(record(t, param(second, 'clock/timer/2/trigger')), [], 'a timer that was not running stays idle');
});

test('a deadline that passed while the hub was down fires at once, or is skipped with onRestart: "skip"', async (t) => {
  for (const onRestart of ['fire', 'skip'] as const) {
    const state = await storeWith(t);
    const clock = new VirtualClock();
    const flow = { connections: { clock: { type: 'timer', timers: [{ duration: 1000 }], onRestart } } };
    const first = await startHub(t, flow, { scheduler: clock.scheduler, state });
    param(first, 'clock/timer/1/start').set(true);
    await first.stop();
    clock.advanceBy(5000);
    const second = await startHub(t, flow, { scheduler: clock.scheduler, state });
    const fires = record(t, param(second, 'clock/timer/1/trigger'), () => clock.now);
    clock.advanceBy(0);
    t.deepEqual(fires, onRestart === 'fire' ? [[5000, true]] : [], onRestart);
    clock.advanceBy(5000);
    t.is(fires.length, onRestart === 'fire' ? 1 : 0, `${onRestart}: no second fire`);
  }
});

test('a deadline that passed while the hub was down fires once the rules and code flows that listen to it run (R-S5)', async (t) => {
  const state = await storeWith(t);
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-timer-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // A code flow takes a while to load: long enough for a fire made at start to come before the rules.
  await writeFile(join(dir, 'listen.mjs'), "export default (hub) => hub.watch('d/rule').subscribe(() => {});");
  const flow = {
    connections: { clock: { type: 'timer', timers: [{ duration: 30 }] }, d: { type: 'dummy', parameters: ['rule,I,0'] } },
    rules: [{ source: 'clock/timer/1/trigger', destinations: ['d/rule'], pipe: [{ set: 1 }] }],
    flows: ['listen.mjs'],
  };
  const first = await startHub(t, flow, { state, dir });
  param(first, 'clock/timer/1/start').set(true);
  await first.stop();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const second = await startHub(t, flow, { state, dir });
  await eventually(() => param(second, 'd/rule').value === 1, 'the rule heard the overdue fire');
  t.is(param(second, 'd/rule').lastChange?.by, 'rule rules[0]');
});

test('a deadline reached while the hub is still starting fires once the rules that listen to it run (R-S5)', async (t) => {
  const state = await storeWith(t);
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-timer-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // A code flow whose module takes a second to load holds the start open past the deadline.
  await writeFile(join(dir, 'slow.mjs'), 'await new Promise((resolve) => setTimeout(resolve, 1000));\nexport default () => {};\n');
  const flow = {
    connections: { clock: { type: 'timer', timers: [{ duration: 30 }] }, d: { type: 'dummy', parameters: ['rule,I,0'] } },
    rules: [{ source: 'clock/timer/1/trigger', destinations: ['d/rule'], pipe: [{ set: 1 }] }],
    flows: ['slow.mjs'],
  };
  const first = await startHub(t, flow, { state, dir });
  param(first, 'clock/timer/1/start').set(500); // due while the next hub loads its code flow
  await first.stop();
  const second = await startHub(t, flow, { state, dir });
  await eventually(() => param(second, 'd/rule').value === 1, 'the rule heard the fire');
  t.is(param(second, 'd/rule').lastChange?.by, 'rule rules[0]');
});
