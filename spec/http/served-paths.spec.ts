import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { flowOf, param } from '../helpers/hub.ts';

test('GET /connections and GET /problems send no absolute file-system path: paths are relative to the flow file folder', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay paths-')); // a space, as in "My Shows"
  const elsewhere = await mkdtemp(join(tmpdir(), 'patchbay-elsewhere-'));
  await mkdir(join(dir, 'out'));
  await writeFile(join(dir, 'broken.ts'), 'throw new Error(`cannot open ${import.meta.url}`);\n');
  // The folder exists when the file is checked and is gone when the hub starts: a failure only the running hub sees.
  await mkdir(join(elsewhere, 'site'));
  // So are the output folders, which go once the hub runs: write failures (R-X5).
  await mkdir(join(dir, 'later'));
  await mkdir(join(elsewhere, 'gone'));
  const flow = flowOf(
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        www: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', documentRoot: join(elsewhere, 'site') },
        np: { type: 'xml-file-output', filename: 'out/now.xml', template: '<a>$X</a>' },
        missing: { type: 'xml-file-output', filename: 'later/now.xml', template: '<a>$X</a>' },
        outside: { type: 'xml-file-output', filename: join(elsewhere, 'gone', 'now.xml'), template: '<a>$X</a>' },
      },
      flows: ['broken.ts'],
    },
    dir,
  );
  await rm(join(elsewhere, 'site'), { recursive: true });
  const hub = new Hub({ flow });
  t.teardown(() => hub.stop());
  await hub.start();
  // The files rendered at start are written after the start resolves: removing a folder a
  // save is writing into fails (ENOTEMPTY), so the first renders land first.
  await eventually(
    () => existsSync(join(dir, 'later', 'now.xml')) && existsSync(join(elsewhere, 'gone', 'now.xml')),
    'the renders at start',
  );
  await rm(join(dir, 'later'), { recursive: true });
  await rm(join(elsewhere, 'gone'), { recursive: true });
  param(hub, 'missing/X').set('x');
  param(hub, 'outside/X').set('x');
  await eventually(
    () => hub.connection('missing')?.status.status === 'degraded' && hub.connection('outside')?.status.status === 'degraded',
    'the write failures',
  );
  // The hub itself (its log, the CLI) keeps the full paths.
  t.true(hub.problems().some((problem) => problem.message.includes(dir)));

  const port = hub.connection('api')?.info.details?.['port'] as number;
  const connections = await (await fetch(`http://127.0.0.1:${port}/connections`)).text();
  const problems = await (await fetch(`http://127.0.0.1:${port}/problems`)).text();
  for (const body of [connections, problems]) {
    t.false(body.includes(tmpdir()), body);
    t.false(body.includes('file://'), body);
  }
  const byId = Object.fromEntries(
    (JSON.parse(connections) as { id: string; reason: string; details?: object }[]).map((c) => [c.id, c]),
  ) as Record<string, { reason: string; details?: object }>;
  t.deepEqual(byId['np']?.details, { filename: 'out/now.xml' });
  t.is(byId['missing']?.reason, 'the folder later does not exist; the file is written once it does');
  t.regex(
    byId['outside']?.reason ?? '',
    /^the folder \.\.\/patchbay-elsewhere-\w+\/gone does not exist; the file is written once it does$/,
  );
  t.regex(byId['www']?.reason ?? '', /^documentRoot \.\.\/patchbay-elsewhere-\w+\/site does not exist$/);
  t.regex(problems, /code flow/);
});
