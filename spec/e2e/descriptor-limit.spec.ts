import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { eventually, startBound } from '../helpers/eventually.ts';

const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time (user + system, in clock ticks of 10 ms) a process has used so far. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

/** Percent of one core `pid` used over `ms`. */
async function cpuPercent(pid: number, ms: number): Promise<number> {
  const before = cpuTicks(pid);
  await pause(ms);
  return ((cpuTicks(pid) - before) * 10 * 100) / ms;
}

test('at the file-descriptor limit the hub stops accepting instead of spinning, and accepts again once clients leave', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-fd-'));
  const flow = join(dir, 'flow.json5');
  await writeFile(
    flow,
    "{ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, vars: { type: 'dummy', parameters: 'x,I,7' } } }",
  );
  const hub: ChildProcess = spawn(process.execPath, [bin, 'run', flow, '--state', 'none', '--log-format', 'json'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.teardown(() => hub.kill('SIGKILL'));
  let log = '';
  hub.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await eventually(
    () => log.includes('"running:'),
    () => `the hub to start (log so far: ${log})`,
    startBound,
  );
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1]);
  // Loading needs more descriptors than this; a running hub uses about 25.
  execFileSync('prlimit', ['--pid', String(hub.pid), '--nofile=64:64']);

  const sockets: Socket[] = [];
  t.teardown(() => sockets.forEach((socket) => socket.destroy()));
  for (let i = 0; i < 200; i++) sockets.push(connect(port, '127.0.0.1').on('error', () => {}));
  await pause(1500);
  const busy = await cpuPercent(hub.pid as number, 2000);
  t.log(`hub CPU with 200 clients at a limit of 64 descriptors: ${busy.toFixed(0)} %`);
  t.true(busy < 25, `the hub spins at ${busy.toFixed(0)} % CPU`);
  t.regex(log, /not accepting new connections/);

  sockets.forEach((socket) => socket.destroy());
  await eventually(
    async () =>
      (await fetch(`http://127.0.0.1:${port}/parameters/vars/x`)
        .then((res) => res.text())
        .catch(() => '')) === '7',
    'the hub to answer again',
    30_000,
  );
  // The hub may answer before its log line about it has come through the pipe.
  await eventually(
    () => /accepting connections again/.test(log),
    () => `the log to say it accepts again (log: ${log})`,
  );
  t.regex(log, /accepting connections again/);
});
