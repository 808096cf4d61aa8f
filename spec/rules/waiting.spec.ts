import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import test, { type ExecutionContext } from 'ava';
import type { RuleListing } from '../../lib/connections/connection.ts';
import { asWritten, defineConnectionType } from '../../lib/sdk/index.ts';
import { createLogger, type Logger, tapLog } from '../../lib/core/log.ts';
import { after } from '../../lib/core/scheduler.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { configOf, flowOf, param } from '../helpers/hub.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

/**
 * A device as the hub meets one: its tree is read a while after it connects (`a/b` after
 * 1 s), and a parameter can go again (`a/b` removed at 5 s, back at 8 s).
 */
const slowDevice = defineConnectionType({
  type: 'slow-device',
  summary: 'A device whose parameters appear after it connects.',
  settings: Type.Object({}),
  parse: asWritten,
  discovers: () => ({ parameters: true }),
  create(context) {
    const timers = [
      after(context.scheduler, 1000, () => context.define('a/b', { type: 'F', access: 'read-write' })),
      after(context.scheduler, 5000, () => context.remove('a/b')),
      after(context.scheduler, 8000, () => context.define('a/b', { type: 'F', access: 'read-write' })),
    ];
    return {
      start() {},
      stop() {
        for (const timer of timers) timer.unsubscribe();
      },
    };
  },
});

async function deviceHub(t: ExecutionContext, rules: unknown[], flows: Record<string, string> = {}, log?: Logger) {
  const clock = new VirtualClock();
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-waiting-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const [name, source] of Object.entries(flows)) await writeFile(join(dir, name), source);
  // Validated with a stand-in for the device, which the flow file's types do not include.
  const flow = flowOf(
    {
      connections: { studio: { type: 'dummy', parameters: ['fader,F', 'meter,F'] }, dev: { type: 'dummy' } },
      rules,
      flows: Object.keys(flows),
    },
    dir,
  );
  const device = configOf('dev', slowDevice);
  const hub = new Hub({
    flow: { ...flow, connections: flow.connections.map((c) => (c.id === 'dev' ? device : c)) },
    scheduler: clock.scheduler,
    ...(log ? { log } : {}),
  });
  t.teardown(() => hub.stop());
  await hub.start();
  return { hub, clock, dir };
}

const standing = (hub: Hub) => hub.rules().map(({ status, code }: RuleListing) => (code ? `${status} ${code}` : status));
const ruleProblems = (hub: Hub) => hub.problems().filter((p) => p.source === 'rule');

test('a rule naming a parameter a device reveals later waits for it, runs once it appears, and waits again when it goes (R-G2)', async (t) => {
  const { hub, clock } = await deviceHub(t, [
    { source: 'dev/a/b', destinations: ['studio/meter'] },
    { source: 'studio/fader', destinations: ['dev/a/b'] },
  ]);
  t.deepEqual(standing(hub), ['waiting PB_WAITING', 'waiting PB_WAITING']);
  t.deepEqual(
    ruleProblems(hub).map((p) => [p.id, p.code, p.message]),
    [
      ['rules[0]', 'PB_WAITING', 'waiting for source dev/a/b: connection "dev" has no parameter "a/b"'],
      ['rules[1]', 'PB_WAITING', 'waiting for destination dev/a/b: connection "dev" has no parameter "a/b"'],
    ],
  );

  clock.advanceBy(1000);
  t.deepEqual(standing(hub), ['running', 'running']);
  t.deepEqual(ruleProblems(hub), [], 'nothing is listed once both run');
  param(hub, 'dev/a/b').set(0.5);
  t.is(param(hub, 'studio/meter').value, 0.5, 'the source rule carries the device value');
  param(hub, 'studio/fader').set(0.75);
  t.is(param(hub, 'dev/a/b').value, 0.75, 'the destination rule writes the device');
  t.is(param(hub, 'studio/meter').value, 0.75, 'and the chain goes on through it');

  clock.advanceBy(4000);
  t.deepEqual(standing(hub), ['waiting PB_WAITING', 'waiting PB_WAITING'], 'gone again: both wait');
  param(hub, 'studio/fader').set(0.25);
  t.deepEqual(
    ruleProblems(hub).map((p) => p.code),
    ['PB_WAITING', 'PB_WAITING'],
    'a waiting rule writes nothing and fails nothing',
  );

  clock.advanceBy(3000);
  t.deepEqual(standing(hub), ['running', 'running']);
  param(hub, 'dev/a/b').set(0.1);
  t.is(param(hub, 'studio/meter').value, 0.1, 'the new parameter at the same address is followed, not the removed one');
});

