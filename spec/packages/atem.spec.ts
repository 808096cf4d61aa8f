/**
 * The `atem` package (packages/atem), installed in a studio folder and run by a hub in a
 * process of its own, on the client library `atem-connection` through the SDK's `ClientLink`
 * (R-PK7, R-DV1), against the switcher simulator of spec/helpers/atem-switcher.ts, whose
 * encoding of each command is checked against atem-connection's own decoders in its spec.
 * The package's other areas (keyers, media, audio, SuperSource …) are seen in atem-breadth.spec.ts.
 *
 * Tried by hand against pyAtemSim (jonknoll/pyAtemSim, a Python ATEM simulator nobody on the
 * team wrote; run locally, never committed): the package connects, reads its model
 * ("ATEM Television Studio HD"), M/E 1's program and preview, 24 inputs by name as choices
 * and the tally; a preview write, a cut and an auto were taken and came back as state.
 * pyAtemSim acknowledges aux and keyer commands without acting on them, so those rest on
 * this spec's switcher alone.
 */
import test, { type ExecutionContext } from 'ava';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { AtemSwitcher } from '../helpers/atem-switcher.ts';
import { eventually } from '../helpers/eventually.ts';
import type { HubProcess } from '../helpers/hub-process.ts';
import { connectionOf, hubWithPackage, update } from '../helpers/outside-package.ts';

const hubWith = (t: ExecutionContext, port: number) =>
  hubWithPackage(t, 'atem', { mixer: { type: 'atem', host: '127.0.0.1', port, timeout: 3000, connectTimeout: 3000 } });

const meta = async (hub: HubProcess, address: string) =>
  ((await (await fetch(`${hub.base}/parameters?meta=1&filter=^${address}$`)).json()) as { meta?: ParameterMeta }[])[0]?.meta;

const reads = (hub: HubProcess, address: string, value: string, what: string) =>
  eventually(async () => (await hub.read(address)) === value, `${what}: ${address} is ${value}`, 10_000);

async function switcher(t: ExecutionContext) {
  const device = await AtemSwitcher.start();
  t.teardown(() => device.close());
  return device;
}

