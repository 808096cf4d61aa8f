/**
 * OBS Studio as a peer nobody on the team wrote: Debian's `obs-studio` 29, which carries
 * obs-websocket 5.1, headless under a private Xvfb, in a network namespace of the spec's own
 * (it listens on every interface, and asks the internet for updates as it starts): the hub
 * reaches it on the namespace's device link. Its home is a fresh folder, set as a person
 * would in its settings: the WebSocket server on, no password, a small canvas at 10 frames
 * a second unless told (the renderer is the CPU's; OBS takes a scene change at its next
 * frame), recordings (and the replay buffer, of 5 s, switched on) into the folder. Needs root (CI runs as
 * root) and `apt-get install obs-studio xvfb`; elsewhere `canRunObs` is false and `whyNoObs`
 * says why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OBSWebSocket } from 'obs-websocket-js';
import { eventually } from './eventually.ts';
import { canMakeNamespaces, makeNetwork, type Teardowns, whyNoNamespaces } from './namespaces.ts';

const installed = ['/usr/bin/obs', '/usr/bin/Xvfb'].every((bin) => existsSync(bin));
export const canRunObs = installed && canMakeNamespaces;
export const whyNoObs = !installed ? ' (skipped: apt-get install obs-studio xvfb)' : whyNoNamespaces;

export const OBS_PORT = 4455;

export interface ObsStudio {
  /** Where the hub reaches OBS's WebSocket server. */
  readonly host: string;
  readonly port: number;
  /** A client of OBS's own, as a person at OBS's window or another tool: the spec's hands on OBS. */
  readonly operator: OBSWebSocket;
  /** The folder recordings go to. */
  readonly recordings: string;
  /** OBS's log so far (where a spec that failed looks first). */
  log(): Promise<string>;
  /** Quits OBS and its display, and waits until they are gone. */
  quit(): Promise<void>;
  /** OBS crashes: killed with its display, at once. */
  crash(): Promise<void>;
  /** Starts OBS again (after `quit` or `crash`), with the settings and scenes it saved. */
  launch(): Promise<void>;
}

const globalIni = `[General]
FirstRun=true
LastVersion=486539266

[OBSWebSocket]
FirstLoad=false
ServerEnabled=true
ServerPort=${OBS_PORT}
AlertsEnabled=false
AuthRequired=false
ServerPassword=
`;

const profileIni = (recordings: string, fps: number) => `[General]
Name=Untitled

[Video]
BaseCX=320
BaseCY=180
OutputCX=320
OutputCY=180
FPSType=1
FPSInt=${fps}

[SimpleOutput]
FilePath=${recordings}
RecFormat=mkv
RecQuality=Stream
RecEncoder=x264
VBitrate=300
RecRB=true
RecRBTime=5
RecRBSize=64
`;

/** Starts OBS in a namespace of its own; it is quit when the spec (or the bench) ends. */
export async function startObs(t: Teardowns, { fps = 10 } = {}): Promise<ObsStudio> {
  const network = makeNetwork(t, ['obs'], ['obs']);
  const home = await mkdtemp(join(tmpdir(), 'patchbay-obs-'));
  const config = join(home, '.config', 'obs-studio');
  const recordings = join(home, 'recordings');
  await mkdir(join(config, 'basic', 'profiles', 'Untitled'), { recursive: true });
  await mkdir(recordings);
  await writeFile(join(config, 'global.ini'), globalIni);
  await writeFile(join(config, 'basic', 'profiles', 'Untitled', 'basic.ini'), profileIni(recordings, fps));
  const logFile = join(home, 'obs.log');
  // Xvfb and OBS in one process group inside the namespace: the display goes when OBS does.
  // Xvfb takes the first display number free here, and says which.
  const script = [
    `rm -f ${home}/display; Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3>${home}/display >/dev/null 2>&1 & x=$!`,
    `for i in $(seq 100); do [ -s ${home}/display ] && break; sleep 0.1; done`,
    `DISPLAY=:$(cat ${home}/display) HOME=${home} obs --disable-updater --disable-shutdown-check --minimize-to-tray >>${logFile} 2>&1`,
    'kill $x',
  ].join('; ');
  const host = network.deviceLink('obs').hub;
  const log = () => readFile(logFile, 'utf8').catch(() => '');
  const operator = new OBSWebSocket();

  let child: ChildProcess | undefined;
  /** Ends OBS and its display with `signal` (KILL after 5 s), and waits until they are gone. */
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running?.pid || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    const group = (sent: NodeJS.Signals) => {
      try {
        process.kill(-(running.pid as number), sent);
      } catch {}
    };
    group(signal);
    const late = setTimeout(() => group('SIGKILL'), 5000);
    await exited;
    clearTimeout(late);
  };
  /** Starts OBS, and connects the operator when it answers. */
  const launch = async () => {
    const [command, ...args] = [...network.run('obs'), 'sh', '-c', script];
    child = spawn(command as string, args, { stdio: 'ignore', detached: true });
    await eventually(
      async () => {
        try {
          await operator.connect(`ws://${host}:${OBS_PORT}`);
          return true;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 250));
          return false;
        }
      },
      'OBS answers on its WebSocket port',
      60_000,
    ).catch(async (error) => {
      throw new Error(`${error}\nOBS's log:\n${(await log()).slice(-3000)}`);
    });
  };
  const quit = async () => {
    await operator.disconnect().catch(() => {});
    await end('SIGTERM');
  };
  t.teardown(async () => {
    await quit();
    await rm(home, { recursive: true, force: true });
  });
  await launch();
  return { host, port: OBS_PORT, operator, recordings, log, quit, crash: () => end('SIGKILL'), launch };
}
