import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { flowIdOf } from '../../lib/rules/code-flows/flow-id.ts';
import { capturedLog, param, startHub } from '../helpers/hub.ts';

async function flowsHub(t: ExecutionContext, modules: Record<string, string>, extra: object = {}, loopLimit?: number) {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-flows-'));
  for (const [name, source] of Object.entries(modules)) await writeFile(join(dir, name), source);
  const { log, lines } = capturedLog();
  const hub = await startHub(
    t,
    { connections: { studio: { type: 'dummy', parameters: ['level,F,0', 'doubled,F', 'x,I,1'] } }, flows: Object.keys(modules), ...extra },
    { dir, log, ...(loopLimit === undefined ? {} : { loopLimit }) },
  );
  return { hub, dir, lines: lines() };
}

const doubler = `
export default (hub) => {
  const { filter, map, tap } = hub.rx;
  const seen = hub.define('seen', { type: 'I', initial: 0 });
  return hub.watch('studio/level').pipe(
    filter((v) => v !== undefined),
    tap(() => seen.set((seen.value ?? 0) + 1)),
    map((v) => hub.write('studio/doubled', Number(v) * 2)),
  );
};
`;

test('a code flow reads, writes and creates parameters through its API', async (t) => {
  const { hub } = await flowsHub(t, { 'doubler.mjs': doubler });
  t.is(param(hub, 'doubler/seen').value, 1, 'watch gives the current value first');
  param(hub, 'studio/level').set(0.5);
  t.is(param(hub, 'studio/doubled').value, 1);
  t.is(param(hub, 'doubler/seen').value, 2);
  t.is(param(hub, 'doubler/seen').access, 'read-write');
});

test('TypeScript flows get their types from patchbay-hub/flow', async (t) => {
  const { hub } = await flowsHub(t, {
    'typed-flow.ts': `
      import type { CodeFlow } from '${new URL('../../lib/rules/flow-api.ts', import.meta.url).pathname}';
      const flow: CodeFlow = (hub) => {
        const greeting = hub.define('greeting', { type: 'S', access: 'read-only', initial: 'hello' });
        return () => greeting.report('bye');
      };
      export default flow;
    `,
  });
  t.is(param(hub, 'typed-flow/greeting').value, 'hello');
  t.is(param(hub, 'typed-flow/greeting').access, 'read-only');
});

test('a flow that throws is reported with its file; the other flows run', async (t) => {
  const { hub, lines } = await flowsHub(t, {
    'broken.mjs': `export default () => { throw new Error('wiring mistake'); };`,
    'not-a-flow.mjs': `export const x = 1;`,
    'doubler.mjs': doubler,
    'bad-return.mjs': `export default () => 42;`,
  });
  t.true(
    lines.some((l) => l.connection === 'broken' && /code flow .*broken\.mjs failed: wiring mistake\n +at /.test(l.msg)),
    'with the stack in the log',
  );
  t.true(lines.some((l) => l.connection === 'not-a-flow' && /its default export is not a function/.test(l.msg)));
  t.true(lines.some((l) => l.connection === 'bad-return' && /a flow returns Observables/.test(l.msg)));
  param(hub, 'studio/level').set(2);
  t.is(param(hub, 'studio/doubled').value, 4);
});

test('a flow whose Observable errors is stopped and its parameters removed; the rest runs', async (t) => {
  const { hub, lines } = await flowsHub(t, {
    'fragile.mjs': `
      export default (hub) => {
        const { map } = hub.rx;
        hub.define('alive', { type: 'B', initial: true });
        return hub.watch('studio/x').pipe(map((v) => { if (v === 13) throw new Error('unlucky'); }));
      };`,
    'doubler.mjs': doubler,
  });
  t.is(param(hub, 'fragile/alive').value, true);
  param(hub, 'studio/x').set(13);
  t.is(hub.graph.get('fragile/alive'), undefined);
  t.true(lines.some((l) => l.connection === 'fragile' && /^code flow .*fragile\.mjs stopped: unlucky\n/.test(l.msg)));
  param(hub, 'studio/level').set(3);
  t.is(param(hub, 'studio/doubled').value, 6);
});

test('flows stop before any connection, and everything they returned is released', async (t) => {
  const { hub } = await flowsHub(t, {
    'order.mjs': `
      export default (hub) => {
        const { interval } = hub.rx;
        const ticks = interval(1, hub.scheduler).subscribe();
        return [ticks, () => hub.write('studio/x', hub.parameter('studio/x') ? 99 : -1)];
      };`,
  });
  const x = hub.graph.get('studio/x');
  await hub.stop();
  t.is(x?.value, 99, 'at the flow teardown the connection was still running');
});

test('a flow id comes from its file name; a clash with a connection is refused', async (t) => {
  t.is(flowIdOf('/x/Level Meter.mjs'), 'level-meter');
  t.is(flowIdOf('/x/_peak.ts'), 'peak');
  // The flow file already says so: a mistake of the file, not a failure at start.
  await t.throwsAsync(flowsHub(t, { 'studio.mjs': 'export default () => {};' }), {
    message: /flows\[0\]: its id "studio" \(from the file name\) is a connection's id; rename the file/,
  });
});

test('a failed code flow is one of the hub problems, and on the problem stream as it happens', async (t) => {
  const { hub } = await flowsHub(t, {
    'broken.mjs': `export default () => { throw new Error('wiring mistake'); };`,
    'fragile.mjs': `
      export default (hub) => hub.watch('studio/x').pipe(hub.rx.map((v) => { if (v === 13) throw new Error('unlucky'); }));`,
  });
  t.like(hub.problems(), [{ source: 'code-flow', id: 'broken', code: 'PB_CODE_FLOW' }]);
  t.regex(hub.problems()[0]?.message ?? '', /broken\.mjs failed: wiring mistake/);
  const seen: unknown[] = [];
  const subscription = hub.problems$.subscribe((problem) => seen.push(problem));
  t.teardown(() => subscription.unsubscribe());
  param(hub, 'studio/x').set(13);
  t.like(seen, [{ source: 'code-flow', id: 'fragile', code: 'PB_CODE_FLOW' }]);
  t.regex((seen[0] as { message: string }).message, /fragile\.mjs stopped: unlucky/);
  t.is(hub.problems().length, 2);
});

test('a flow that sets its own parameter on each of its changes is cut by the loop guard, whichever way it writes', async (t) => {
  const { hub } = await flowsHub(
    t,
    {
      'counter.mjs': `
        export default (hub) => {
          const n = hub.define('n', { type: 'I', initial: 0 });
          return hub.watch('counter/n').subscribe((v) => n.set(v + 1));
        };`,
      'echo.mjs': `
        export default (hub) => hub.parameter('studio/x').values$.subscribe((v) => hub.parameter('studio/x').set(v + 1));`,
    },
    {},
    20,
  );
  t.is(param(hub, 'counter/n').value, 21, 'it came back 20 times, then the write was refused');
  t.is(param(hub, 'studio/x').value, 22);
  t.like(hub.problems(), [
    { source: 'code-flow', id: 'counter', code: 'PB_FEEDBACK_LOOP' },
    { source: 'code-flow', id: 'echo', code: 'PB_FEEDBACK_LOOP' },
  ]);
  t.regex(
    hub.problems()[0]?.message ?? '',
    /counter\.mjs: feedback loop cut: a change came back to counter\/n 20 times; chain counter\/n → counter\/n$/,
  );
  param(hub, 'studio/x').set(100);
  t.is(param(hub, 'studio/x').value, 121, 'the next change from outside is a new cascade, cut again');
});