test('a rule that starts late takes its place in tree order among the rules of its source', async (t) => {
  const { hub, clock } = await deviceHub(t, [
    { source: 'studio/fader', destinations: ['studio/meter'], pipe: [{ scale: [0, 1, 0, 10] }] },
    { source: 'studio/fader', destinations: ['dev/a/b'] },
    { source: 'studio/fader', destinations: ['studio/meter'], pipe: [{ scale: [0, 1, 0, 100] }] },
  ]);
  const order: string[] = [];
  hub.graph.hooks.onDelivery((parameter, value) => order.push(`${parameter.address}=${String(value)}`));
  t.deepEqual(standing(hub), ['running', 'waiting PB_WAITING', 'running']);
  clock.advanceBy(1000);
  param(hub, 'studio/fader').set(0.5);
  t.deepEqual(order, ['studio/fader=0.5', 'studio/meter=5', 'dev/a/b=0.5', 'studio/meter=50']);
});

test("a code flow's watch of a parameter that does not exist yet is listed as waiting until it appears, and again when it goes (R-G2)", async (t) => {
  const { hub, clock, dir } = await deviceHub(t, [], {
    'follow.mjs': "export default (hub) => hub.watch('dev/a/b').subscribe((v) => hub.write('studio/meter', v ?? -1));",
  });
  const waiting = () =>
    hub
      .problems()
      .filter((p) => p.source === 'code-flow')
      .map((p) => [p.id, p.code, p.message]);
  t.deepEqual(waiting(), [
    [
      'follow',
      'PB_WAITING',
      `code flow ${join(dir, 'follow.mjs')} watches dev/a/b, which does not exist yet (connection "dev" has no parameter "a/b")`,
    ],
  ]);
  t.is(param(hub, 'studio/meter').value, -1);
  clock.advanceBy(1000);
  t.deepEqual(waiting(), []);
  param(hub, 'dev/a/b').set(0.5);
  t.is(param(hub, 'studio/meter').value, 0.5);
  clock.advanceBy(4000);
  t.is(waiting().length, 1, 'waiting again once it went');
  t.is(param(hub, 'studio/meter').value, -1);
});

test("a rule waiting as the hub starts for a device's parameter is said at info, and as a warning only when it still waits 10 s on", async (t) => {
  const log = createLogger({ destination: new PassThrough() });
  const lines: string[] = [];
  tapLog(log, (line) => lines.push(`${line.level} ${line.msg}`));
  const { clock } = await deviceHub(
    t,
    [
      { source: 'dev/a/b', destinations: ['studio/meter'] },
      { source: 'dev/x/y', destinations: ['studio/meter'] },
    ],
    {},
    log,
  );
  const about = (rule: string) => lines.filter((line) => line.includes(`rule ${rule}:`));
  // Before, both were warnings at once, and a/b's was wrong a second later.
  t.deepEqual(about('rules[0]'), [
    'info rule rules[0]: waiting for source dev/a/b: connection "dev" has no parameter "a/b" (for now: its devices may not have said what they have yet)',
  ]);
  clock.advanceBy(1000);
  t.is(about('rules[0]').at(-1), 'info rule rules[0]: running, every address it names is there');
  clock.advanceBy(9000);
  t.deepEqual(
    about('rules[1]').map((line) => line.split(' ')[0]),
    ['info', 'warn'],
  );
  t.is(about('rules[1]').at(-1), 'warn rule rules[1]: waiting for source dev/x/y: connection "dev" has no parameter "x/y"');
  t.false(
    about('rules[0]').some((line) => line.startsWith('warn')),
    'a rule running by then is not warned of',
  );
});
