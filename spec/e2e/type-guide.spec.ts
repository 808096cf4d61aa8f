/**
 * The in-repo guide, `docs/contributing/adding-a-connection-type.md`, followed as a
 * contributor would (R-PK2): what it quotes from the checkout is in the checkout as quoted,
 * and the `echo` type it builds step by step, put together from its blocks in a copy of the
 * checkout, compiles, keeps the architecture's rules, and passes the guide's own specs. The
 * device sketch compiles against the public face.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';

const run = promisify(execFile);
const checkout = fileURLToPath(new URL('../..', import.meta.url));
const guidePath = join(checkout, 'docs/contributing/adding-a-connection-type.md');

interface Block {
  readonly lang: string;
  readonly text: string;
  /** The file named by the line before it, `From \`<file>\`:`. */
  readonly from: string | undefined;
  readonly line: number;
}

/** The guide's fenced blocks, each with the file it says it comes from. */
function blocksOf(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let lastProse = '';
  let previous: Block | undefined;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i] ?? '');
    if (!open) {
      if (lines[i]?.trim()) lastProse = lines[i] ?? '';
      continue;
    }
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== '```') i++;
    const text = lines.slice(start, i + 1).join('\n');
    i++;
    // An excerpt names its file on the paragraph line before it ("From `lib/…`:", alone or
    // ending a sentence); a block right after another, with no prose between, is of the same file.
    const from = lastProse === '' ? previous?.from : /From `([^`]+)`:$/.exec(lastProse)?.[1];
    previous = { lang: open[1] ?? '', text, from, line: start };
    blocks.push(previous);
    lastProse = '';
  }
  return blocks;
}

const guide = blocksOf(await readFile(guidePath, 'utf8'));
const echoFile = 'lib/connections/echo/echo.ts';
const echoSpec = 'spec/connections/echo.spec.ts';
/** Files the guide builds: they exist only once a contributor follows it. */
const built = new Set([echoFile, echoSpec]);

test('every excerpt the guide quotes from a file of the checkout is in that file as written', async (t) => {
  const excerpts = guide.filter((block) => block.from !== undefined && !built.has(block.from));
  t.true(excerpts.length >= 8, `the guide quotes the checkout (${excerpts.length} excerpts)`);
  for (const { from, text, line } of excerpts) {
    const source = await readFile(join(checkout, from ?? ''), 'utf8');
    t.true(source.includes(text), `the block at line ${line} of the guide is in ${from} as quoted:\n${text}`);
  }
});

test('the echo type put together from the guide compiles, keeps the architecture, and passes the guide specs', async (t) => {
  const echoParts = guide.filter((block) => block.from === echoFile).map((block) => block.text);
  t.is(echoParts.length, 4, 'the header, the settings, the instance and the metrics');
  const [header, definition, instance, metrics] = echoParts as [string, string, string, string];
  // Step 7 adds the metrics "to the definition, after parse", which ends the settings block.
  const echo = [header, '', definition, metrics, instance, ''].join('\n');
  const spec = guide.find((block) => block.from === echoSpec)?.text;
  t.truthy(spec, 'the guide gives the specs');
  const register = guide.find((block) => block.text.startsWith("import { echoType } from '../connections/echo/echo.ts'"))?.text;
  t.truthy(register, 'the guide gives the line that registers the type');
  const sketch = guide.find((block) => block.text.includes('new DeviceLink('))?.text;
  t.truthy(sketch, 'the guide sketches a device type');

  // A copy of the checkout's sources, as a contributor's clone would be before the change.
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-type-guide-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  for (const part of [
    'lib',
    'tools',
    'spec/helpers',
    'spec/architecture.spec.ts',
    // The file the architecture's count of parts is checked against.
    'spec/fixtures/parts-sample.ts',
    'docs/architecture.md',
    'package.json',
    'tsconfig.json',
  ]) {
    await cp(join(checkout, part), join(folder, part), { recursive: true });
  }
  // What it only reads: the installed packages, and the console pages a rest-api serves.
  for (const shared of ['node_modules', 'console']) await symlink(join(checkout, shared), join(folder, shared), 'dir');
  await mkdir(join(folder, 'lib/connections/echo'));
  await mkdir(join(folder, 'spec/connections'));
  await writeFile(join(folder, echoFile), echo);
  await writeFile(join(folder, echoSpec), spec ?? '');
  // Step 4: the import, and `echoType` on a line of its own at the end of the list.
  const typesFile = join(folder, 'lib/config/connection-types.ts');
  const types = await readFile(typesFile, 'utf8');
  const listEnd = /(const builtIns[^=]*= \[[^\]]*?)(\n\];)/;
  t.regex(types, listEnd, 'the list of types is where the guide says');
  await writeFile(typesFile, `${register}\n${types.replace(listEnd, '$1\n  echoType,$2')}`);
  // And its folder's line in the layout of docs/architecture.md, among the type folders.
  const layoutLine = guide.find((block) => block.text.startsWith('  echo/'))?.text;
  t.truthy(layoutLine, 'the guide gives the line of its folder in the layout');
  const architecture = join(folder, 'docs/architecture.md');
  const page = await readFile(architecture, 'utf8');
  t.regex(page, /\n {2}dummy\//, 'the type folders are where the guide says');
  await writeFile(architecture, page.replace(/\n {2}dummy\//, `\n${layoutLine}\n  dummy/`));
  // The device sketch is the body of a `start`: what it names comes from the face and the settings.
  await writeFile(
    join(folder, 'lib/connections/echo/device-sketch.ts'),
    `import { type ConnectionContext, DeviceLink, TcpConnection } from '../../sdk/index.ts';
export function sketch(context: ConnectionContext, host: string, port: number, timeout: number, readAnswers: (chunk: Buffer) => void) {
${sketch}
  return { link, gain };
}
`,
  );
  await writeFile(
    join(folder, 'tsconfig.guide.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['lib/connections/echo', 'lib/config', echoSpec] }),
  );

  const tsc = join(checkout, 'node_modules/typescript/bin/tsc');
  const compiled = await run(process.execPath, [tsc, '-p', join(folder, 'tsconfig.guide.json')], { cwd: folder }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  t.is(compiled, '', 'the type, its registration, its specs and the device sketch compile');

  // The sketch is no type of the list: the architecture looks at the type's folder as the guide leaves it.
  await rm(join(folder, 'lib/connections/echo/device-sketch.ts'));
  const ava = join(checkout, 'node_modules/ava/entrypoints/cli.mjs');
  const specs = await run(process.execPath, [ava, 'spec/architecture.spec.ts', echoSpec], { cwd: folder, timeout: 240_000 }).then(
    ({ stdout, stderr }) => ({ ok: true, out: stdout + stderr }),
    (error: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  t.true(specs.ok, specs.out);
  // Every test of both files ran: the architecture's and each one the guide writes.
  const testsIn = async (file: string) => ((await readFile(join(folder, file), 'utf8')).match(/^test(\.serial)?\(/gm) ?? []).length;
  t.regex(specs.out, new RegExp(`${(await testsIn('spec/architecture.spec.ts')) + (await testsIn(echoSpec))} tests passed`));
  t.regex(specs.out, /a write of in is reported on out after delayMs, not before/);
});
