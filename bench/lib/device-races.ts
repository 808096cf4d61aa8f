/**
 * The races of `bench:devices`: each device on a simulator nobody here would tune for the
 * hub, the contenders that race to tell of its changes and to command it, and how the bench
 * sees a command arrive at the device.
 *
 * - ATEM: spec/helpers/atem-switcher.ts (its encoding checked against atem-connection's
 *   decoders); M/E 1's program, cut on the panel and commanded;
 * - HyperDeck: `hyperdeck-server-connection` as the deck; its clip, changed by the deck and
 *   commanded with a go-to;
 * - OBS: OBS Studio itself (spec/helpers/obs-studio.ts), its program scene switched by
 *   another WebSocket client and commanded;
 * - Videohub: spec/helpers/videohub-device.ts, a router that tells every client of a route,
 *   on the router's own port 9990 (Companion's module dials no other); output 1's route,
 *   taken on the router's panel and commanded.
 *
 * The contenders: the library alone behind a bare WebSocket server (bench/servers/device-floor.ts),
 * a hub with the package, the same in the hub's own process, and Companion's own build of
 * its module as a `companion-module` connection when the folder of its builds is given.
 */
import { createRequire } from 'node:module';
import { existsSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AtemSwitcher } from '../../spec/helpers/atem-switcher.ts';
import { canRunObs, startObs, whyNoObs } from '../../spec/helpers/obs-studio.ts';
import { studioWith } from '../../spec/helpers/outside-package.ts';
import { freePort } from '../../spec/helpers/ports.ts';
import { ScriptedVideohub } from '../../spec/helpers/videohub-device.ts';
import { type Server, startServer } from './processes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Started {
  readonly server: Server;
  /** The WebSocket path that follows the device's value. */
  readonly path: string;
  /** The parameter that says it; the one a write goes to. */
  readonly follows: string;
  readonly writes: string;
}

export interface Contender {
  readonly name: string;
  start(): Promise<Started>;
  /** What it says for a value of the race (Companion's Videohub module counts inputs from 1). */
  readonly says?: (value: string) => string;
  /** What its write of a value of the race sends (the HyperDeck package's go-to takes `{"clip": n}`). */
  readonly sends?: (value: string) => string;
}

export interface Race {
  /** What the device does on its own, and what is commanded of it: the tables' titles. */
  readonly changes: string;
  readonly writes: string;
  /** Makes the next change on the device; the value the contenders should then say. */
  change(): string;
  /** The next value to command: a change from what the device holds. */
  nextCommand(): string;
  /** Resolves when the device has heard the command for `value`. */
  heard(value: string): Promise<void>;
  readonly contenders: Contender[];
  /** The device gone without a word (powered off, its cable pulled), and back: for the reconnect rows, where the simulator can. */
  readonly outage?: { away(): Promise<void>; back(): Promise<void> };
  close(): Promise<void>;
}

/** Commands the device heard, matched to the one a round waits for. */
class Hearing {
  private waiting: { readonly value: string; readonly resolve: () => void } | undefined;
  expect(value: string): Promise<void> {
    return new Promise((resolve) => (this.waiting = { value, resolve }));
  }
  tell(value: string): void {
    if (this.waiting?.value !== value) return;
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve();
  }
}

/** A hub process in a studio folder with `packages/<folder>` installed; the folder goes with it. */
async function hubWith(folder: string, connections: Record<string, unknown>): Promise<Server> {
  const studio = await studioWith(folder);
  writeFileSync(
    join(studio, 'flow.json5'),
    JSON.stringify({
      plugins: [`patchbay-${folder}`],
      connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, ...connections },
    }),
  );
  const server = await startServer('hub', process.execPath, [
    join(root, 'bin/patchbay.js'),
    'run',
    join(studio, 'flow.json5'),
    '--state',
    'none',
  ]);
  return {
    ...server,
    stop: async () => {
      await server.stop();
      await rm(studio, { recursive: true, force: true });
    },
  };
}

interface Watched {
  /** The package's parameter that says the value, and the one its write goes to (the same when absent). */
  readonly package: string;
  readonly packageWrites?: string;
  /** The module's variable that says it, its action bound as `device/<action>`, and Companion's name of it. */
  readonly variable: string;
  readonly action: Record<string, unknown>;
  readonly moduleName: string;
  readonly config: Record<string, unknown>;
  readonly library: string;
  readonly host?: string;
  readonly moduleSays?: (value: string) => string;
  readonly packageSends?: (value: string) => string;
}

