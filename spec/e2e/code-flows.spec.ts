import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { runHub, terminate } from '../helpers/hub-process.ts';

// Code flows as a user meets them: files in a folder of their own, outside this checkout,
// in a real hub process. Serial: each starts a hub, and two cores are shared.

/** Writes `files` (relative path → text) into a new folder and returns it. */
async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-code-flows-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

const api = { type: 'rest-api', port: 0, bindIp: '127.0.0.1' };
/** What `npm init -y` writes: no "type", so .js and .ts files are CommonJS by Node's rules. */
const npmInit = JSON.stringify({ name: 'studio', version: '1.0.0', main: 'index.js', license: 'ISC' });

const greeter = (version: string) => `
  import type { CodeFlow } from 'patchbay-hub/flow';
  import { greeting } from './words.ts';
  const flow: CodeFlow = (hub) => {
    hub.define('text', { type: 'S', initial: \`\${greeting} ${version}\` });
  };
  export default flow;
`;

test.serial('--watch reloads an edited code flow, and an edited module it imports, in CommonJS and ES module folders', async (t) => {
  t.timeout(90_000);
  for (const type of [undefined, 'module']) {
    const dir = await folder({
      'package.json': type ? JSON.stringify({ type }) : npmInit,
      'flow.json5': JSON.stringify({ connections: { api }, flows: ['greeter.ts'] }),
      'greeter.ts': greeter('v1'),
      'words.ts': `export const greeting = 'hello';`,
    });
    const hub = await runHub(t, join(dir, 'flow.json5'), { args: ['--watch'] });
    t.is(await hub.read('greeter/text'), 'hello v1', `${type ?? 'commonjs'}: ${hub.log()}`);
    await writeFile(join(dir, 'greeter.ts'), greeter('v2'));
    await eventually(async () => (await hub.read('greeter/text')) === 'hello v2', `the edited flow to run (${type ?? 'commonjs'})`, 20_000);
    await writeFile(join(dir, 'words.ts'), `export const greeting = 'salut';`);
    await eventually(
      async () => (await hub.read('greeter/text')) === 'salut v2',
      `the edited import to run (${type ?? 'commonjs'})`,
      20_000,
    );
    t.is(await terminate(hub), 0);
  }
});

test.serial(
  '--watch keeps a running code flow when an edit does not load, lists the problem and logs it, and runs the flow again once fixed',
  async (t) => {
    t.timeout(90_000);
    const dir = await folder({
      'package.json': JSON.stringify({ type: 'module' }),
      'flow.json5': JSON.stringify({ connections: { api, vars: { type: 'dummy', parameters: ['n,I,1'] } }, flows: ['greeter.ts'] }),
      'greeter.ts': greeter('v1'),
      'words.ts': `export const greeting = 'hello';`,
    });
    const hub = await runHub(t, join(dir, 'flow.json5'), { args: ['--watch'] });
    t.is(await hub.read('greeter/text'), 'hello v1');
    await writeFile(join(dir, 'greeter.ts'), greeter('v2').replace('hub.define(', 'hub.define(('));
    await eventually(
      () => hub.messages().some((m) => m.startsWith('reload refused')),
      () => `the refusal (log: ${hub.log()})`,
      20_000,
    );
    t.is(await hub.read('greeter/text'), 'hello v1', 'the running flow is kept');
    t.is(await hub.write('vars/n', '2'), 'OK', 'the hub serves on');
    const refusal = hub.messages().find((m) => m.startsWith('reload refused')) ?? '';
    t.regex(refusal, /^reload refused, the running flow is kept: code flow \S*greeter\.ts failed to load: \S*greeter\.ts:\d+:\d+: /);
    const problems = await hub.problems();
    t.like(
      problems.find((p) => p.id === 'greeter'),
      { source: 'code-flow', code: 'PB_CODE_FLOW' },
      JSON.stringify(problems),
    );
    t.regex(problems.find((p) => p.id === 'greeter')?.message ?? '', /greeter\.ts:\d+:\d+: .*; the running version is kept/);
    await writeFile(join(dir, 'greeter.ts'), greeter('v3'));
    await eventually(async () => (await hub.read('greeter/text')) === 'hello v3', 'the fixed flow to run', 20_000);
    t.deepEqual(
      (await hub.problems()).filter((p) => p.id === 'greeter'),
      [],
      'the problem is gone',
    );
    t.is(await terminate(hub), 0);
  },
);

