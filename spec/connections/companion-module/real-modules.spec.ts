import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTo } from 'node:net';
import test from 'ava';
import { deskInfo, deskValue, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { canRunLiblo, oscsend, startDump } from '../../helpers/liblo.ts';
import { canRunObs, startObs, whyNoObs } from '../../helpers/obs-studio.ts';
import { freePort, freeUdpPorts } from '../../helpers/ports.ts';
import { ScriptedVideohub } from '../../helpers/videohub-device.ts';

/**
 * Companion's own module builds, run unmodified under a real hub against peers nobody here
 * wrote (R-CM8). The builds are Companion's and are not part of this repository: point
 * PATCHBAY_COMPANION_MODULES at a folder holding them unpacked, one folder a module
 * (`generic-osc/`, …), as Companion's bundled modules or its module store give them. The
 * guide's "tried with" table says what held, and with which versions.
 */
const modules = process.env['PATCHBAY_COMPANION_MODULES'] ?? '';
const has = (module: string) => modules !== '' && existsSync(join(modules, module, 'companion', 'manifest.json'));
const why = (module: string) => (has(module) ? '' : ` (skipped: no ${module} build in PATCHBAY_COMPANION_MODULES)`);

const run = runDesk;
const info = deskInfo;
const value = deskValue;

const update = (base: string, id: string, written: string) =>
  fetch(`${base}/update?parameter=desk/${id}&value=${encodeURIComponent(written)}`).then((answer) => answer.status);

(has('generic-osc') && canRunLiblo ? test.serial : test.serial.skip)(
  `generic-osc: a bound action sends OSC that oscdump prints; oscsend flips a bound feedback and its variables${why('generic-osc')}`,
  async (t) => {
    const [target, feedback] = (await freeUdpPorts(2)) as [number, number];
    const dump = await startDump(t, String(target));
    const { hub, base } = await run(t, {
      type: 'companion-module',
      module: join(modules, 'generic-osc'),
      config: { host: '127.0.0.1', targetPort: String(target), protocol: 'udp', listen: true, feedbackPort: String(feedback) },
      actions: {
        fader: { action: 'send_float', options: { path: '/ch/01/mix/fader', float: '$(value)' } },
        recall: { action: 'send_blank', options: { path: '/scene/recall' } },
      },
      feedbacks: { muted: { feedback: 'osc_feedback_int', options: { path: '/ch/01/mix/on', arguments: '0', comparison: 'equal' } } },
    });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `generic-osc to be ok (${JSON.stringify(info(hub))})`,
    );
    t.is(await update(base, 'fader', '0.75'), 200);
    await dump.until((line) => line.startsWith('/ch/01/mix/fader'), 'the fader');
    t.true(dump.lines.includes('/ch/01/mix/fader f 0.750000'), JSON.stringify(dump.lines));
    t.is(await update(base, 'recall', 'true'), 200);
    await dump.until((line) => line.startsWith('/scene/recall'), 'the recall');
    t.is(hub.graph.get('desk/recall')?.type, 'T');
    await eventually(() => value(hub, 'var/latest_sent_path') === '/scene/recall', 'the sent-path variable');

    await oscsend(feedback, '/ch/01/mix/on', 'i', '0');
    await eventually(() => value(hub, 'muted') === true, 'the feedback');
    await eventually(() => value(hub, 'var/latest_received_path') === '/ch/01/mix/on', 'the received-path variable');
    await oscsend(feedback, '/ch/01/mix/on', 'i', '1');
    await eventually(() => value(hub, 'muted') === false, 'the feedback back');
  },
);