/** The contenders of a device: its library alone, its package (in its process and in the hub's), and Companion's module when at hand. */
function contendersOf(device: string, port: number, watched: Watched, companion: string | undefined): Contender[] {
  const host = watched.host ?? '127.0.0.1';
  const filter = (address: string) => `/ws?filter=${encodeURIComponent(`^${address}$`)}`;
  const packaged = (isolate: Record<string, unknown>) => async () => ({
    server: await hubWith(device, { device: { type: device, host, port, statusParameters: true, ...isolate } }),
    path: filter(`device/${watched.package}`),
    follows: `device/${watched.package}`,
    writes: `device/${watched.packageWrites ?? watched.package}`,
  });
  const contenders: Contender[] = [
    {
      name: `${watched.library} alone`,
      start: async () => ({
        server: await startServer('floor', process.execPath, [
          '--import',
          'tsx',
          join(root, 'bench/servers/device-floor.ts'),
          device,
          String(port),
          host,
        ]),
        path: '/',
        follows: 'value',
        writes: 'value',
      }),
    },
    { name: `patchbay-${device}`, start: packaged({}), ...(watched.packageSends && { sends: watched.packageSends }) },
    // The same package in the hub's own process: what the isolation wire costs, beside it.
    {
      name: `patchbay-${device}, isolate "none"`,
      start: packaged({ isolate: 'none' }),
      ...(watched.packageSends && { sends: watched.packageSends }),
    },
  ];
  const bundled = companion && join(companion, watched.moduleName);
  if (bundled && existsSync(join(bundled, 'companion/manifest.json')))
    contenders.push({
      name: `Companion ${watched.moduleName}`,
      start: async () => ({
        server: await hubWith(device, {
          device: {
            type: 'companion-module',
            module: bundled,
            config: watched.config,
            actions: { command: watched.action },
            statusParameters: true,
          },
        }),
        path: filter(`device/var/${watched.variable}`),
        follows: `device/var/${watched.variable}`,
        writes: 'device/command',
      }),
      ...(watched.moduleSays && { says: watched.moduleSays }),
    });
  else console.log(`Companion ${watched.moduleName}: skipped (pass --companion <folder of companion-bundled-modules>)`);
  return contenders;
}

export async function atemRace(companion: string | undefined): Promise<Race> {
  const switcher = await AtemSwitcher.start();
  switcher.setProgram(0, 1);
  const hearing = new Hearing();
  switcher.onHeard = ({ name, fields }) => {
    if (name === 'CPgI' && fields['me'] === 0) hearing.tell(String(fields['source']));
  };
  const other = () => (switcher.program(0) === 1 ? 2 : 1);
  return {
    changes: 'ATEM: a program cut on the panel',
    writes: 'ATEM: M/E 1 program commanded',
    change: () => {
      const input = other();
      switcher.setProgram(0, input);
      return String(input);
    },
    nextCommand: () => String(other()),
    heard: (value) => hearing.expect(value),
    contenders: contendersOf(
      'atem',
      switcher.port,
      {
        package: 'me/1/program',
        variable: 'pgm1_input_id',
        action: { action: 'program', options: { mixeffect: 0, input: '$(value)' } },
        moduleName: 'bmd-atem',
        config: { host: '127.0.0.1', bonjourHost: `127.0.0.1:${switcher.port}` },
        library: 'atem-connection',
      },
      companion,
    ),
    outage: {
      away: async () => switcher.silence(),
      back: async () => switcher.resume(),
    },
    close: () => switcher.close(),
  };
}

export async function hyperdeckRace(companion: string | undefined): Promise<Race> {
  const { HyperdeckServer } = createRequire(import.meta.url)('hyperdeck-server-connection') as {
    HyperdeckServer: new (ip: string, port: number) => Record<string, unknown> & { notifyTransport(params: Record<string, string>): void };
  };
  const port = await freePort();
  const deck = new HyperdeckServer('127.0.0.1', port);
  const hearing = new Hearing();
  let clip = 1;
  const transport = () => ({
    status: 'play',
    speed: '100',
    'slot id': '1',
    'clip id': String(clip),
    'display timecode': '00:00:00:00',
    timecode: '00:00:00:00',
    'video format': '1080i50',
    loop: 'false',
    'single clip': 'false',
  });
  deck['onDeviceInfo'] = async () => ({ 'protocol version': '1.11', model: 'HyperDeck Studio HD Mini', 'slot count': '1' });
  deck['onSlotInfo'] = async () => ({
    'slot id': '1',
    status: 'mounted',
    'volume name': 'SHOW',
    'recording time': '3600',
    'video format': '1080i50',
  });
  deck['onClipsGet'] = async () => ({ 'clip count': '2', 1: 'Opener 00:00:00:00 00:00:30:00', 2: 'Closer 00:00:30:00 00:00:20:00' });
  deck['onTransportInfo'] = async () => transport();
  // What Companion's module asks as it connects; a command the deck does not answer fails its connect.
  deck['onConfiguration'] = async () => ({
    'video input': 'SDI',
    'audio input': 'embedded',
    'file format': 'QuickTimeProResHQ',
    'audio codec': 'PCM',
    'audio input channels': '2',
  });
  deck['onRemote'] = async () => ({ enabled: 'true', override: 'false' });
  deck['onGoTo'] = async (command: { parameters: Record<string, string> }) => {
    const asked = command.parameters['clip id'];
    if (asked !== undefined) hearing.tell(asked);
  };
  let commanded = 1;
  return {
    changes: "HyperDeck: the deck's clip changes",
    writes: 'HyperDeck: go to a clip, commanded',
    change: () => {
      clip = clip === 1 ? 2 : 1;
      deck.notifyTransport({ 'clip id': String(clip) });
      return String(clip);
    },
    nextCommand: () => String((commanded = commanded === 1 ? 2 : 1)),
    heard: (value) => hearing.expect(value),
    contenders: contendersOf(
      'hyperdeck',
      port,
      {
        package: 'transport/clip',
        packageWrites: 'transport/goto',
        packageSends: (value) => JSON.stringify({ clip: Number(value) }),
        variable: 'clipId',
        action: { action: 'gotoN', options: { clip: '$(value)' } },
        moduleName: 'bmd-hyperdeck',
        config: { host: '127.0.0.1', bonjourHost: `127.0.0.1:${port}` },
        library: 'hyperdeck-connection',
      },
      companion,
    ),
    close: async () => {
      const inner = deck as unknown as { _server: { close(): void }; _sockets: Record<string, { _socket: { destroy(): void } }> };
      for (const held of Object.values(inner._sockets)) held._socket.destroy();
      inner._server.close();
    },
  };
}