test.serial(
  'an ATEM through atem-connection: its M/Es, auxes, keyers and macros with the inputs by name as choices, tally per input, each command taken by the switcher (R-PK7, R-DV1)',
  async (t) => {
    const device = await switcher(t);
    device.setProgram(0, 1);
    device.setPreview(0, 2);
    const hub = await hubWith(t, device.port);
    await eventually(async () => (await connectionOf(hub, 'mixer'))?.status === 'ok', 'the switcher is up', 20_000);
    await reads(hub, 'mixer/me/1/program', '1', 'the state is read');
    t.is(await hub.read('mixer/me/1/preview'), '2');
    t.is(await hub.read('mixer/device/model'), 'ATEM Simulated 2 M/E');
    t.is(await hub.read('mixer/input/3/name'), 'Camera 3');
    t.is(await hub.read('mixer/me/1/transition/style'), 'mix');
    t.is(await hub.read('mixer/input/1/tally/program'), 'true');
    t.is(await hub.read('mixer/input/2/tally/preview'), 'true');
    t.is(await hub.read('mixer/input/2/tally/program'), 'false');

    // Labels and choices from the switcher (R-PK6).
    const program = await meta(hub, 'mixer/me/1/program');
    t.is(program?.label, 'M/E 1 program');
    t.deepEqual(
      program?.choices?.find((c) => c.value === 1),
      { value: 1, label: '1: Camera 1' },
    );
    t.truthy(program?.choices?.find((c) => c.value === 1000));
    t.like(await meta(hub, 'mixer/macro/1/run'), { label: 'Macro 1: Intro' });
    t.like(await meta(hub, 'mixer/me/1/transition/rate'), { unit: 'frames', minimum: 1, maximum: 250 });

    // Each command reaches the switcher, is answered when it took it, and comes back as state.
    t.deepEqual(await update(hub, 'mixer/me/1/preview', '3'), { status: 200 });
    await reads(hub, 'mixer/me/1/preview', '3', 'the switcher says');
    t.is(device.preview(0), 3);
    t.deepEqual(await update(hub, 'mixer/me/1/cut', 'true'), { status: 200 });
    await reads(hub, 'mixer/me/1/program', '3', 'the cut');
    await reads(hub, 'mixer/input/3/tally/program', 'true', 'tally follows');
    t.is(await hub.read('mixer/input/1/tally/program'), 'false');
    t.deepEqual(await update(hub, 'mixer/me/2/program', '4'), { status: 200 });
    await reads(hub, 'mixer/me/2/program', '4', 'M/E 2');
    t.is(await hub.read('mixer/input/4/tally/program'), 'false', 'tally is of M/E 1');
    t.deepEqual(await update(hub, 'mixer/me/1/transition/style', 'dip'), { status: 200 });
    await reads(hub, 'mixer/me/1/transition/style', 'dip', 'the style');
    t.deepEqual(await update(hub, 'mixer/me/1/transition/rate', '50'), { status: 200 });
    await reads(hub, 'mixer/me/1/transition/rate', '50', 'the rate');
    t.is(device.mixRate(0), 50);
    t.deepEqual(await update(hub, 'mixer/aux/2/source', '1000'), { status: 200 });
    await reads(hub, 'mixer/aux/2/source', '1000', 'the aux');
    t.deepEqual(await update(hub, 'mixer/dsk/1/onAir', 'true'), { status: 200 });
    await reads(hub, 'mixer/dsk/1/onAir', 'true', 'the keyer');
    t.true(device.downstreamKeyerOnAir(0));
    t.deepEqual(await update(hub, 'mixer/macro/2/run', 'true'), { status: 200 });
    t.true(device.heard.some((command) => command.name === 'MAct'));

    // Refused before the switcher hears it: not an input, a rate out of range, no such style.
    const before = device.heard.length;
    t.like(await update(hub, 'mixer/me/1/program', '77'), { status: 400, code: 'PB_CONVERSION' });
    t.like(await update(hub, 'mixer/me/1/transition/rate', '0'), { status: 400, code: 'PB_CONVERSION' });
    t.like(await update(hub, 'mixer/me/1/transition/style', 'spin'), { status: 400, code: 'PB_CONVERSION' });
    t.is(device.heard.length, before, 'the switcher heard none of them');

    // The switcher's own panel: a change and a renamed input reach the hub, the choices with it.
    device.setProgram(0, 5);
    await reads(hub, 'mixer/me/1/program', '5', 'the panel');
    await reads(hub, 'mixer/input/5/tally/program', 'true', 'tally of the panel');
    device.rename(5, 'Presenter', 'PRES');
    await reads(hub, 'mixer/input/5/name', 'Presenter', 'the rename');
    await eventually(
      async () => (await meta(hub, 'mixer/aux/1/source'))?.choices?.find((c) => c.value === 5)?.label === '5: Presenter',
      'the renamed input among the choices',
    );
  },
);

test.serial(
  'an ATEM that goes silent: the status says so and writes are refused at once; a command the switcher never takes is not answered as taken; back by the library on its own',
  async (t) => {
    const device = await switcher(t);
    const hub = await hubWith(t, device.port);
    await eventually(async () => (await connectionOf(hub, 'mixer'))?.status === 'ok', 'the switcher is up', 20_000);
    const programBefore = device.program(0);
    await reads(hub, 'mixer/me/1/program', String(programBefore), 'the state is read');

    // A command the switcher never acknowledges: the library resends it, gives up and starts a
    // new session, settling the command as if taken; the package answers what happened.
    device.refuseCommands(true);
    t.like(await update(hub, 'mixer/me/1/cut', 'true'), {
      status: 503,
      code: 'PB_DEVICE_UNAVAILABLE',
      message: 'the switcher went away before it took the command',
    });
    t.is(device.program(0), programBefore, 'nothing was cut');
    device.refuseCommands(false);
    await eventually(async () => (await connectionOf(hub, 'mixer'))?.status === 'ok', 'a new session', 20_000);

    device.silence();
    await eventually(async () => (await connectionOf(hub, 'mixer'))?.status === 'degraded', 'the switcher is away', 20_000);
    t.like(await update(hub, 'mixer/me/1/cut', 'true'), { status: 503, code: 'PB_DEVICE_UNAVAILABLE' });
    device.setProgram(0, 6);
    device.resume();
    await eventually(async () => (await connectionOf(hub, 'mixer'))?.status === 'ok', 'the library reconnected', 30_000);
    await reads(hub, 'mixer/me/1/program', '6', 'what changed while away is read on reconnect');
    t.deepEqual(await update(hub, 'mixer/me/1/preview', '7'), { status: 200 });
    await reads(hub, 'mixer/me/1/preview', '7', 'commands again');
  },
);
