import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { eventually, startBound } from '../helpers/eventually.ts';
import { bin } from '../helpers/hub-process.ts';

const preload = fileURLToPath(new URL('../fixtures/no-uws/preload.cjs', import.meta.url));

test('where no uWebSockets.js binary loads, the rest-api fails with one line naming the binary, and the rest of the hub runs', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'patchbay-no-uws-'));
  const flow = join(dir, 'flow.json');
  writeFileSync(
    flow,
    JSON.stringify({
      connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, desk: { type: 'dummy', parameters: ['a,I,1'] } },
    }),
  );
  const child = spawn(process.execPath, ['--require', preload, bin, 'run', flow, '--state', 'none', '--log-format', 'json'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.teardown(() => void child.kill('SIGKILL'));
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await eventually(
    () => log.includes('"msg":"running:') || child.exitCode !== null,
    () => `the hub to run (log: ${log})`,
    startBound,
  );
  t.is(child.exitCode, null, 'the hub runs');
  const failed = log
    .split('\n')
    .filter((line) => line.includes('uWebSockets.js has no native binary'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
  t.is(failed.length, 1, log);
  t.regex(failed[0] ?? '', /looked for uws_\w+_\w+_\d+\.node: Error: Cannot find module '\.\/uws_linux_x64_999\.node'\)/);
  t.false(log.includes('    at '), 'no stack');
  t.regex(log, /running: 2 connections.*1 failed/);
});
