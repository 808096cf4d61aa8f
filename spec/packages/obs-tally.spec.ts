/**
 * Tally without code (R-DV2), from OBS: the `obs` package's example flow
 * (packages/obs/tally.json5), copied into a studio folder as its README says, run by a hub
 * process with a state folder, against OBS Studio itself (spec/helpers/obs-studio.ts). The
 * displays are the `tsl-umd-v5` library; the Stream Deck is Companion Satellite's protocol,
 * scripted. A kill -9 of the hub loses no tally: the camera on air keeps its red lamp, and a
 * take made in OBS meanwhile is shown once the hub is back.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import JSON5 from 'json5';
import { ScriptedSatellite } from '../connections/satellite/scripted-satellite.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { canRunObs, type ObsStudio, startObs, whyNoObs } from '../helpers/obs-studio.ts';
import { connectionOf, studioWith } from '../helpers/outside-package.ts';
import { freePort } from '../helpers/ports.ts';
import { shown, tslDisplays } from '../helpers/tsl-display.ts';

type Flow = { connections: Record<string, Record<string, unknown>> };

/** The example as a studio has it, pointed at the spec's OBS, displays and a free satellite port. */
async function studio(obs: ObsStudio, umdPort: number, deskPort: number): Promise<string> {
  const folder = await studioWith('obs');
  const flow = JSON5.parse(await readFile(join(folder, 'node_modules/patchbay-obs/tally.json5'), 'utf8')) as Flow;
  Object.assign(flow.connections['api'] as object, { port: 0 });
  Object.assign(flow.connections['obs'] as object, { host: obs.host, port: obs.port, password: '' });
  Object.assign(flow.connections['umds'] as object, { host: '127.0.0.1', port: umdPort });
  Object.assign(flow.connections['desk'] as object, { port: deskPort, bindIp: '127.0.0.1' });
  await writeFile(join(folder, 'tally.json5'), JSON.stringify(flow));
  return folder;
}

const run = (t: ExecutionContext, folder: string) => runHub(t, 'tally.json5', { cwd: folder, args: ['--state', join(folder, 'state')] });

const up = (hub: HubProcess) => eventually(async () => (await connectionOf(hub, 'obs'))?.status === 'ok', 'OBS is up', 30_000);

(canRunObs ? test.serial : test.skip)(
  `the example's tally from OBS reaches the displays and the keys through rules alone, its keys take and record, and no tally is lost across kill -9 of the hub (R-DV2)${whyNoObs}`,
  async (t) => {
    const obs = await startObs(t);
    const { operator } = obs;
    for (const n of [1, 2, 3]) {
      await operator.call('CreateScene', { sceneName: `Camera ${n}` });
      await operator.call('CreateInput', {
        sceneName: `Camera ${n}`,
        inputName: `Cam ${n}`,
        inputKind: 'color_source_v3',
        inputSettings: { color: 0xff000000 + n * 0x40 },
      });
    }
    await operator.call('SetStudioModeEnabled', { studioModeEnabled: true });
    await operator.call('SetCurrentProgramScene', { sceneName: 'Camera 1' });
    await operator.call('SetCurrentPreviewScene', { sceneName: 'Camera 2' });
    await operator.call('SetCurrentSceneTransition', { transitionName: 'Cut' });

    const umdPort = await freePort();
    const deskPort = await freePort();
    const displays = tslDisplays(t, umdPort);
    const folder = await studio(obs, umdPort, deskPort);
    let hub = await run(t, folder);
    await up(hub);

    // Program red on the left, preview green on the right, from the first read of OBS.
    await eventually(
      () => shown(displays, 1)?.lh_tally === 1 && shown(displays, 2)?.rh_tally === 2,
      () => `display 1 red, display 2 green: ${JSON.stringify(displays.slice(-8))} ${hub.log().slice(-3000)}`,
    );
    t.is(shown(displays, 3)?.lh_tally ?? 0, 0);

    // The keys: tally on the top rows; TAKE takes preview to program; REC records.
    const connectDesk = async () => {
      const connected = await ScriptedSatellite.connect(t, deskPort);
      connected.addDevice('CL15K1A00001', 15, 5, 0);
      return connected;
    };
    let desk = await connectDesk();
    const key = (n: number) => desk.lines.filter((line) => line.startsWith('KEY-STATE ') && line.includes(` KEY=${n} `)).at(-1) ?? '';
    await eventually(() => key(0).includes('COLOR="#e00000"'), 'camera 1 key red');
    await eventually(() => key(6).includes('COLOR="#00b000"'), 'camera 2 preview key green');
    desk.send('KEY-PRESS', 'CL15K1A00001', { KEY: 10, PRESSED: true });
    await eventually(async () => (await operator.call('GetCurrentProgramScene')).currentProgramSceneName === 'Camera 2', 'TAKE took');
    await eventually(() => shown(displays, 2)?.lh_tally === 1 && shown(displays, 1)?.lh_tally === 0, 'the tally follows the take');
    await eventually(() => key(1).includes('COLOR="#e00000"'), 'camera 2 key red');
    desk.send('KEY-PRESS', 'CL15K1A00001', { KEY: 14, PRESSED: true });
    await eventually(async () => (await operator.call('GetRecordStatus')).outputActive, 'REC started the recording');
    await eventually(() => key(14).includes('COLOR="#e00000"'), 'the REC key red while OBS records');

    // kill -9 of the hub while camera 2 is on air: its lamp stays red until camera 3's lights,
    // a take made in OBS meanwhile is shown once OBS is read again.
    hub.child.kill('SIGKILL');
    await hub.exited;
    const afterKill = displays.length;
    // OBS takes each request on its window's turn: the take waits until preview is camera 3.
    await operator.call('SetCurrentPreviewScene', { sceneName: 'Camera 3' });
    await eventually(
      async () => (await operator.call('GetCurrentPreviewScene')).currentPreviewSceneName === 'Camera 3',
      'camera 3 on preview',
    );
    await operator.call('TriggerStudioModeTransition');
    await eventually(async () => (await operator.call('GetCurrentProgramScene')).currentProgramSceneName === 'Camera 3', 'camera 3 taken');
    hub = await run(t, folder);
    await up(hub);
    await eventually(
      () => shown(displays, 3)?.lh_tally === 1 && shown(displays, 2)?.lh_tally === 0,
      () => `the take in OBS shown after the restart: ${JSON.stringify(displays.slice(afterKill))}`,
    );
    const darkBeforeRead = displays.slice(afterKill).findIndex((m) => m.index === 2 && m.display.lh_tally === 0);
    const redAgain = displays.slice(afterKill).findIndex((m) => m.index === 3 && m.display.lh_tally === 1);
    t.true(darkBeforeRead === -1 || darkBeforeRead >= redAgain - 1, 'camera 2 stayed red until camera 3 was on air (the two in one turn)');
    // The desk connects again: the REC key shows the recording that went on meanwhile, and stops it.
    desk = await connectDesk();
    await eventually(() => key(14).includes('COLOR="#e00000"'), 'the REC key red after the restart');
    desk.send('KEY-PRESS', 'CL15K1A00001', { KEY: 14, PRESSED: true });
    await eventually(async () => !(await operator.call('GetRecordStatus')).outputActive, 'REC stopped the recording');
  },
);
