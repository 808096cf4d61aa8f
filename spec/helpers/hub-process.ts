import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import { eventually, startBound } from './eventually.ts';

export const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));

/** A `patchbay run` process with a JSON log, its rest-api reached at `base`. */
export interface HubProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly base: string;
  readonly exited: Promise<number | null>;
  /** The log messages so far. */
  messages(): string[];
  /** The log so far, as written. */
  log(): string;
  /** A parameter's string form over HTTP, or `HTTP <status>`. */
  read(address: string): Promise<string>;
  /** Writes over HTTP; resolves with the response body. */
  write(address: string, value: string): Promise<string>;
  /** GET /problems. */
  problems(): Promise<{ source: string; id: string; code: string; message: string }[]>;
}

/**
 * Runs `command` (default: this checkout's `patchbay run <flow> --log-format json`) as a
 * real process, stopped with SIGKILL when the spec ends, and resolves once its rest-api
 * listens and the hub runs.
 */
export async function runHub(
  t: Pick<ExecutionContext, 'teardown'>,
  flow: string,
  {
    args = [],
    command = [process.execPath, bin],
    cwd,
    env,
  }: { args?: string[]; command?: string[]; cwd?: string; env?: Readonly<Record<string, string>> } = {},
): Promise<HubProcess> {
  const [file, ...rest] = command as [string, ...string[]];
  const child = spawn(file, [...rest, 'run', flow, '--log-format', 'json', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(cwd ? { cwd } : {}),
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  t.teardown(() => void child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await eventually(
    () => log.includes('"msg":"running:') || child.exitCode !== null,
    () => `the hub to start (log so far: ${log})`,
    startBound,
  );
  if (child.exitCode !== null) throw new Error(`the hub exited with ${child.exitCode}: ${log}`);
  // Where its rest-api listens: 127.0.0.1 in most specs, a namespace's address in the partition specs.
  const [, host = '', listened] = /listening on http:\/\/([\d.]+):(\d+)/.exec(log) ?? [];
  const port = Number(listened);
  const base = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const text = async (url: string) => {
    const response = await fetch(url);
    return response.ok ? response.text() : `HTTP ${response.status}`;
  };
  return {
    child,
    port,
    base,
    exited,
    log: () => log,
    messages: () =>
      log
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
    read: (address) => text(`${base}/parameters/${address}`),
    write: (address, value) => text(`${base}/update?parameter=${encodeURIComponent(address)}&value=${encodeURIComponent(value)}`),
    problems: async () =>
      (await (await fetch(`${base}/problems`)).json()) as { source: string; id: string; code: string; message: string }[],
  };
}

/** Sends SIGTERM and resolves with the exit status, or 'still running' after 15 s. */
export async function terminate(hub: HubProcess): Promise<number | null | 'still running'> {
  hub.child.kill('SIGTERM');
  return Promise.race([hub.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 15_000))]);
}
