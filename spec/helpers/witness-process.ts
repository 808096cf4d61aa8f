import { type ChildProcess, spawn } from 'node:child_process';
import type { ExecutionContext } from 'ava';
import { eventually, startBound } from './eventually.ts';
import { bin } from './hub-process.ts';

/** A `patchbay witness` process, stopped with SIGKILL when the spec ends. */
export interface WitnessProcess {
  readonly child: ChildProcess;
  /** The UDP port it votes on (the one asked for, or the one it was given for 0). */
  readonly port: number;
  log(): string;
}

/**
 * Runs the witness of a group of hubs `a` and `b` on `listen` (host:port) and resolves once it
 * votes. `command` runs it elsewhere (`ip netns exec <namespace>`, before Node); the site key
 * comes from `keyFile`, or else from `PATCHBAY_SITE_KEY` in `env`.
 */
export async function startWitness(
  t: ExecutionContext,
  {
    group,
    listen,
    state,
    keyFile,
    env,
    command = [],
  }: {
    group: string;
    listen: string;
    state: string;
    keyFile?: string;
    env?: Readonly<Record<string, string>>;
    command?: readonly string[];
  },
): Promise<WitnessProcess> {
  const [file = process.execPath, ...rest] = [...command, process.execPath];
  const args = ['witness', '--group', group, '--members', 'a,b', '--listen', listen, '--state', state, '--log-format', 'json'];
  const child = spawn(file, [...rest, bin, ...args, ...(keyFile ? ['--key-file', keyFile] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  t.teardown(() => void child.kill('SIGKILL'));
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const listening = () => /listening on [\d.]+:(\d+)\/udp/.exec(log);
  await eventually(
    () => listening() !== null || child.exitCode !== null,
    () => `the witness to start: ${log}`,
    startBound,
  );
  if (child.exitCode !== null) throw new Error(`the witness exited with ${child.exitCode}: ${log}`);
  return { child, port: Number(listening()?.[1]), log: () => log };
}