test.serial(
  'JavaScript and TypeScript flows run in CommonJS and ES module folders; x.js is x.js; a flow that does not compile names its line and column',
  async (t) => {
    const dir = await folder({
      'cjs/package.json': npmInit,
      'cjs/typed.ts': `
      import type { CodeFlow } from 'patchbay-hub/flow';
      const flow: CodeFlow = (hub) => { hub.define('scope', { type: 'S', initial: typeof module }); };
      export default flow;`,
      'cjs/plain.js': `module.exports = (hub) => { hub.define('ok', { type: 'B', initial: true }); };`,
      'cjs/esm-syntax.js': `export default (hub) => { hub.define('ok', { type: 'B', initial: true }); };`,
      'cjs/twin.js': `module.exports = (hub) => { hub.define('from', { type: 'S', initial: 'js' }); };`,
      'cjs/twin.ts': `export default (hub: any) => { hub.define('from', { type: 'S', initial: 'ts' }); };`,
      'cjs/broken.ts': `export default (hub: any) => {\n  const x: number = 1;\n  hub.define('x', { type: 'I', initial: x + });\n};\n`,
      'esm/package.json': JSON.stringify({ type: 'module' }),
      'esm/typed-esm.ts': `
      import type { CodeFlow } from 'patchbay-hub/flow';
      const flow: CodeFlow = (hub) => { hub.define('ok', { type: 'B', initial: true }); };
      export default flow;`,
      'esm/plain-esm.js': `export default (hub) => { hub.define('ok', { type: 'B', initial: true }); };`,
      'esm/old-style.cjs': `module.exports = (hub) => { hub.define('ok', { type: 'B', initial: true }); };`,
      'esm/broken-esm.js': `export default (hub) => {\n  hub.define('x', { type: 'I', initial: ) });\n};\n`,
      'flow.json5': JSON.stringify({
        connections: { api },
        flows: [
          'cjs/typed.ts',
          'cjs/plain.js',
          'cjs/esm-syntax.js',
          'cjs/twin.js',
          'cjs/broken.ts',
          'esm/typed-esm.ts',
          'esm/plain-esm.js',
          'esm/old-style.cjs',
          'esm/broken-esm.js',
        ],
      }),
    });
    const hub = await runHub(t, join(dir, 'flow.json5'));
    t.is(await hub.read('typed/scope'), 'object', 'a TypeScript flow in a CommonJS folder runs as CommonJS');
    for (const id of ['plain', 'esm-syntax', 'typed-esm', 'plain-esm', 'old-style'])
      t.is(await hub.read(`${id}/ok`), 'true', `${id}: ${hub.log()}`);
    t.is(await hub.read('twin/from'), 'js', 'a flow listed as twin.js is twin.js');
    const problems = await hub.problems();
    t.deepEqual(
      problems.map(({ id, code }) => ({ id, code })),
      [
        { id: 'broken', code: 'PB_CODE_FLOW' },
        { id: 'broken-esm', code: 'PB_CODE_FLOW' },
      ],
    );
    t.regex(
      problems[0]?.message ?? '',
      /^code flow \S*cjs\/broken\.ts failed to load: \S*cjs\/broken\.ts:3:\d+: \S.*$/,
      'file, line and column, on one line',
    );
    t.regex(
      problems[1]?.message ?? '',
      /^code flow \S*esm\/broken-esm\.js failed to load: \S*esm\/broken-esm\.js:2:\d+: \S.*$/,
      'file, line and column, on one line',
    );
    t.is(await terminate(hub), 0);
  },
);