(has('generic-osc') && canRunLiblo ? test.serial : test.serial.skip)(
  `generic-osc: a written $(…) is data: a scoped token cannot read another parameter through the module's path, its arguments or a rule${why('generic-osc')}`,
  async (t) => {
    const [target, feedback] = (await freeUdpPorts(2)) as [number, number];
    const dump = await startDump(t, String(target));
    const panel = { name: 'panel', token: 'panel-token', read: ['desk/#', 'pub/#'], write: ['desk/#', 'pub/#'] };
    const { hub, base } = await run(
      t,
      {
        type: 'companion-module',
        module: join(modules, 'generic-osc'),
        config: { host: '127.0.0.1', targetPort: String(target), protocol: 'udp', listen: true, feedbackPort: String(feedback) },
        // Each callback asks the hub to parse the path and value it is sent (parseVariablesInString); without
        // `listen` this build opens no client and sends nothing.
        actions: {
          page: { action: 'send_blank', options: { path: '/page/$(value)' }, type: 'S' },
          text: { action: 'send_string', options: { path: '/title', string: '$(value)' } },
        },
      },
      undefined,
      {
        api: { tokens: [panel] },
        more: {
          studio: { type: 'dummy', parameters: ['secret,S,hunter2'] },
          pub: { type: 'dummy', parameters: ['title,S,morning'] },
        },
        rules: [{ source: 'pub/title', destinations: ['desk/text'] }],
      },
    );
    const write = async (address: string, written: string) =>
      (
        await fetch(`${base}/update?parameter=${address}&value=${encodeURIComponent(written)}`, {
          headers: { authorization: `Bearer ${panel.token}` },
        })
      ).status;
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `generic-osc to be ok (${JSON.stringify(info(hub))})`,
    );

    t.is(await write('desk/page', '$(studio/secret)'), 200);
    await dump.until((line) => line.startsWith('/page/'), 'the page');
    t.true(dump.lines.includes('/page/$(studio/secret) '), `the path as written: ${JSON.stringify(dump.lines)}`);
    await eventually(() => String(value(hub, 'var/latest_sent_path')).startsWith('/page/'), 'the sent-path variable');
    t.is(value(hub, 'var/latest_sent_path'), '/page/$(studio/secret)');

    t.is(await write('desk/text', '$(studio/secret)'), 200);
    await dump.until((line) => line.startsWith('/title s') && !line.includes('morning'), 'the argument');
    t.true(dump.lines.includes('/title s "$(studio/secret)"'), `the argument as written: ${JSON.stringify(dump.lines)}`);

    // The rule carries pub/title to desk/text: the module parses it as it parsed the write.
    t.is(await write('pub/title', 'Tonight: $(studio/secret)'), 200);
    await dump.until((line) => line.startsWith('/title s "Tonight:'), 'the title the rule carried');
    t.true(dump.lines.includes('/title s "Tonight: $(studio/secret)"'), `the title as written: ${JSON.stringify(dump.lines)}`);
    await eventually(() => String(value(hub, 'var/latest_sent_raw')).startsWith('/title Tonight:'), 'the sent-raw variable');
    t.is(value(hub, 'var/latest_sent_raw'), '/title Tonight: $(studio/secret)');

    t.false(
      dump.lines.some((line) => line.includes('hunter2')),
      `studio/secret never reaches the device: ${JSON.stringify(dump.lines)}`,
    );
    const variables = hub.graph.all().filter((parameter) => parameter.address.startsWith('desk/var/'));
    t.true(variables.length > 0);
    t.false(
      variables.some((parameter) => JSON.stringify(parameter.value).includes('hunter2')),
      `nor the module's variables: ${JSON.stringify(variables.map((parameter) => [parameter.address, parameter.value]))}`,
    );
  },
);

(has('bmd-videohub') ? test.serial : test.serial.skip)(
  `bmd-videohub: a bound route reaches a scripted Videohub, and its echo flips the routing feedback and variables${why('bmd-videohub')}`,
  async (t) => {
    // The module dials 9990, the router's port: the spec's router listens there.
    const router = new ScriptedVideohub(12, 12);
    await router.start(9990);
    t.teardown(() => router.stop());
    const { hub, base } = await run(t, {
      type: 'companion-module',
      module: join(modules, 'bmd-videohub'),
      config: { host: '127.0.0.1', inputCount: 12, outputCount: 12 },
      actions: { 'monitor3/source': { action: 'route', options: { source: '$(value)', destination: 2 } } },
      feedbacks: { 'monitor3/camera4': { feedback: 'input_bg', options: { input: 3, output: 2 } } },
    });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `bmd-videohub to be ok (${JSON.stringify(info(hub))})`,
    );
    t.is(hub.graph.get('desk/monitor3/source')?.type, 'I', "a dropdown of numbered inputs is written as the input's number");
    await eventually(() => value(hub, 'var/input_4') === 'Camera 4', "the router's input labels as variables");
    // The route says what it is (R-PK6): the module's action name, and its dropdown of inputs as choices, by the router's labels.
    await eventually(
      () =>
        hub.graph
          .get('desk/monitor3/source')
          ?.meta?.choices?.find((choice) => choice.value === 3)
          ?.label.includes('Camera 4') === true,
      () =>
        `the router's input names as the route's choices (${JSON.stringify(hub.graph.get('desk/monitor3/source')?.meta)?.slice(0, 300)})`,
    );
    await eventually(() => value(hub, 'monitor3/camera4') === false, 'the feedback, before the route');
    t.is(await update(base, 'monitor3/source', '3'), 200);
    await eventually(() => router.routes[2] === 3, 'the route at the router');
    t.true(router.heard.some((block) => block.title === 'VIDEO OUTPUT ROUTING' && block.lines.includes('2 3')));
    await eventually(() => value(hub, 'monitor3/camera4') === true, 'the feedback from the echo');
  },
);

