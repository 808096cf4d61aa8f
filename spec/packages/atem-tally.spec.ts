/**
 * Tally without code (R-DV2): the `atem` package's example flow (packages/atem/tally.json5),
 * copied into a studio folder as its README says, run by a hub process with a state folder.
 * The switcher is spec/helpers/atem-switcher.ts; the multiviewer's displays are the
 * `tsl-umd-v5` library; the Stream Deck is Companion Satellite's protocol, scripted. A kill -9
 * of the hub and of the package's process loses no tally: the lamp of the camera on air never
 * goes dark, and what changed meanwhile is shown once they are back.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import JSON5 from 'json5';
import { ScriptedSatellite } from '../connections/satellite/scripted-satellite.ts';
import { AtemSwitcher } from '../helpers/atem-switcher.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { connectionOf, studioWith } from '../helpers/outside-package.ts';
import { freePort } from '../helpers/ports.ts';
import { type DisplayMessage, shown, tslDisplays } from '../helpers/tsl-display.ts';

type Flow = { connections: Record<string, Record<string, unknown>> };

/** The example as a studio has it, pointed at the spec's switcher, displays and a free satellite port. */
async function studio(switcher: AtemSwitcher, umdPort: number, deskPort: number): Promise<string> {
  const folder = await studioWith('atem');
  const flow = JSON5.parse(await readFile(join(folder, 'node_modules/patchbay-atem/tally.json5'), 'utf8')) as Flow;
  Object.assign(flow.connections['api'] as object, { port: 0 });
  Object.assign(flow.connections['mixer'] as object, { host: '127.0.0.1', port: switcher.port });
  Object.assign(flow.connections['umds'] as object, { host: '127.0.0.1', port: umdPort });
  Object.assign(flow.connections['desk'] as object, { port: deskPort, bindIp: '127.0.0.1' });
  await writeFile(join(folder, 'tally.json5'), JSON.stringify(flow));
  return folder;
}

const run = (t: ExecutionContext, folder: string) => runHub(t, 'tally.json5', { cwd: folder, args: ['--state', join(folder, 'state')] });

const up = (hub: HubProcess) => eventually(async () => (await connectionOf(hub, 'mixer'))?.status === 'ok', 'the switcher is up', 20_000);

test.serial(
  "the example's tally reaches the displays and the keys through rules alone, and no tally is lost across kill -9 of the hub or of the package's process (R-DV2)",
  async (t) => {
    const switcher = await AtemSwitcher.start();
    t.teardown(() => switcher.close());
    switcher.setProgram(0, 1);
    switcher.setPreview(0, 2);
    const umdPort = await freePort();
    const deskPort = await freePort();
    const displays = tslDisplays(t, umdPort);
    const folder = await studio(switcher, umdPort, deskPort);
    let hub = await run(t, folder);
    await up(hub);

    // Names from the switcher, program red on the left, preview green on the right.
    await eventually(
      () => shown(displays, 1)?.lh_tally === 1 && shown(displays, 1)?.text === 'Camera 1',
      () => `display 1 red, named: ${JSON.stringify(displays.slice(-8))} ${hub.log().slice(-3000)}`,
    );
    await eventually(() => shown(displays, 2)?.rh_tally === 2, 'display 2 green');
    t.is(shown(displays, 3)?.lh_tally, 0);

    // The keys: program tally red on the top row; CUT cuts.
    const desk = await ScriptedSatellite.connect(t, deskPort);
    desk.addDevice('CL15K1A00001', 15, 5, 0);
    const key = (n: number) => desk.lines.filter((line) => line.startsWith('KEY-STATE ') && line.includes(` KEY=${n} `)).at(-1) ?? '';
    await eventually(() => key(0).includes('COLOR="#e00000"'), 'camera 1 key red');
    await eventually(() => key(6).includes('COLOR="#00b000"'), 'camera 2 preview key green');
    desk.send('KEY-PRESS', 'CL15K1A00001', { KEY: 10, PRESSED: true });
    await eventually(() => switcher.program(0) === 2, 'the CUT key cut');
    await eventually(() => shown(displays, 2)?.lh_tally === 1 && shown(displays, 1)?.lh_tally === 0, 'the tally follows the cut');
    await eventually(() => key(1).includes('COLOR="#e00000"'), 'camera 2 key red');

    // kill -9 of the hub while camera 2 is on air: its lamp never goes dark, from the moment
    // the hub is back; a cut made on the panel meanwhile is shown once the switcher is read.
    hub.child.kill('SIGKILL');
    await hub.exited;
    const afterKill = displays.length;
    switcher.setProgram(0, 3);
    hub = await run(t, folder);
    await up(hub);
    await eventually(
      () => shown(displays, 3)?.lh_tally === 1 && shown(displays, 2)?.lh_tally === 0,
      'the panel cut shown after the restart',
    );
    const darkBeforeRead = displays.slice(afterKill).findIndex((m) => m.index === 2 && m.display.lh_tally === 0);
    const redAgain = displays.slice(afterKill).findIndex((m) => m.index === 3 && m.display.lh_tally === 1);
    t.true(
      darkBeforeRead === -1 || darkBeforeRead >= redAgain - 1,
      `camera 2 stayed red until camera 3 was on air (the two in one turn): ${lampsFrom(displays.slice(afterKill))}`,
    );
    t.false(
      displays.slice(afterKill).some((m) => m.index === 1 && m.display.text !== 'Camera 1'),
      "display 1 kept the switcher's name, not the flow's",
    );

    // kill -9 of the package's process: the hub keeps the tally; a cut meanwhile is shown when it is back.
    const pid = ((await connectionOf(hub, 'mixer'))?.details?.['process'] as { pid?: number } | undefined)?.pid ?? 0;
    t.true(pid > 0 && pid !== hub.child.pid, 'the package runs in a process of its own');
    const beforeProcessKill = displays.length;
    process.kill(pid, 'SIGKILL');
    switcher.setProgram(0, 4);
    await eventually(
      () => shown(displays, 4)?.lh_tally === 1 && shown(displays, 3)?.lh_tally === 0,
      'the cut shown after the process is back',
      30_000,
    );
    const darkened = displays.slice(beforeProcessKill).findIndex((m) => m.index === 3 && m.display.lh_tally === 0);
    const redFour = displays.slice(beforeProcessKill).findIndex((m) => m.index === 4 && m.display.lh_tally === 1);
    t.true(
      darkened === -1 || darkened >= redFour - 1,
      `camera 3 stayed red until camera 4 was on air (the two in one turn): ${lampsFrom(displays.slice(beforeProcessKill))}`,
    );
  },
);

