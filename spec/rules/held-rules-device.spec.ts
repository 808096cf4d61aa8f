import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/http.ts';
import { capturedLog, flowOf, startHub } from '../helpers/hub.ts';

const socat = spawnSync('socat', ['-V']).status === 0;
const withSocat = socat ? test.serial : test.serial.skip;

/** A GPIO box on TCP, played by socat: every line the hub sends lands in `file`, until it is switched off. */
function gpioBox(t: ExecutionContext, port: number, file: string): ChildProcess {
  const box = spawn('socat', ['-u', `TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr`, `OPEN:${file},creat,append`], { stdio: 'ignore' });
  t.teardown(() => box.kill());
  return box;
}

const heard = (file: string) => readFile(file, 'utf8').catch(() => '');

withSocat(
  'a rule that holds state puts a GPIO box right once it is back, and its refused write is a warning and a problem until then; a save that leaves it as it is sends nothing again (R-RS3, R-RS6)',
  async (t) => {
    const port = await freePort();
    const folder = await mkdtemp(join(tmpdir(), 'patchbay-gpio-'));
    const { log, lines } = capturedLog('warn');
    const connections = {
      atem: { type: 'dummy', parameters: ['input/2/tally/program,B,true'] },
      gpio: {
        type: 'tcp-client',
        host: '127.0.0.1',
        port,
        connectTimeout: 500,
        parameters: ['coil/2,B'],
        send: [{ parameter: 'coil/2', frame: 'COIL 2 $VALUE\r\n', values: { true: 'ON', false: 'OFF' } }],
      },
    };
    const rules = [{ from: 'atem/input/+/tally/program', to: 'gpio/coil/{1}' }];
    const hub = await startHub(t, { connections, rules }, { log });
    // The box is off: the rule's write at its start is refused, and says so where an engineer looks.
    await eventually(
      () => hub.problems().some((problem) => problem.source === 'rule' && problem.code === 'PB_DEVICE_UNAVAILABLE'),
      () => `the refused write listed (${JSON.stringify(hub.problems())})`,
    );
    t.true(
      lines().some((line) => line.level === 40 && /^rule rules\[0\]\{2\}: writing gpio\/coil\/2 failed: /.test(line.msg)),
      JSON.stringify(lines()),
    );

    // Switched on: the hub connects, and the rule writes what it says, with no change of the switcher.
    const first = join(folder, 'first.txt');
    let box = gpioBox(t, port, first);
    await eventually(async () => (await heard(first)).includes('COIL 2 ON\r\n'), 'the coil set once the box is there', 15_000);
    await eventually(
      () => !hub.problems().some((problem) => problem.source === 'rule'),
      () => `the problem gone once the write was taken (${JSON.stringify(hub.problems())})`,
    );

    // A power cycle: the box comes back knowing nothing, and is put right again.
    box.kill();
    await eventually(() => hub.connection('gpio')?.info.status !== 'ok', 'the hub sees the box gone', 15_000);
    const second = join(folder, 'second.txt');
    box = gpioBox(t, port, second);
    await eventually(
      async () => (await heard(second)).includes('COIL 2 ON\r\n'),
      () =>
        `the coil set again after the power cycle (${JSON.stringify(hub.connection('gpio')?.info)}; ${JSON.stringify(lines().slice(-5))})`,
      15_000,
    );

    // A save that changes something else: the rule goes on, and the box is told nothing again.
    const before = await heard(second);
    await hub.reload(flowOf({ connections: { ...connections, notes: { type: 'dummy', parameters: ['text,S'] } }, rules }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    t.is(await heard(second), before, 'no command sent again by an unrelated save');
    // A save that changes the rule: the box is told what it says now, at once.
    await hub.reload(flowOf({ connections, rules: [{ ...rules[0], expr: '!value' }] }));
    await eventually(async () => (await heard(second)).endsWith('COIL 2 OFF\r\n'), 'the changed rule written');
  },
);
