import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';
import { AtemSwitcher } from '../helpers/atem-switcher.ts';
import { eventually } from '../helpers/eventually.ts';
import { runHub, terminate } from '../helpers/hub-process.ts';
import { freePort } from '../helpers/ports.ts';
import { ScriptedVideohub } from '../helpers/videohub-device.ts';
import { headingAnchors, relativeLinks } from '../helpers/markdown-links.ts';

const run = promisify(execFile);
const checkout = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(checkout, 'node_modules/typescript/bin/tsc');

test.serial(
  'the packed package holds what a user needs; installed in a CommonJS project, npx patchbay runs its TypeScript and JavaScript code flows, and the packed outside packages beside it',
  async (t) => {
    t.timeout(180_000, 'npm install may fetch what its cache lacks');
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-package-'));
    t.teardown(() => rm(dir, { recursive: true, force: true })); // an install is some 200 MB; teardowns run last first
    const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: checkout });
    const tarball = join(dir, stdout.trim().split('\n').pop() as string);

    const listed = (await run('tar', ['tzf', tarball])).stdout.split('\n').filter(Boolean);
    for (const needed of [
      'package/LICENSE',
      'package/README.md',
      'package/bin/patchbay.js',
      'package/dist/cli.js',
      'package/flows/demo.json5',
      'package/types/rules/flow-api.d.ts',
      'package/docs/README.md',
      'package/monitoring/grafana-dashboard.json',
      'package/spec/requirements.md',
    ]) {
      t.true(listed.includes(needed), needed);
    }
    t.deepEqual(
      listed.filter(
        (f) => /^package\/(lib|spec|bench|\.ci|\.git|tsconfig|flows\/\.patchbay)/.test(f) && f !== 'package/spec/requirements.md',
      ),
      [],
      'no sources (dist/ holds them compiled), specs, benchmarks, CI or build files; the contract, spec/requirements.md, is documentation',
    );
    // The declarations are what the three faces' declarations import, however far round: nothing of the hub's inside.
    t.deepEqual(
      listed.filter((f) => /^package\/types\/(hub|http|state|config|connections|site|broker)\//.test(f)),
      [],
      "types/ holds the faces' declaration closure alone",
    );
    // node_modules/ holds the bundled dependencies alone (emberplus-connection and what it
    // needs: npm ignores an installed package's `overrides`), as the lock file marks them.
    const lock = JSON.parse(await readFile(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { inBundle?: boolean }>;
    };
    const bundled = new Set(Object.entries(lock.packages).flatMap(([path, entry]) => (entry.inBundle ? [path] : [])));
    t.true(bundled.has('node_modules/emberplus-connection'), 'emberplus-connection is bundled');
    const packed = new Set(
      listed.flatMap((f) => (f.startsWith('package/node_modules/') ? [packageFolder(f.slice('package/'.length))] : [])),
    );
    t.deepEqual([...packed].sort(), [...bundled].sort(), 'node_modules/ holds exactly the bundled packages');
    // A later `npm install` in the studio folder reads the bundled packages' dependencies: one
    // named by a git URL there (emberplus-connection's asn1) failed it without GitHub.
    const ember = JSON.parse((await run('tar', ['xzOf', tarball, 'package/node_modules/emberplus-connection/package.json'])).stdout) as {
      dependencies: Record<string, string>;
    };
    t.is(ember.dependencies['asn1'], 'npm:gdnet-asn1@1.0.0', 'the bundled package names the override, not a git URL');

    // Every relative link of the packaged README, and of the docs it packs, points at a file
    // the package holds (and at a heading that is there, when it names one).
    const unpacked = join(dir, 'unpacked');
    await mkdir(unpacked);
    await run('tar', ['xzf', tarball, '-C', unpacked]);
    const inPackage = new Set(listed.map((f) => f.replace(/^package\//, '')));
    const folders = new Set(
      [...inPackage].flatMap((f) =>
        f
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const pages = [...inPackage].filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    t.true(pages.length > 10, 'the docs are packed');
    const broken: string[] = [];
    for (const page of pages) {
      const text = await readFile(join(unpacked, 'package', page), 'utf8');
      for (const link of relativeLinks(text, page)) {
        const path = link.path.replace(/\/$/, '');
        if (!inPackage.has(path) && !folders.has(path)) broken.push(`${page}: [${link.text}] → ${link.path}: not in the package`);
        else if (link.anchor !== undefined && inPackage.has(path) && path.endsWith('.md')) {
          const target = await readFile(join(unpacked, 'package', path), 'utf8');
          if (!headingAnchors(target).has(link.anchor)) broken.push(`${page}: [${link.text}] → ${path}#${link.anchor}: no such heading`);
        }
      }
    }
    t.deepEqual(broken, [], 'links of the packaged README and docs');
    const pkg = JSON.parse(await readFile(join(checkout, 'package.json'), 'utf8')) as { license: string; version: string };
    const license = await readFile(join(checkout, 'LICENSE'), 'utf8');
    t.is(pkg.license, 'MIT');
    t.true(
      license.startsWith('MIT License') && license.includes('patchbay contributors'),
      'the LICENSE file is the MIT licence of the declared holders',
    );

    // The user's project, as `npm init -y` makes it: no "type", so its .js and .ts are CommonJS.
    const app = join(dir, 'studio');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'studio', version: '1.0.0', main: 'index.js', license: 'ISC' }));
    const install = (how: string) => run('npm', ['install', how, '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: app });
    await install('--offline').catch(() => install('--prefer-offline'));

    await writeFile(
      join(app, 'doubler.ts'),
      `import type { CodeFlow } from 'patchbay-hub/flow';
import { map } from 'rxjs';

const flow: CodeFlow = (hub) => {
  const doubled = hub.define('doubled', { type: 'F', access: 'read-only' });
  // A write of doubler/level is answered with the answer of vars/level, which it writes.
  hub.define('level', { type: 'F', onWrite: (value) => hub.writeConfirmed('vars/level', value) });
  return hub.watch('vars/level').pipe(map((level) => doubled.report(Number(level) * 2)));
};
export default flow;
`,
    );
    await writeFile(
      join(app, 'greeter.js'),
      `module.exports = (hub) => { hub.define('text', { type: 'S', initial: 'hello from ' + typeof require }); };\n`,
    );
    await writeFile(
      join(app, 'myflow.json5'),
      JSON.stringify({
        connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, vars: { type: 'dummy', parameters: ['level,F,1.5'] } },
        flows: ['doubler.ts', 'greeter.js'],
      }),
    );
    // A connection type in TypeScript, on the packed declarations of patchbay-hub/connection, and
    // its check with patchbay-hub/testing: the declarations are made when packing, not committed.
    // Their closure reaches Node's types (and the logger's), so the project is checked as
    // \`tsc --init\` writes one: with skipLibCheck, beside whatever @types/node it has.
    await mkdir(join(app, 'lamp'));
    await writeFile(
      join(app, 'lamp/lamp.ts'),
      `import { defineConnectionType, portSetting, Type, valueTypeSetting, withDefault } from 'patchbay-hub/connection';

export default defineConnectionType({
  type: 'lamp',
  summary: 'A lamp that shows what it is told.',
  settings: Type.Object({ port: portSetting('Where the lamp listens.'), as: withDefault(valueTypeSetting('Its type.', ['B', 'I']), 'B') }),
  parse: (settings) => ({ ok: true, value: settings }),
  create(context, { as }) {
    return {
      start() {
        const shown = context.define('shown', { type: as, access: 'read-only' });
        context.define('show', { type: as, access: 'write-only', onWrite: (value) => shown.report(value) });
      },
      stop() {},
    };
  },
});

`,
    );
    await writeFile(
      join(app, 'lamp/lamp.check.ts'),
      `import { assertConnectionType } from 'patchbay-hub/testing';
export const checked: Promise<{ readonly failed: readonly string[] }> = assertConnectionType({ package: '.', type: 'lamp', settings: { port: 1 } });
`,
    );
    await writeFile(
      join(app, 'tsconfig.testing.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', skipLibCheck: true, noEmit: true }, include: ['lamp/*.ts'] }),
    );
    // A TypeScript project with no special flags type-checks its flow against patchbay-hub/flow
    // (\`types: []\` as \`tsc --init\` writes it: a dependency brings an old @types/node along).
    // The same flow in an ES module folder, and `module: node16`, whose rules are stricter.
    await mkdir(join(app, 'esm'));
    await writeFile(join(app, 'esm/package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(join(app, 'esm/doubler.ts'), await readFile(join(app, 'doubler.ts')));
    const testChecked = run(process.execPath, [tsc, '-p', join(app, 'tsconfig.testing.json')]).catch((error: { stdout?: string }) =>
      Promise.reject(new Error(error.stdout)),
    );
    const typeChecks = ['nodenext', 'node16'].map(async (module) => {
      const config = join(app, `tsconfig.${module}.json`);
      await writeFile(
        config,
        JSON.stringify({ compilerOptions: { strict: true, module, types: [], noEmit: true }, include: ['*.ts', 'esm/*.ts'] }),
      );
      await t.notThrowsAsync(
        run(process.execPath, [tsc, '-p', config]).catch((error: { stdout?: string }) => Promise.reject(new Error(error.stdout))),
        `tsc type-checks the flows (module: ${module})`,
      );
    });

    t.is((await run('npx', ['patchbay', '--version'], { cwd: app })).stdout.trim(), pkg.version, 'npx finds the command');
    // The hub runs as npx would run it, without npx in between, which does not pass SIGTERM on.
    const hub = await runHub(t, 'myflow.json5', {
      command: [join(app, 'node_modules/.bin/patchbay')],
      cwd: app,
      args: ['--state', 'none'],
    });
    t.is(await hub.read('doubler/doubled'), '3', hub.log());
    t.is(await hub.write('vars/level', '4'), 'OK');
    t.is(await hub.read('doubler/doubled'), '8');
    t.is(await hub.write('doubler/level', '5'), 'OK');
    t.is(await hub.read('doubler/doubled'), '10');
    t.is(await hub.read('greeter/text'), 'hello from function');
    t.deepEqual(await hub.problems(), []);
    t.is(await terminate(hub), 0);
    await Promise.all(typeChecks);
    await t.notThrowsAsync(
      testChecked,
      'tsc type-checks a connection type and its test against patchbay-hub/connection and patchbay-hub/testing',
    );

    // Connection types from packages, packed and installed beside patchbay as a studio
    // would (R-PK1): they import patchbay-hub/connection alone and run in processes of their own.
    const packOf = async (folder: string) =>
      join(
        dir,
        (await run('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: join(checkout, 'packages', folder) })).stdout
          .trim()
          .split('\n')
          .pop() as string,
      );
    const plugins = [
      await packOf('example-echo'),
      await packOf('videohub'),
      await packOf('sacn'),
      await packOf('hyperdeck'),
      await packOf('atem'),
      await packOf('obs'),
    ];
    const installPlugins = (how: string) =>
      run('npm', ['install', how, '--no-audit', '--no-fund', '--loglevel=error', ...plugins], { cwd: app });
    // Their libraries come from the cache when npm has their registry entries there, else from the registry.
    await installPlugins('--offline').catch(() => installPlugins('--prefer-offline'));
    const router = new ScriptedVideohub(16, 16);
    router.routes[3] = 9;
    const routerPort = await router.start();
    t.teardown(() => router.stop());
    // A deck for the package that brings a client library of its own (hyperdeck-connection, installed with it).
    const { HyperdeckServer } = createRequire(import.meta.url)('hyperdeck-server-connection') as {
      HyperdeckServer: new (ip: string, port: number) => { onDeviceInfo?: () => Promise<unknown>; _server: { close(): void } };
    };
    const deckPort = await freePort();
    const deck = new HyperdeckServer('127.0.0.1', deckPort);
    deck.onDeviceInfo = async () => ({ 'protocol version': '1.11', model: 'Packed Deck', 'slot count': '0' });
    t.teardown(() => deck._server.close());
    // And a switcher for the package on atem-connection.
    const mixer = await AtemSwitcher.start();
    t.teardown(() => mixer.close());
    await writeFile(
      join(app, 'echo.json5'),
      JSON.stringify({
        plugins: ['patchbay-example-echo', 'patchbay-videohub', 'patchbay-sacn', 'patchbay-hyperdeck', 'patchbay-atem', 'patchbay-obs'],
        connections: {
          api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
          echo: { type: 'echo', delayMs: 10 },
          router: { type: 'videohub', host: '127.0.0.1', port: routerPort },
          desk: { type: 'sacn', mode: 'receive', port: 0, bindIp: '127.0.0.1', multicast: false, universes: [1], channels: 4 },
          deck: { type: 'hyperdeck', host: '127.0.0.1', port: deckPort },
          mixer: { type: 'atem', host: '127.0.0.1', port: mixer.port },
          // OBS is not running here (spec/packages/obs.spec.ts runs it): the package loads, with its library, and says OBS is away.
          obs: { type: 'obs', host: '127.0.0.1', port: await freePort() },
        },
      }),
    );
    const echoHub = await runHub(t, 'echo.json5', {
      command: [join(app, 'node_modules/.bin/patchbay')],
      cwd: app,
      args: ['--state', 'none'],
    });
    const connections = (await (await fetch(`${echoHub.base}/connections`)).json()) as {
      id: string;
      type: string;
      status: string;
      package?: { name: string; version: string };
      details?: { pid?: number };
    }[];
    t.like(
      connections.find((c) => c.id === 'echo'),
      { type: 'echo', status: 'ok', package: { name: 'patchbay-example-echo', version: '1.0.0' } },
      echoHub.log(),
    );
    t.not(connections.find((c) => c.id === 'echo')?.details?.pid, echoHub.child.pid, 'in a process of its own');
    t.is(await echoHub.write('echo/in', 'hello'), 'OK');
    await eventually(async () => (await echoHub.read('echo/out')) === 'hello', 'the echo comes out');
    const version = JSON.parse(await readFile(join(checkout, 'packages/videohub/package.json'), 'utf8')) as { version: string };
    await eventually(async () => (await echoHub.read('router/output/3/input')) === '9', 'the router read');
    t.like(
      ((await (await fetch(`${echoHub.base}/connections`)).json()) as typeof connections).find((c) => c.id === 'router'),
      { type: 'videohub', status: 'ok', package: { name: 'patchbay-videohub', version: version.version } },
    );
    t.is(await echoHub.write('router/output/3/input', '4'), 'OK');
    t.is(router.routes[3], 4, 'the router took the route');
    t.like(
      ((await (await fetch(`${echoHub.base}/connections`)).json()) as typeof connections).find((c) => c.id === 'desk'),
      { type: 'sacn', status: 'ok', package: { name: 'patchbay-sacn', version: '1.0.0' } },
    );
    await eventually(async () => (await echoHub.read('deck/device/model')) === 'Packed Deck', 'the deck read');
    t.like(
      ((await (await fetch(`${echoHub.base}/connections`)).json()) as typeof connections).find((c) => c.id === 'deck'),
      { type: 'hyperdeck', status: 'ok', package: { name: 'patchbay-hyperdeck', version: '1.0.0' } },
    );
    await eventually(async () => (await echoHub.read('mixer/me/1/program')) === String(mixer.program(0)), 'the switcher read');
    t.like(
      ((await (await fetch(`${echoHub.base}/connections`)).json()) as typeof connections).find((c) => c.id === 'mixer'),
      { type: 'atem', status: 'ok', package: { name: 'patchbay-atem', version: '1.0.0' } },
    );
    t.like(
      ((await (await fetch(`${echoHub.base}/connections`)).json()) as typeof connections).find((c) => c.id === 'obs'),
      { type: 'obs', status: 'degraded', package: { name: 'patchbay-obs', version: '1.0.0' } },
    );
    t.regex(JSON.stringify(await (await fetch(`${echoHub.base}/connections`)).json()), /cannot reach OBS/);
    t.is(await terminate(echoHub), 0);

    // The guide for package authors, as a stranger reads it: every JavaScript block type-checks
    // against the installed patchbay, and its test of the echo type passes in the echo package.
    const guide = await readFile(join(checkout, 'docs/contributing/connection-type-packages.md'), 'utf8');
    const blocks = [...guide.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
    t.true(blocks.length >= 2, 'the type and its test');
    const guideFolder = join(app, 'guide');
    await mkdir(guideFolder);
    await writeFile(join(guideFolder, 'package.json'), JSON.stringify({ type: 'module' }));
    for (const [n, block] of blocks.entries()) await writeFile(join(guideFolder, `block-${n}.js`), block);
    await writeFile(
      join(guideFolder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          allowJs: true,
          checkJs: true,
          noEmit: true,
          strict: true,
          module: 'nodenext',
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(checkout, 'node_modules/@types')],
        },
        include: ['*.js'],
      }),
    );
    await t.notThrowsAsync(run(process.execPath, [tsc, '-p', join(guideFolder, 'tsconfig.json')]), "the guide's code type-checks");
    const testBlock = blocks.find((block) => block.includes("from 'patchbay-hub/testing'")) as string;
    const echoFolder = join(app, 'node_modules/patchbay-example-echo');
    await writeFile(join(echoFolder, 'echo.test.js'), testBlock);
    const tested = await run(process.execPath, ['--test', 'echo.test.js'], { cwd: echoFolder }).catch((error: { stdout: string }) => error);
    t.regex(tested.stdout, /^# pass 1$/m, tested.stdout);
  },
);

/** The package folder a packed file is in: `node_modules/a/x.js` → `node_modules/a`, `node_modules/@s/b/x` → `node_modules/@s/b`. */
function packageFolder(file: string): string {
  const parts = file.split('/');
  let end = 0;
  for (let i = 0; i < parts.length - 1; i++) if (parts[i] === 'node_modules') end = parts[i + 1]?.startsWith('@') ? i + 3 : i + 2;
  return parts.slice(0, end).join('/');
}
