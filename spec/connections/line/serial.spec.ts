import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.ts';
import { serve } from '../../helpers/http.ts';
import { param } from '../../helpers/hub.ts';

const socat = spawnSync('socat', ['-V']).status === 0;
const withSocat = socat ? test.serial : test.serial.skip;

/** Two pseudo-terminals joined by socat: the hub opens one end as its serial port, the spec plays the device on the other. */
async function ptyPair(dir: string): Promise<ChildProcess> {
  const pair = spawn('socat', [`pty,raw,echo=0,link=${join(dir, 'hub')}`, `pty,raw,echo=0,link=${join(dir, 'box')}`], { stdio: 'ignore' });
  await eventually(() => existsSync(join(dir, 'hub')) && existsSync(join(dir, 'box')), 'the pty pair');
  return pair;
}

/** The GPIO box: its end of the pair, opened as a file that never blocks the spec (and the hub in it) on a read. */
function box(dir: string) {
  const fd = openSync(join(dir, 'box'), constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOCTTY);
  let heard = '';
  return {
    say: (text: string) => writeSync(fd, text),
    /** What has come so far: a read of an empty pty fails with EAGAIN at once. */
    heard(): string {
      const buffer = Buffer.alloc(4096);
      try {
        const n = readSync(fd, buffer, 0, buffer.length, null);
        heard += buffer.subarray(0, n).toString();
      } catch {}
      return heard;
    },
    close: () => closeSync(fd),
  };
}

withSocat(
  'a GPIO box on a serial port (a socat pty pair): inputs drive parameters, a relay is written, and a port that goes away is opened again (R-N1, R-G1)',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'patchbay-serial-'));
    let pair = await ptyPair(dir);
    t.teardown(() => pair.kill());
    const { hub, base } = await serve(
      t,
      {},
      {
        gpio: {
          type: 'serial',
          path: join(dir, 'hub'),
          baudRate: 115200,
          delimiter: '\r',
          parameters: ['in/1,B', 'in/2,B', 'relay/1,B'],
          receive: [{ match: '^I(?P<n>[12]):(?P<v>[01])$', set: { 'in/$n': '$v' } }],
          send: [{ parameter: 'relay/1', frame: 'R1:$VALUE\r', values: { true: '1', false: '0' } }],
        },
      },
    );
    await eventually(() => hub.connection('gpio')?.info.status === 'ok', 'the port open');
    let device = box(dir);
    device.say('I1:1\rI2:0\r');
    await eventually(() => param(hub, 'gpio/in/1').value === true && param(hub, 'gpio/in/2').value === false, 'the inputs');
    t.is((await fetch(`${base}/update?parameter=gpio/relay/1&value=true`)).status, 200);
    await eventually(
      () => device.heard() === 'R1:1\r',
      () => `R1:1 on the box, heard ${JSON.stringify(device.heard())}`,
    );

    // The adapter unplugged: the pty pair goes away.
    device.close();
    pair.kill();
    await eventually(() => hub.connection('gpio')?.info.status === 'degraded', 'degraded while the port is gone', 20_000);
    const refused = await fetch(`${base}/update?parameter=gpio/relay/1&value=false`);
    t.is(refused.status, 503);
    pair = await ptyPair(dir);
    await eventually(() => hub.connection('gpio')?.info.status === 'ok', 'the port opened again', 15_000);
    device = box(dir);
    device.say('I1:0\r');
    await eventually(() => param(hub, 'gpio/in/1').value === false, 'inputs read again');
    device.close();
  },
);

test('a serial port that is not there: /connections shows its path as the flow file writes it, not relative to the flow file folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'patchbay-serial-'));
  const path = join(dir, 'usb-adapter');
  const { hub, base } = await serve(t, {}, { gpio: { type: 'serial', path, parameters: ['in/1,B'] } });
  await eventually(() => hub.connection('gpio')?.info.status === 'degraded', 'degraded while the port is missing');
  const served = (await (await fetch(`${base}/connections`)).json()) as { id: string; reason?: string; details?: { path?: string } }[];
  const gpio = served.find((connection) => connection.id === 'gpio');
  t.true(gpio?.reason?.startsWith(`${path}: `), `the reason names ${path}: ${gpio?.reason}`);
  t.false(gpio?.reason?.includes('..'), 'no path relative to the flow file folder, which the hub does not open');
  t.is(gpio?.details?.path, path);
});

withSocat(
  'a GPIO box of 16 inputs and 8 relays declared with ranges on a serial port (a socat pty pair): padded ids read, each relay written with its number (R-N2)',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'patchbay-serial-'));
    const pair = await ptyPair(dir);
    t.teardown(() => pair.kill());
    const { hub, base } = await serve(
      t,
      {},
      {
        gpio: {
          type: 'serial',
          path: join(dir, 'hub'),
          delimiter: '\r',
          parameters: ['in/{01..16},B', 'relay/{1..8},B'],
          receive: [{ match: '^I(?P<n>\\d\\d):(?P<v>[01])$', set: { 'in/$n': '$v' } }],
          send: [{ parameter: 'relay/{1..8}', frame: 'R$1:$VALUE\r', values: { true: '1', false: '0' } }],
        },
      },
    );
    await eventually(() => hub.connection('gpio')?.info.status === 'ok', 'the port open');
    const device = box(dir);
    t.teardown(() => device.close());
    device.say('I01:1\rI16:1\rI09:0\r');
    await eventually(() => param(hub, 'gpio/in/16').value === true, 'the last input');
    t.is(param(hub, 'gpio/in/01').value, true);
    t.is(param(hub, 'gpio/in/09').value, false);
    t.is(param(hub, 'gpio/in/09').access, 'read-only');
    t.is((await fetch(`${base}/update?parameter=gpio/relay/8&value=true`)).status, 200);
    t.is((await fetch(`${base}/update?parameter=gpio/relay/3&value=true`)).status, 200);
    await eventually(
      () => device.heard() === 'R8:1\rR3:1\r',
      () => `R8:1 then R3:1 on the box, heard ${JSON.stringify(device.heard())}`,
    );
  },
);