(has('generic-tcp-udp') ? test.serial : test.serial.skip)(
  `generic-tcp-udp: a bound send reaches socat over TCP, and what socat answers is the response variable${why('generic-tcp-udp')}`,
  async (t) => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-socat-'));
    const heard = join(dir, 'heard.txt');
    // A line device: it keeps what it is sent, and answers it back.
    const device = spawn('socat', [`TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork`, `SYSTEM:tee -a ${heard}`], { stdio: 'ignore' });
    t.teardown(() => void device.kill('SIGKILL'));
    await eventually(
      () =>
        new Promise<boolean>((resolve) => {
          const probe = connectTo(port);
          probe.once('connect', () => resolve(probe.destroy() !== undefined)).once('error', () => resolve(false));
        }),
      'socat to listen',
    );
    const { hub, base } = await run(t, {
      type: 'companion-module',
      module: join(modules, 'generic-tcp-udp'),
      config: { host: '127.0.0.1', port: String(port), prot: 'tcp', saveresponse: true, convertresponse: 'string' },
      actions: { say: { action: 'send', options: { id_send: 'PLAY $(value)', id_end: '\r\n' } } },
    });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `generic-tcp-udp to be ok (${JSON.stringify(info(hub))})`,
    );
    t.is(hub.graph.get('desk/say')?.type, 'S');
    t.is(await update(base, 'say', 'clip 7'), 200);
    await eventually(async () => (await readFile(heard, 'utf8').catch(() => '')).includes('PLAY clip 7\r\n'), 'socat to hear the line');
    await eventually(() => String(value(hub, 'var/tcp_response') ?? '').includes('PLAY clip 7'), 'the answer as the response variable');
  },
);

(has('bmd-hyperdeck') ? test.serial : test.serial.skip)(
  `bmd-hyperdeck: a bound play reaches hyperdeck-server-connection, and the transport it reports is a variable${why('bmd-hyperdeck')}`,
  async (t) => {
    // The module dials 9993, the recorder's port: the library's server listens there.
    const { HyperdeckServer } = await import('hyperdeck-server-connection');
    const deck = new HyperdeckServer('127.0.0.1', 9993);
    t.teardown(() => deck.close());
    const transport = {
      status: 'stopped',
      speed: '0',
      'slot id': '1',
      'clip id': '1',
      'single clip': 'false',
      'display timecode': '00:00:00:00',
      timecode: '00:00:00:00',
      'video format': '1080i50',
      loop: 'false',
    };
    const played: unknown[] = [];
    deck.onDeviceInfo = async () => ({ 'protocol version': '1.11', model: 'HyperDeck Studio Mini', 'slot count': '2' });
    deck.onTransportInfo = async () => transport as never;
    deck.onSlotInfo = async () =>
      ({ 'slot id': '1', status: 'mounted', 'volume name': 'Media', 'recording time': '3600', 'video format': '1080i50' }) as never;
    deck.onClipsCount = async () => ({ 'clip count': '1' });
    deck.onClipsGet = async () => ({ 'clip count': '1', '1': 'Opener.mov 00:00:00:00 00:00:10:00' });
    deck.onDiskList = async () => ({ 'slot id': '1' });
    deck.onRemote = async () => ({ enabled: true, override: false }) as never;
    deck.onConfiguration = async () => ({ 'audio input': 'embedded', 'video input': 'SDI', 'file format': 'QuickTimeProResHQ' }) as never;
    deck.onPlay = async (command) => {
      played.push(command.parameters);
      Object.assign(transport, { status: 'play', speed: '100' });
      deck.notifyTransport({ status: 'play', speed: '100' });
    };
    const { hub, base } = await run(t, {
      type: 'companion-module',
      module: join(modules, 'bmd-hyperdeck'),
      config: { host: '127.0.0.1' },
      actions: { play: { action: 'play' } },
    });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `bmd-hyperdeck to be ok (${JSON.stringify(info(hub))})`,
    );
    t.is(await update(base, 'play', 'true'), 200);
    await eventually(() => played.length === 1, 'the play at the recorder');
    await eventually(
      () => value(hub, 'var/status') === 'Play',
      () => `the transport as a variable (${value(hub, 'var/status')})`,
    );
  },
);

/**
 * pyAtemSim (jonknoll/pyAtemSim, a Python ATEM simulator nobody on the team wrote) is not on
 * a registry either: point PATCHBAY_PYATEMSIM at a folder holding its `atem_server.py`.
 */
const pyAtemSim = process.env['PATCHBAY_PYATEMSIM'] ?? '';
const hasPyAtemSim = pyAtemSim !== '' && existsSync(join(pyAtemSim, 'atem_server.py'));