/** A GPIO box on TCP, played by socat: every line the hub sends lands in `file` while it runs. */
function gpioBox(t: ExecutionContext, port: number, file: string): ChildProcess {
  const box = spawn('socat', ['-u', `TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr`, `OPEN:${file},creat,append`], { stdio: 'ignore' });
  t.teardown(() => box.kill());
  return box;
}
const heard = (file: string) => readFile(file, 'utf8').catch(() => '');
const withSocat = spawnSync('socat', ['-V']).status === 0 ? test.serial : test.serial.skip;

withSocat(
  "the example's rules hold the tally: its four rules drive every camera's lamps, a GPIO box power-cycled and a rule added while the switcher stays put show what is on air at once (R-RS3, R-RS7)",
  async (t) => {
    const example = await readFile(new URL('../../packages/atem/tally.json5', import.meta.url), 'utf8');
    const ruleLines = example
      .slice(example.indexOf('  rules: ['))
      .split('\n')
      .filter((line) => line.trim().startsWith('{ from:'));
    t.is(ruleLines.length, 4, 'four lines of rules for four cameras, their names and their coils');

    const switcher = await AtemSwitcher.start();
    t.teardown(() => switcher.close());
    switcher.setProgram(0, 2);
    switcher.setPreview(0, 3);
    const [umdPort, deskPort, gpioPort] = [await freePort(), await freePort(), await freePort()];
    const displays = tslDisplays(t, umdPort);
    const folder = await studio(switcher, umdPort, deskPort);
    const file = join(folder, 'tally.json5');
    const flow = JSON.parse(await readFile(file, 'utf8')) as Flow & { rules: unknown[] };
    Object.assign(flow.connections['gpio'] as object, { enabled: true, host: '127.0.0.1', port: gpioPort, connectTimeout: 500 });
    flow.connections['studio'] = { type: 'dummy', parameters: ['cam2/onair,B'] };
    await writeFile(file, JSON.stringify(flow));
    const first = join(folder, 'gpio-1.txt');
    let box = gpioBox(t, gpioPort, first);
    const hub = await runHub(t, 'tally.json5', { cwd: folder, args: ['--state', join(folder, 'state'), '--watch'] });
    await up(hub);
    await eventually(() => shown(displays, 2)?.lh_tally === 1 && shown(displays, 3)?.rh_tally === 2, 'program red, preview green');
    await eventually(async () => /COIL 2 ON\r\n/.test(await heard(first)) && /COIL 1 OFF\r\n/.test(await heard(first)), 'the coils');

    // The box loses power and comes back knowing nothing; the switcher does not change.
    box.kill();
    await eventually(async () => (await connectionOf(hub, 'gpio'))?.status !== 'ok', 'the box gone', 15_000);
    const second = join(folder, 'gpio-2.txt');
    box = gpioBox(t, gpioPort, second);
    await eventually(async () => /COIL 2 ON\r\n/.test(await heard(second)), 'coil 2 on again after the power cycle', 20_000);

    // A rule added to the running studio shows the state now, not at the next cut.
    flow.rules.push({ from: 'mixer/input/2/tally/program', to: 'studio/cam2/onair' });
    await writeFile(file, JSON.stringify(flow));
    await eventually(async () => (await hub.read('studio/cam2/onair')) === 'true', 'the new rule wrote what is on air', 20_000);
    t.is(switcher.program(0), 2, 'with no cut made');
  },
);

/** What the displays were told, in order, as `display:left lamp` (2:1 is display 2 red): what a failed check shows. */
const lampsFrom = (heard: readonly DisplayMessage[]) => heard.map((m) => `${m.index}:${m.display.lh_tally}`).join(' ');
