import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ticksPerSecond = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * The machine's CPU time in ticks from /proc/stat: all of it, and what the hypervisor
 * stole (time a virtual core was ready to run but the host ran something else). On a
 * shared host this, not the code, is what moves numbers between runs.
 */
export function machineTicks(): { total: number; stolen: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.reduce((sum, n) => sum + n, 0), stolen: fields[7] ?? 0 };
}

/** The share (0–1) of the machine's CPU time stolen since `before` (a `machineTicks()`). */
export function stolenSince(before: { total: number; stolen: number }): number {
  const now = machineTicks();
  return now.total > before.total ? (now.stolen - before.stolen) / (now.total - before.total) : 0;
}

/** Resident memory of a process in bytes, from /proc. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

export interface Server {
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts a server process and resolves once it says where it listens: a line matching
 * `listening on http://…:PORT` (patchbay's log) or `ready PORT` (the baselines).
 */
export function startServer(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let output = '';
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)|ready (\d+)/.exec(output);
      if (!match) return;
      child.stdout?.off('data', look);
      child.stderr?.off('data', look);
      child.stdout?.resume();
      child.stderr?.resume();
      const server = { name, pid: child.pid as number, port: Number(match[1] ?? match[2]), stop: () => stopChild(child) };
      // A hub answers 503 PB_STARTING until its start is over (R-S4): load waits for /healthz.
      if (match[1] === undefined) resolve(server);
      else whenServing(server.port).then(() => resolve(server), reject);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.on('exit', (code) => reject(new Error(`${name} exited (${code}) before it listened:\n${output}`)));
  });
}

/** Resolves once a hub on `port` answers /healthz with 200: its start is over. */
async function whenServing(port: number): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the hub on port ${port} did not serve within 30 s`);
}

/** Forks one of bench/load/*.ts with tsx, for load generators that talk over IPC. */
export function forkLoad(script: string, args: string[] = []): ChildProcess {
  return fork(fileURLToPath(new URL(`../load/${script}`, import.meta.url)), args, {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** Sends a request to a forked load process and waits for its answer of the same kind. */
export function ask<T>(child: ChildProcess, message: { cmd: string } & Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: { cmd: string; error?: string } & T) => {
      if (answer.cmd !== message.cmd) return;
      child.off('message', onMessage);
      if (answer.error) reject(new Error(answer.error));
      else resolve(answer);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}