(has('bmd-atem') && hasPyAtemSim ? test.serial : test.serial.skip)(
  `bmd-atem: a bound preview and cut reach pyAtemSim, and its program comes back as a variable and a tally feedback${
    why('bmd-atem') || (hasPyAtemSim ? '' : ' (skipped: no atem_server.py in PATCHBAY_PYATEMSIM)')
  }`,
  async (t) => {
    // The simulator listens on 9910, the switcher's port, as the module dials it.
    const switcher = spawn('python3', ['atem_server.py', '-a', '127.0.0.1'], { cwd: pyAtemSim, stdio: 'ignore' });
    t.teardown(() => void switcher.kill('SIGKILL'));
    const { hub, base } = await run(t, {
      type: 'companion-module',
      module: join(modules, 'bmd-atem'),
      config: { host: '127.0.0.1' },
      actions: {
        preview: { action: 'preview', options: { mixeffect: 0, input: '$(value)' } },
        program: { action: 'program', options: { mixeffect: 0, input: '$(value)' } },
        cut: { action: 'cut', options: { mixeffect: 0 } },
      },
      feedbacks: { 'input2/onAir': { feedback: 'program_tally', options: { input: 2 } } },
    });
    await eventually(
      () => info(hub)?.status === 'ok' && typeof value(hub, 'var/pgm1_input_id') === 'number',
      () => `bmd-atem to be ok and to know the program (${JSON.stringify(info(hub))?.slice(0, 300)})`,
    );
    // The switcher's inputs by the names it gives them, as the bound input's choices (R-PK6).
    t.is(hub.graph.get('desk/program')?.meta?.choices?.find((choice) => choice.value === 5)?.label, 'CAMERA 1');
    t.is(await update(base, 'program', '3'), 200);
    await eventually(() => value(hub, 'var/pgm1_input_id') === 3 && value(hub, 'input2/onAir') === false, 'input 3 on program');
    t.is(await update(base, 'preview', '2'), 200);
    await eventually(() => value(hub, 'var/pvw1_input_id') === 2, 'input 2 on preview');
    t.is(await update(base, 'cut', 'true'), 200);
    await eventually(() => value(hub, 'var/pgm1_input_id') === 2, 'the cut: input 2 on program');
    await eventually(() => value(hub, 'input2/onAir') === true, 'the tally feedback');
  },
);

(has('obs-studio') && canRunObs ? test.serial : test.serial.skip)(
  `obs-studio: a bound scene change reaches OBS itself, and a change by another client comes back as a variable and a feedback${
    why('obs-studio') || (canRunObs ? '' : whyNoObs)
  }`,
  async (t) => {
    const obs = await startObs(t);
    await obs.operator.call('CreateScene', { sceneName: 'Camera 2' });
    await obs.operator.call('SetCurrentProgramScene', { sceneName: 'Scene' });
    const { hub, base } = await run(t, {
      type: 'companion-module',
      module: join(modules, 'obs-studio'),
      config: { host: obs.host, port: String(obs.port), pass: '' },
      actions: { scene: { action: 'set_scene', options: { scene: '$(value)' } } },
      feedbacks: { 'camera2/onAir': { feedback: 'sceneProgram', options: { scene: 'Camera 2' } } },
    });
    await eventually(
      () => info(hub)?.status === 'ok' && value(hub, 'var/scene_active') === 'Scene',
      () => `obs-studio to be ok and to know the scene (${JSON.stringify(info(hub))})`,
    );
    // The module lists OBS's scenes in its actions once it has read them: the bound scene's choices follow.
    await eventually(
      () => hub.graph.get('desk/scene')?.meta?.choices?.some((choice) => choice.value === 'Camera 2') === true,
      () => `OBS's scenes as the bound scene's choices (${JSON.stringify(hub.graph.get('desk/scene')?.meta)})`,
    );
    t.is(await update(base, 'scene', 'Camera 2'), 200);
    await eventually(
      async () =>
        ((await obs.operator.call('GetCurrentProgramScene')) as { currentProgramSceneName: string }).currentProgramSceneName === 'Camera 2',
      'OBS on Camera 2',
    );
    await eventually(
      () => value(hub, 'var/scene_active') === 'Camera 2' && value(hub, 'camera2/onAir') === true,
      () => `the variable and feedback (${JSON.stringify([value(hub, 'var/scene_active'), value(hub, 'camera2/onAir')])})`,
    );
    await obs.operator.call('SetCurrentProgramScene', { sceneName: 'Scene' });
    await eventually(
      () => value(hub, 'var/scene_active') === 'Scene' && value(hub, 'camera2/onAir') === false,
      'the change by another client',
    );
  },
);
