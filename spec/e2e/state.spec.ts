import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { eventually, startBound } from '../helpers/eventually.ts';

const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));

interface Running {
  readonly child: ChildProcess;
  readonly port: number;
  readonly base: string;
  readonly exited: Promise<number | null>;
}

// These specs start and kill real hubs one after the other (test.serial): several at once
// on a two-core machine made their start times, not the hub, what was measured.

/**
 * Runs `patchbay run` on a flow file as a real process and resolves once it listens, and
 * unless `until` says otherwise, once it runs.
 */
async function run(t: ExecutionContext, flow: string, { until = 'running' }: { until?: 'listening' | 'running' } = {}, ...args: string[]) {
  const child = spawn(process.execPath, [bin, 'run', flow, '--log-format', 'json', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  t.teardown(() => void child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const listening = () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
  await eventually(
    () => (until === 'running' ? log.includes('"msg":"running:') : listening() !== undefined),
    () => `the hub to start (log so far: ${log})`,
    startBound,
  );
  const port = Number(listening());
  return { child, port, base: `http://127.0.0.1:${port}`, exited } satisfies Running;
}

async function kill(running: Running): Promise<void> {
  running.child.kill('SIGKILL');
  await running.exited;
}

async function flowFile(document: object): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-state-e2e-'));
  const path = join(dir, 'flow.json5');
  await writeFile(path, JSON.stringify(document));
  return path;
}

const values = async (base: string) =>
  Object.fromEntries(((await (await fetch(`${base}/parameters`)).json()) as { p: string; v?: unknown }[]).map(({ p, v }) => [p, v]));

const studio = {
  connections: {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
    vars: { type: 'dummy', parameters: [...Array.from({ length: 100 }, (_, i) => `p${i},I,0`), 'fired,S,never'] },
  },
  // A rule whose firing would show: it stamps the time of the change it saw.
  rules: [{ source: 'vars/p0', destinations: ['vars/fired'], pipe: [{ format: 'fired at $TIMESTAMP' }] }],
};

test.serial('every answered HTTP write survives SIGKILL right after the last answer, and the restart fires no rule', async (t) => {
  const flow = await flowFile(studio);
  const first = await run(t, flow);
  const answered = new Map<string, number>();
  let next = 0;
  const writer = async () => {
    while (next < 1000) {
      const n = next++;
      const address = `vars/p${n % 100}`;
      const res = await fetch(`${first.base}/update?parameter=${address}&value=${n}`);
      if ((await res.text()) === 'OK') answered.set(address, n);
    }
  };
  await Promise.all(Array.from({ length: 16 }, writer));
  first.child.kill('SIGKILL'); // at once, as soon as the last answer is in
  await first.exited;
  t.is(answered.size, 100);
  const before = (await values(first.base).catch(() => undefined)) ?? {};
  t.deepEqual(before, {}, 'the first hub is gone');

  const second = await run(t, flow);
  const after = await values(second.base);
  for (const [address, value] of answered) t.is(after[address], value, address);
  const fired = after['vars/fired'] as string;
  t.regex(fired, /^fired at /, 'the rule fired while the values were written');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is((await values(second.base))['vars/fired'], fired, 'restoring vars/p0 fired no rule');
  await kill(second);
});

test.serial(
  'a rule write survives SIGKILL right after the answer that caused it, also for the first write a starting hub answers (R-S4)',
  async (t) => {
    const flow = await flowFile({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        desk: { type: 'dummy', parameters: 'fader,I,0' },
        mixer: { type: 'dummy', parameters: 'gain,S,unset' },
      },
      rules: [{ source: 'desk/fader', destinations: ['mixer/gain'], pipe: [{ format: '$VALUE dB' }] }],
      // A code flow whose module takes a while to load holds the hub's start open after the
      // rest-api listens and before the rules run: a client may reach the hub meanwhile.
      flows: ['slow-to-load.mjs'],
    });
    await writeFile(
      join(flow, '../slow-to-load.mjs'),
      'await new Promise((resolve) => setTimeout(resolve, 300));\nexport default () => {};\n',
    );
    let refused = 0;
    for (let round = 1; round <= 3; round++) {
      const starting = await run(t, flow, { until: 'listening' });
      // Written the moment the hub answers, then killed at once.
      let answer: Response;
      for (;;) {
        answer = await fetch(`${starting.base}/update?parameter=desk/fader&value=${round}`, { headers: { accept: 'application/json' } });
        if (answer.status !== 503) break;
        t.like(await answer.json(), { ok: false, code: 'PB_STARTING' });
        t.is(answer.headers.get('retry-after'), '1');
        refused++;
      }
      starting.child.kill('SIGKILL');
      await starting.exited;
      t.is(answer.status, 200, `round ${round}`);
      const again = await run(t, flow);
      const after = await values(again.base);
      t.is(after['desk/fader'], round, `round ${round}: the source`);
      t.is(after['mixer/gain'], `${round} dB`, `round ${round}: the rule's destination`);
      await kill(again);
    }
    t.log(`${refused} writes answered 503 while the hubs started`);
  },
);

test.serial('a timer started for 3 s survives a restart after 1 s and fires near its deadline', async (t) => {
  const flow = await flowFile({
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
      clock: { type: 'timer', timers: [{ duration: 1000 }] },
      seen: { type: 'dummy', persist: false, parameters: 'firedAt,S' },
    },
    // The fire's time, as the hub saw it, stays readable however slowly the test looks.
    rules: [{ source: 'clock/timer/1/trigger', destinations: ['seen/firedAt'], pipe: [{ format: '$TIMESTAMP' }] }],
  });
  const first = await run(t, flow);
  const started = Date.now();
  t.is(await (await fetch(`${first.base}/update?parameter=clock/timer/1/start&value=3000`)).text(), 'OK');
  const deadline = started + 3000;
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() - started)));
  first.child.kill('SIGTERM');
  t.is(await first.exited, 0);

  const second = await run(t, flow);
  const upAgain = Date.now();
  let firedAt = '';
  await eventually(
    async () => {
      firedAt = ((await values(second.base))['seen/firedAt'] as string | undefined) ?? '';
      return firedAt !== '';
    },
    'the timer to fire',
    20_000,
  );
  // On a slow machine the restart itself may outlast the deadline: then "at once" is right.
  const due = Math.max(deadline, upAgain);
  const late = Date.parse(firedAt) - due;
  t.log(`fired ${Date.parse(firedAt) - deadline} ms after its deadline, the hub was up again ${upAgain - deadline} ms after it`);
  t.true(Date.parse(firedAt) >= deadline - 20 && late < 400, `fired ${late} ms after it was due`);
  await kill(second);
});

