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
  /** Changes a value as the device itself would. */
  update(path: string, value: unknown): void;
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
    update: (path, value) => void child?.stdin?.write(`update ${path} ${JSON.stringify(value)}\n`),
    kill,
    restart: async (next = options) => {
      await kill();
      await start(next);
    },
  };
}
