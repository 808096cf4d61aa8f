import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { HubError } from '../../lib/core/errors.ts';
import { realTime, type Scheduler } from '../../lib/core/scheduler.ts';
import { ChildLink } from '../../lib/sdk/process/child-link.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

// One run of a program in a process of its own, as the process kit holds it (R-PK4), against real processes.

/** A program that answers each message with what `answer` makes of it, after `setup`. */
async function program(setup: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-child-link-'));
  const file = join(dir, 'child.mjs');
  await writeFile(file, `import { writeSync } from 'node:fs';\nprocess.on('disconnect', () => process.exit(0));\n${setup}\n`);
  return file;
}

const plan = (main: string) => ({ main, called: 'the program', maxMessageBytes: 1024 * 1024 });

function start(main: string, scheduler: Scheduler = realTime) {
  const messages: unknown[] = [];
  const lines: string[] = [];
  const link = ChildLink.start(
    plan(main),
    { message: (message) => messages.push(message), output: (line, level) => lines.push(`${level} ${line}`) },
    scheduler,
  );
  return { link, messages, lines };
}

test('its messages arrive in order, its output line by line, and it ends when asked', async (t) => {
  const main = await program(
    `process.on('message', (m) => { if (m.stop) process.exit(0); process.send({ echo: m.n }); });\nconsole.log('one');\nconsole.error('two');\nprocess.send({ hello: true });`,
  );
  const { link, messages, lines } = start(main);
  for (let n = 0; n < 3; n++) link.send({ n });
  while (messages.length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
  t.deepEqual(messages, [{ hello: true }, { echo: 0 }, { echo: 1 }, { echo: 2 }]);
  await link.stop(() => link.send({ stop: true }), 5000);
  t.is(await link.ended, 'the program exited with code 0');
  t.deepEqual(lines.sort(), ['info one', 'warn two']);
  t.false(link.running);
});

test('junk on its channel ends it, not the hub, with the reason', async (t) => {
  const main = await program('const b = Buffer.alloc(64, 0x41); b.writeUInt32BE(60, 0); writeSync(3, b); setInterval(() => {}, 1000);');
  const { link } = start(main);
  t.regex(await link.ended, /^the program was ended: it sent what is no message/);
});

test('what it threw last, or the signal that ended it, is why it ended', async (t) => {
  const thrower = start(await program("throw new TypeError('the device file is missing');"));
  t.regex(await thrower.link.ended, /^the program exited with code 1: TypeError: the device file is missing$/);
  const killed = start(await program('setInterval(() => {}, 1000);'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  process.kill(killed.link.pid ?? 0, 'SIGTERM');
  t.is(await killed.link.ended, 'the program was killed (SIGTERM)');
});

test('on a virtual clock: one not ready within its deadline is ended with the reason; one that stops answering is killed after hangMs', async (t) => {
  const clock = new VirtualClock();
  const silent = start(await program('setInterval(() => {}, 1000);'), clock.scheduler);
  const ready = silent.link.ready(new Promise<void>(() => {}), 30_000, 'say it is ready');
  clock.advanceBy(30_000);
  const error = await t.throwsAsync(ready);
  t.true(error instanceof HubError && error.code === 'PB_DEVICE_TIMEOUT');
  t.is(await silent.link.ended, 'the program did not say it is ready within 30000 ms');

  // It answers pings while a flag is down; the spec stops its answers and moves the clock.
  const main = await program(
    "let answering = true; process.on('message', (m) => { if (m.mute) answering = false; else if (answering) process.send({ pong: m.ping }); });",
  );
  const pinged = start(main, clock.scheduler);
  // Each answer is awaited in real time before the clock moves on: a process that starts or
  // answers slowly on a loaded machine must not look hung on a clock that does not wait.
  const answered = async (ping: number) => {
    for (let waited = 0; !pinged.messages.some((m) => (m as { pong?: number }).pong === ping); waited += 10) {
      if (waited > 20_000) throw new Error(`no answer to ping ${ping}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  pinged.link.send({ ping: -1 });
  await answered(-1);
  let pings = 0;
  pinged.link.watchWith({ hangMs: 1000, hangSetting: 'hangMs', ping: () => pinged.link.send({ ping: pings++ }) });
  for (let step = 0; step < 30; step++) {
    clock.advanceBy(100);
    if (pings > 0) await answered(pings - 1);
  }
  t.true(pinged.link.running, 'answering, it runs on');
  t.true(pings >= 5, `pinged a few times a hangMs (${pings})`);
  pinged.link.send({ mute: true });
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (let step = 0; step < 12; step++) clock.advanceBy(100);
  t.is(await pinged.link.ended, 'the program did not answer for 1000 ms (hangMs) and was killed');
});