test.serial(
  'a flow that throws from a timer or a listener, or leaves a rejection unhandled, is reported and stopped; a flow writing its own parameter is cut; the hub runs on',
  async (t) => {
    const dir = await folder({
      'package.json': npmInit,
      'timer-bomb.js': `
      module.exports = (hub) => {
        hub.define('armed', { type: 'B', initial: true });
        // The timer is set from a change the flow watches, long after its start.
        return hub.watch('vars/arm').subscribe((v) => {
          if (v === 1) setTimeout(() => { throw new Error('boom from a timer'); }, 10);
        });
      };`,
      'rejecter.ts': `
      export default (hub: any) => {
        hub.define('here', { type: 'B', initial: true });
        return hub.watch('vars/arm').subscribe((v: unknown) => {
          if (v === 2) void (async () => { await new Promise((r) => setTimeout(r, 10)); throw new Error('nobody catches this'); })();
        });
      };`,
      'looper.js': `
      module.exports = (hub) => {
        hub.define('n', { type: 'I', initial: 0 });
        return hub.watch('looper/n').subscribe((n) => hub.write('looper/n', n + 1));
      };`,
      'thrower.js': `module.exports = (hub) => hub.watch('vars/arm').subscribe((v) => { if (v === 3) throw new Error('thrown by a listener'); });`,
      'steady.js': `module.exports = (hub) => hub.watch('vars/arm').subscribe((v) => hub.write('vars/seen', v));`,
      'flow.json5': JSON.stringify({
        connections: { api, vars: { type: 'dummy', parameters: ['arm,I,0', 'seen,I,0'] } },
        flows: ['timer-bomb.js', 'rejecter.ts', 'looper.js', 'thrower.js', 'steady.js'],
      }),
    });
    const hub = await runHub(t, join(dir, 'flow.json5'));
    t.like(await hub.problems(), [{ source: 'code-flow', id: 'looper', code: 'PB_FEEDBACK_LOOP' }]);
    t.regex((await hub.problems())[0]?.message ?? '', /looper\/n → looper\/n/);

    t.is(await hub.write('vars/arm', '1'), 'OK');
    await eventually(async () => (await hub.problems()).some((p) => p.id === 'timer-bomb'), 'the timer failure to be reported');
    t.is(await hub.read('timer-bomb/armed'), 'HTTP 404', 'the failed flow is stopped and its parameters removed');
    t.is(await hub.write('vars/arm', '2'), 'OK');
    await eventually(async () => (await hub.problems()).some((p) => p.id === 'rejecter'), 'the rejection to be reported');
    t.is(await hub.read('rejecter/here'), 'HTTP 404');
    const problems = await hub.problems();
    t.like(
      problems.find((p) => p.id === 'timer-bomb'),
      { source: 'code-flow', code: 'PB_CODE_FLOW' },
    );
    t.regex(problems.find((p) => p.id === 'timer-bomb')?.message ?? '', /timer-bomb\.js.*boom from a timer/);
    t.regex(problems.find((p) => p.id === 'rejecter')?.message ?? '', /rejecter\.ts.*nobody catches this/);

    // The loop is cut again on the next change from outside, and the rest of the hub serves.
    t.is(await hub.write('looper/n', '100'), 'OK');
    t.is(await hub.write('vars/arm', '3'), 'OK');
    t.is(await hub.read('vars/seen'), '3', 'the other flows run on');
    await eventually(async () => (await hub.problems()).some((p) => p.id === 'thrower'), 'the listener failure to be reported');
    t.regex((await hub.problems()).find((p) => p.id === 'thrower')?.message ?? '', /thrower\.js stopped: thrown by a listener/);
    t.is(await terminate(hub), 0, hub.log());
    t.false(
      hub.messages().some((m) => m.startsWith('uncaught')),
      hub.log(),
    );
  },
);
