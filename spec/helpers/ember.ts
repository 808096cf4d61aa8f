import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import { eventually, startBound } from './eventually.ts';
import { freePort } from './ports.ts';

const script = fileURLToPath(new URL('../fixtures/ember-device.ts', import.meta.url));

/** The stand-in Ember+ device of `spec/fixtures/ember-device.ts`, running as a process. */
export interface StandInDevice {
  readonly port: number;
  /** The writes it took so far: `1.1 42`. */
  sets(): string[];
  /** The connects it was asked for: `1.10.1 0 [3]`. */
  connects(): string[];
  /** Changes a value as the device itself would. */
  update(path: string, value: unknown): void;
  /** Routes `sources` to `target` of the matrix at `path`, as a router panel would. */
  route(path: string, target: number, sources: number[]): void;
  /** Kills it (SIGKILL): its connections drop as a crashed device's would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, with these options. */
  restart(options?: DeviceOptions): Promise<void>;
}

export interface DeviceOptions {
  /** Writes are never answered. */
  readonly swallow?: boolean;
  /** It has one more parameter, `device/extra`. */
  readonly extra?: boolean;
  /** It has a router: a oneToN video matrix with labels and an nToN audio matrix (see the fixture). */
  readonly matrix?: boolean;
  /** The video matrix's type. */
  readonly matrixType?: 'ONE_TO_N' | 'ONE_TO_ONE' | 'N_TO_N';
  /** The video matrix's target count, when it lies. */
  readonly targetCount?: number;
  /** A target of either matrix that answers every connect with what it holds, locked. */
  readonly lockedTarget?: number;
  /** An nToN target keeps only the first source asked for. */
  readonly oneSource?: boolean;
  /** It never answers a GetDirectory, as a provider still starting up. */
  readonly silentTree?: boolean;
}

/** Starts the stand-in device on a free port; it is killed when the spec ends. */
export async function startDevice(t: ExecutionContext, options: DeviceOptions = {}): Promise<StandInDevice> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';
  const start = async (with_: DeviceOptions) => {
    output = '';
    const started = spawn(process.execPath, ['--import', 'tsx', script, String(port), JSON.stringify(with_)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      () => output.includes('listening') || started.exitCode !== null,
      () => `the stand-in device to listen (output: ${output})`,
      startBound,
    );
    if (started.exitCode !== null) throw new Error(`the stand-in device exited with ${started.exitCode}`);
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  t.teardown(kill);
  await start(options);
  return {
    port,
    sets: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('set '))
        .map((line) => line.slice(4)),
    connects: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('connect '))
        .map((line) => line.slice(8)),
    update: (path, value) => void child?.stdin?.write(`update ${path} ${JSON.stringify(value)}\n`),
    route: (path, target, sources) => void child?.stdin?.write(`route ${path} ${target} ${JSON.stringify(sources)}\n`),
    kill,
    restart: async (next = options) => {
      await kill();
      await start(next);
    },
  };
}