test.serial('--state none starts from the defaults and keeps nothing', async (t) => {
  const flow = await flowFile(studio);
  const keeping = await run(t, flow);
  await fetch(`${keeping.base}/update?parameter=vars/p1&value=11`);
  await kill(keeping);
  const without = await run(t, flow, {}, '--state', 'none');
  t.is((await values(without.base))['vars/p1'], 0);
  await fetch(`${without.base}/update?parameter=vars/p1&value=22`);
  await kill(without);
  const again = await run(t, flow);
  t.is((await values(again.base))['vars/p1'], 11, 'the run without state wrote nothing');
  await kill(again);
});

test.serial(
  'a second hub on the same state folder runs with its store failed and says why; the state command reads beside it; a killed hub leaves no lock',
  async (t) => {
    const flow = await flowFile(studio);
    const first = await run(t, flow);
    t.is(await (await fetch(`${first.base}/update?parameter=vars/p1&value=11`)).text(), 'OK');
    const second = await run(t, flow);
    const problems = (await (await fetch(`${second.base}/problems`)).json()) as { source: string; code: string; message: string }[];
    t.like(problems[0], { source: 'state', code: 'PB_STATE_LOCKED' });
    t.regex(problems[0]?.message ?? '', new RegExp(`in use by another hub \\(pid ${first.child.pid}, since `));
    t.is((await values(second.base))['vars/p1'], 0, 'the second hub serves, from the defaults');
    const list = spawnSync(process.execPath, [bin, 'state', flow, 'list'], { encoding: 'utf8' });
    t.is(list.status, 0, list.stderr);
    t.regex(list.stdout, /^vars\/p1\t11$/m, 'the state command reads the folder beside the running hub');
    await kill(second);
    await kill(first);
    const third = await run(t, flow);
    t.deepEqual(await (await fetch(`${third.base}/problems`)).json(), [], 'the lock of a hub killed with SIGKILL holds nothing');
    t.is((await values(third.base))['vars/p1'], 11);
    await kill(third);
  },
);
