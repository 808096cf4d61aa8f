/**
 * The `obs` package (packages/obs), installed in a studio folder and run by a hub in a
 * process of its own, on the client library `obs-websocket-js` through the SDK's
 * `DeviceLink` (the library does not reconnect: the link does), against OBS Studio itself —
 * Debian's `obs-studio` 29 with its obs-websocket 5.1, headless in a network namespace
 * (spec/helpers/obs-studio.ts) — (R-PK7, R-DV1). What OBS does is checked through OBS's own
 * WebSocket server by a second client, as a person at OBS's window would see it.
 */
import { readdir } from 'node:fs/promises';
import test from 'ava';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { eventually } from '../helpers/eventually.ts';
import type { HubProcess } from '../helpers/hub-process.ts';
import { canRunObs, startObs, whyNoObs } from '../helpers/obs-studio.ts';
import { connectionOf, hubWithPackage, update } from '../helpers/outside-package.ts';

const meta = async (hub: HubProcess, address: string) =>
  ((await (await fetch(`${hub.base}/parameters?meta=1&filter=^${address}$`)).json()) as { meta?: ParameterMeta }[])[0]?.meta;

const serialOrSkip = canRunObs ? test.serial : test.skip;

serialOrSkip(
  `OBS Studio through obs-websocket-js: scenes as choices, program, preview and studio mode, sources, transitions, recording and tally, each write answered with OBS's outcome and its own codes, and back after OBS crashed (R-PK7, R-DV1)${whyNoObs}`,
  async (t) => {
    const obs = await startObs(t);
    const { operator } = obs;
    // A studio as an operator sets it up in OBS: two cameras, a graphics scene.
    for (const [scene, source, color] of [
      ['Camera 1', 'Cam 1', 0xff0000ff],
      ['Camera 2', 'Cam 2', 0xff00ff00],
      ['Lower third: "News"', 'Strap', 0xffff0000],
    ] as const) {
      await operator.call('CreateScene', { sceneName: scene });
      await operator.call('CreateInput', { sceneName: scene, inputName: source, inputKind: 'color_source_v3', inputSettings: { color } });
    }
    await operator.call('SetCurrentProgramScene', { sceneName: 'Camera 1' });
    // A cut as OBS's transition when the hub starts: a transition of no duration.
    await operator.call('SetCurrentSceneTransition', { transitionName: 'Cut' });

    const hub = await hubWithPackage(t, 'obs', { studio: { type: 'obs', host: obs.host, timeout: 3000 } });
    await eventually(async () => (await connectionOf(hub, 'studio'))?.status === 'ok', 'OBS is up', 30_000);
    await eventually(async () => (await hub.read('studio/scene/program')) === 'Camera 1', 'the program scene is read', 10_000);
    t.regex(await hub.read('studio/device/version'), /^OBS 29\.\d+\.\d+, obs-websocket 5\.\d+\.\d+$/);
    // OBS's scenes are the choices, by name, in the order of OBS's scene list (top first); a name a parameter id cannot hold is its label.
    t.deepEqual(
      (await meta(hub, 'studio/scene/program'))?.choices?.map((c) => c.value),
      ['Scene', 'Camera 1', 'Camera 2', 'Lower third: "News"'],
    );
    let listed = '';
    await eventually(
      async () => {
        listed = await (await fetch(`${hub.base}/parameters?filter=^studio/scene/`)).text();
        return (await hub.read('studio/scene/Lower_third___News_/source/Strap/visible')) === 'true';
      },
      () => `the sources are read: ${listed}`,
      10_000,
    );
    t.like(await meta(hub, 'studio/scene/Lower_third___News_/source/Strap/visible'), { label: 'Lower third: "News": Strap visible' });
    t.is(await hub.read('studio/studioMode'), 'false');
    t.is(await hub.read('studio/scene/preview'), '');
    // Tally is read last, source by source.
    await eventually(
      async () =>
        (await hub.read('studio/input/Cam_2/tally/program')) === 'false' && (await hub.read('studio/input/Cam_1/tally/program')) === 'true',
      'the tally is read: camera 1 on air',
      10_000,
    );

    // Someone switches scenes in OBS: the hub follows, tally with it.
    await operator.call('SetCurrentProgramScene', { sceneName: 'Camera 2' });
    await eventually(async () => (await hub.read('studio/scene/program')) === 'Camera 2', 'the hub follows OBS');
    await eventually(async () => (await hub.read('studio/input/Cam_2/tally/program')) === 'true', 'camera 2 is on air');
    await eventually(async () => (await hub.read('studio/input/Cam_1/tally/program')) === 'false', 'camera 1 is off air');

    // Writes are OBS's requests, answered with its outcome.
    t.deepEqual(await update(hub, 'studio/scene/program', 'Camera 1'), { status: 200 });
    // OBS answers a request and takes it on its window's turn: what it shows is awaited.
    await eventually(async () => (await operator.call('GetCurrentProgramScene')).currentProgramSceneName === 'Camera 1', 'OBS on camera 1');
    t.like(await update(hub, 'studio/scene/program', 'Camera 9'), { status: 400, code: 'PB_CONVERSION' });
    t.like(await update(hub, 'studio/scene/preview', 'Camera 2'), {
      status: 409,
      code: 'OBS_STUDIO_MODE',
      message: 'OBS refused SetCurrentPreviewScene: studio mode is off (506)',
    });
    t.like(await update(hub, 'studio/transition/run', 'true'), { status: 409, code: 'OBS_STUDIO_MODE' });

    // Studio mode: preview, and a transition to program; tally on preview.
    t.deepEqual(await update(hub, 'studio/studioMode', 'true'), { status: 200 });
    await eventually(async () => (await operator.call('GetStudioModeEnabled')).studioModeEnabled, 'OBS in studio mode');
    t.deepEqual(await update(hub, 'studio/scene/preview', 'Camera 2'), { status: 200 });
    await eventually(async () => (await hub.read('studio/scene/preview')) === 'Camera 2', 'the preview scene');
    await eventually(async () => (await hub.read('studio/input/Cam_2/tally/preview')) === 'true', 'camera 2 on preview');
    t.is(await hub.read('studio/input/Cam_1/tally/preview'), 'false');
    t.deepEqual(await update(hub, 'studio/transition/current', 'Cut'), { status: 200 });
    await eventually(async () => (await operator.call('GetCurrentSceneTransition')).transitionName === 'Cut', 'a cut in OBS');
    t.like(await update(hub, 'studio/transition/current', 'Stinger'), { status: 400, code: 'PB_CONVERSION' });
    t.deepEqual(await update(hub, 'studio/transition/run', 'true'), { status: 200 });
    await eventually(async () => (await hub.read('studio/scene/program')) === 'Camera 2', 'preview went to program');
    await eventually(async () => (await hub.read('studio/input/Cam_2/tally/program')) === 'true', 'camera 2 on air');
    // OBS takes a transition on its window's turn: the change is awaited as OBS reports it.
    t.deepEqual(await update(hub, 'studio/transition/current', 'Fade'), { status: 200 });
    await eventually(async () => (await hub.read('studio/transition/current')) === 'Fade', 'OBS says Fade is current');
    // Its duration is read with it (before, it stayed unknown until written).
    const fade = (await operator.call('GetCurrentSceneTransition')).transitionDuration;
    await eventually(async () => (await hub.read('studio/transition/duration')) === String(fade), "the fade's duration");
    t.deepEqual(await update(hub, 'studio/transition/duration', '700'), { status: 200 });
    await eventually(async () => (await operator.call('GetCurrentSceneTransition')).transitionDuration === 700, 'a fade of 700 ms');
    await eventually(async () => (await hub.read('studio/transition/duration')) === '700', 'the hub hears it');
    t.like(await update(hub, 'studio/transition/duration', '10'), { status: 400, code: 'PB_CONVERSION' });

    // A source hidden and shown, both ways.
    t.deepEqual(await update(hub, 'studio/scene/Lower_third___News_/source/Strap/visible', 'false'), { status: 200 });
    const strap = (await operator.call('GetSceneItemId', { sceneName: 'Lower third: "News"', sourceName: 'Strap' })).sceneItemId;
    await eventually(
      async () => !(await operator.call('GetSceneItemEnabled', { sceneName: 'Lower third: "News"', sceneItemId: strap })).sceneItemEnabled,
      'the strap hidden in OBS',
    );
    await operator.call('SetSceneItemEnabled', { sceneName: 'Lower third: "News"', sceneItemId: strap, sceneItemEnabled: true });
    await eventually(
      async () => (await hub.read('studio/scene/Lower_third___News_/source/Strap/visible')) === 'true',
      'shown again in OBS',
    );

    // Recording: started and stopped, a file on disk; a stop of what is not running is no refusal.
    t.deepEqual(await update(hub, 'studio/recording/active', 'true'), { status: 200 });
    await eventually(async () => (await hub.read('studio/recording/active')) === 'true', 'OBS records');
    t.deepEqual(await update(hub, 'studio/recording/active', 'true'), { status: 200 });
    // OBS's muxer, a process of its own, opens the file a moment after the start.
    const recorded = async () => (await readdir(obs.recordings)).filter((file) => file.endsWith('.mkv'));
    await eventually(async () => (await recorded()).length === 1, 'OBS writes the recording');
    t.deepEqual(await update(hub, 'studio/recording/active', 'false'), { status: 200 });
    await eventually(async () => (await hub.read('studio/recording/active')) === 'false', 'OBS stopped recording');
    t.is((await recorded()).length, 1);
    // A pause of no recording (which OBS 29 would answer with success, and ignore) is refused.
    t.like(await update(hub, 'studio/recording/paused', 'true'), {
      status: 409,
      code: 'OBS_OUTPUT',
      message: 'OBS does not record: nothing to pause',
    });

    // OBS crashes: the connection says so and writes are refused at once; OBS is started
    // again and the link comes back by itself, its state read anew.
    await obs.crash();
    await eventually(async () => (await connectionOf(hub, 'studio'))?.status === 'degraded', 'OBS is away', 20_000);
    t.like(await update(hub, 'studio/scene/program', 'Camera 1'), { status: 503, code: 'PB_DEVICE_UNAVAILABLE' });
    await obs.launch();
    await eventually(async () => (await connectionOf(hub, 'studio'))?.status === 'ok', 'the link came back', 30_000);
    const after = (await operator.call('GetSceneList')).scenes.map((scene) => String(scene['sceneName']));
    const onAir = await hub.read('studio/scene/program');
    const target = after.find((name) => name !== onAir) ?? after[0];
    t.deepEqual(await update(hub, 'studio/scene/program', String(target)), { status: 200 });
    await eventually(async () => (await operator.call('GetCurrentProgramScene')).currentProgramSceneName === target, 'OBS took it');
  },
);
