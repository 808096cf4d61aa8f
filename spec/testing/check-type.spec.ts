/**
 * `patchbay-hub/testing` as a package's author uses it: the checkout's videohub package against
 * a scripted router passes every check; types that leak a timer, refuse nothing or never
 * come up fail the checks that say so.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import test from 'ava';
import { checkConnectionType } from '../../lib/testing/index.ts';
import { ScriptedVideohub } from '../helpers/videohub-device.ts';

const videohub = fileURLToPath(new URL('../../packages/videohub', import.meta.url));

test.serial('the videohub package passes every check of the kit against a router', async (t) => {
  const router = new ScriptedVideohub(12, 12);
  const port = await router.start();
  t.teardown(() => router.stop());
  const report = await checkConnectionType({
    package: videohub,
    type: 'videohub',
    settings: { host: '127.0.0.1', port },
    refused: [
      { settings: { host: '127.0.0.1', ping: 500 }, path: 'ping' },
      { settings: { host: '127.0.0.1', port: 'ninety' }, path: 'port' },
      { settings: {}, path: 'host' },
    ],
    exercise: async (router12) => {
      await router12.waitFor('output/11/input', (value) => value === 11);
      const answer = await router12.write('output/2/input', 5);
      if (!answer.ok) throw new Error(`the route was refused: ${answer.error.message}`);
    },
    changed: { host: '127.0.0.1', port, timeout: 1500 },
  });
  t.deepEqual(report.failed, [], report.log.join('\n'));
  t.is(report.passed.length, 12, report.passed.join('\n'));
  t.true(report.passed.includes('every parameter it makes is on its reference page, of its type and access'), report.passed.join('\n'));
  t.true(
    report.passed.includes('changed settings are taken (by a restart) while it runs and it reaches ok again'),
    report.passed.join('\n'),
  );
  t.is(router.routes[2], 5, 'the exercise reached the router');
});

/** A package of one type `sloppy` whose module is `source`. */
async function sloppyPackage(source: string): Promise<string> {
  const folder = join(await mkdtemp(join(tmpdir(), 'patchbay-sloppy-')), 'sloppy');
  await mkdir(folder);
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'sloppy', version: '0.0.1', type: 'module', patchbay: { apiVersion: 1, types: { sloppy: './sloppy.js' } } }),
  );
  await writeFile(join(folder, 'sloppy.js'), source);
  return folder;
}

test.serial('a type that leaves a timer running, refuses nothing and stays connecting fails those checks, each saying why', async (t) => {
  const leaky = await sloppyPackage(`import { asWritten, defineConnectionType, Status, Type } from 'patchbay-hub/connection';
export const leaked = [];
export default defineConnectionType({
  type: 'sloppy',
  summary: 'Forgets its timer.',
  settings: Type.Object({ rate: Type.Optional(Type.Integer()) }),
  parse: asWritten,
  create(context) {
    return {
      start() { leaked.push(setInterval(() => {}, 1000)); context.setStatus(Status.Ok); },
      stop() {},
    };
  },
});
`);
  const report = await checkConnectionType({
    package: leaky,
    type: 'sloppy',
    settings: {},
    refused: [{ settings: { rate: 0 }, path: 'rate' }],
    timeoutMs: 1000,
  });
  // The spec's own clean-up: the timers the type forgot would keep this process alive.
  for (const timer of ((await import(pathToFileURL(join(leaky, 'sloppy.js')).href)) as { leaked: NodeJS.Timeout[] }).leaked)
    clearInterval(timer);
  t.deepEqual(report.failed, [
    'settings {"rate":0} are refused at rate: taken',
    'first start: a stop releases what the start took: left behind: 1 × Timeout',
    'a start after a stop: a stop releases what the start took: left behind: 1 × Timeout',
  ]);

  const never = await sloppyPackage(`import { asWritten, defineConnectionType, Status, Type } from 'patchbay-hub/connection';
export default defineConnectionType({
  type: 'sloppy',
  summary: 'Never comes up.',
  settings: Type.Object({}),
  parse: asWritten,
  create(context) {
    return { start() { context.setStatus(Status.Degraded, 'no device', 'PB_DEVICE_UNAVAILABLE'); }, stop() {} };
  },
});
`);
  const stuck = await checkConnectionType({ package: never, type: 'sloppy', settings: {}, timeoutMs: 500 });
  t.deepEqual(stuck.failed, ['first start: reaches ok within 500 ms: degraded (no device)']);
});

test.serial(
  'a type that keeps a value it does not declare, declares another of the wrong type, and cannot take new settings fails those checks',
  async (t) => {
    const forgetful = await sloppyPackage(`import { asWritten, defineConnectionType, Type } from 'patchbay-hub/connection';
export default defineConnectionType({
  type: 'sloppy',
  summary: 'Keeps what it does not say.',
  settings: Type.Object({ label: Type.Optional(Type.String()) }),
  parse: asWritten,
  declared: () => (id) => (id === 'gain' ? { type: 'F', persist: true } : undefined),
  create(context) {
    return {
      start() {
        context.define('level', { type: 'I', access: 'read-write', initial: 1, persist: true });
        context.define('gain', { type: 'I', access: 'read-write', initial: 0, persist: true });
      },
      update() { throw new Error('a label cannot change while it runs'); },
      stop() {},
    };
  },
});
`);
    const report = await checkConnectionType({
      package: forgetful,
      type: 'sloppy',
      settings: {},
      changed: { label: 'studio 2' },
      timeoutMs: 1000,
    });
    t.deepEqual(report.failed, [
      'the parameters it keeps are those it declares, of their types: level is kept (persist: true) but not declared kept; gain is I, declared F',
      'changed settings are taken (in place) while it runs and it reaches ok again: it is failed (a label cannot change while it runs)',
    ]);
  },
);

test.serial(
  'a type whose reference page leaves out a parameter it makes, or lists one of another type or access, fails that check (R-PK6)',
  async (t) => {
    const undocumented = await sloppyPackage(`import { asWritten, defineConnectionType, Type } from 'patchbay-hub/connection';
export default defineConnectionType({
  type: 'sloppy',
  summary: 'Makes what its page does not say.',
  settings: Type.Object({}),
  parse: asWritten,
  parameters: [
    { id: 'input/<n>/name', type: 'S', access: 'read-only', description: 'the input\\'s name' },
    { id: 'level', type: 'I', access: 'read-only', description: 'the level' },
  ],
  create(context) {
    return {
      start() {
        for (const n of [1, 2]) context.define('input/' + n + '/name', { type: 'S', access: 'read-only', initial: 'Camera ' + n });
        context.define('level', { type: 'F', access: 'read-write', initial: 0 });
        context.define('secret', { type: 'B', access: 'read-only', initial: false });
      },
      stop() {},
    };
  },
});
`);
    const report = await checkConnectionType({ package: undocumented, type: 'sloppy', settings: {}, timeoutMs: 1000 });
    t.deepEqual(report.failed, [
      'every parameter it makes is on its reference page, of its type and access: level is F read-write, its page (level) says I read-only; secret is not on its reference page',
    ]);
  },
);