/** OBS itself, in a namespace of its own; its program scene switched between two scenes by another client. */
export async function obsRace(companion: string | undefined): Promise<Race | undefined> {
  if (!canRunObs) {
    console.log(`OBS: skipped${whyNoObs}`);
    return undefined;
  }
  const quits: (() => unknown)[] = [];
  // 60 frames a second: OBS takes a scene change at its next frame, which is most of what is measured.
  const obs = await startObs({ teardown: (quit) => void quits.push(quit) }, { fps: 60 });
  for (const sceneName of ['A', 'B']) await obs.operator.call('CreateScene', { sceneName });
  await obs.operator.call('SetCurrentProgramScene', { sceneName: 'A' });
  // A cut, not OBS's default 300 ms fade: the race is of the news, not of the transition.
  await obs.operator.call('SetCurrentSceneTransition', { transitionName: 'Cut' });
  let scene = 'A';
  const hearing = new Hearing();
  // OBS has taken a command when it says its program changed: the operator hears it too.
  obs.operator.on('CurrentProgramSceneChanged', ({ sceneName }) => hearing.tell(sceneName));
  const next = () => (scene === 'A' ? 'B' : 'A');
  return {
    changes: 'OBS: the program scene switched by another client',
    writes: 'OBS: the program scene commanded (until OBS says it changed)',
    change: () => {
      // Held at once: the next change must not be made from what OBS has not said yet.
      scene = next();
      void obs.operator.call('SetCurrentProgramScene', { sceneName: scene });
      return scene;
    },
    nextCommand: next,
    // The scene is what was last asked for and seen: OBS's events of earlier changes may come after a contender's.
    heard: (value) =>
      hearing.expect(value).then(() => {
        scene = value;
      }),
    contenders: contendersOf(
      'obs',
      obs.port,
      {
        package: 'scene/program',
        variable: 'scene_active',
        action: { action: 'set_scene', options: { scene: '$(value)' } },
        moduleName: 'obs-studio',
        config: { host: obs.host, port: String(obs.port), pass: '' },
        library: 'obs-websocket-js',
        host: obs.host,
      },
      companion,
    ),
    close: async () => {
      for (const quit of quits.reverse()) await quit();
    },
  };
}

/** A router of 12×12 on 9990; output 1 taken between inputs 1 and 2 (0 and 1 on the wire). */
export async function videohubRace(companion: string | undefined): Promise<Race | undefined> {
  const router = new ScriptedVideohub(12, 12);
  try {
    await router.start(9990);
  } catch (error) {
    console.log(`Videohub: skipped (port 9990, the router's, is taken: ${error})`);
    return undefined;
  }
  const hearing = new Hearing();
  router.onHeard = ({ title, lines }) => {
    const route = title === 'VIDEO OUTPUT ROUTING' && lines.find((line) => line.startsWith('0 '));
    if (route) hearing.tell(route.slice(2));
  };
  const other = () => (router.routes[0] === 0 ? 1 : 0);
  return {
    changes: "Videohub: a route taken on the router's panel",
    writes: 'Videohub: a route commanded',
    change: () => {
      const input = other();
      router.routes[0] = input;
      router.say(`VIDEO OUTPUT ROUTING:\n0 ${input}\n\n`);
      return String(input);
    },
    nextCommand: () => String(other()),
    heard: (value) => hearing.expect(value),
    contenders: contendersOf(
      'videohub',
      9990,
      {
        package: 'output/0/input',
        variable: 'output_1_input_id',
        moduleSays: (value) => String(Number(value) + 1),
        action: { action: 'route', options: { source: '$(value)', destination: 0 } },
        moduleName: 'bmd-videohub',
        config: { host: '127.0.0.1', inputCount: 12, outputCount: 12 },
        library: 'a bare TCP client',
      },
      companion,
    ),
    outage: {
      away: () => router.stop(),
      back: async () => void (await router.start(9990)),
    },
    close: () => router.stop(),
  };
}
