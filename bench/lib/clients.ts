import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ask, forkLoad, stopChild } from './processes.ts';

export interface Report {
  received: number;
  /** When the last value arrived, on the monotonic clock of `nowMs` (0: none since the reset). */
  lastArrival: number;
  firsts: number[];
  lasts: number[];
  counts: number[];
  perClient: number[];
}

/** A process holding many WebSocket clients, measuring what they receive. */
export interface LoadClients {
  readonly pid: number;
  readonly kind: string;
  connect(port: number, path: string, count: number): Promise<{ ms: number }>;
  reset(): Promise<void>;
  report(expected: number): Promise<Report>;
  pause(index: number): Promise<void>;
  resume(index: number): Promise<void>;
  /** Leaves client `index` out of the latency figures. */
  exclude(index: number): Promise<void>;
  /** The last value client 0 saw for every address. */
  state(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

const source = fileURLToPath(new URL('../load/wsload.c', import.meta.url));
const binary = join(tmpdir(), 'patchbay-wsload');

/** Builds the C client when gcc is there (it is on these machines); undefined otherwise. */
function nativeClientBinary(): string | undefined {
  if (existsSync(binary) && statSync(binary).mtimeMs > statSync(source).mtimeMs) return binary;
  try {
    execFileSync('gcc', ['-O2', '-o', binary, source], { stdio: 'pipe' });
    return binary;
  } catch {
    return undefined;
  }
}

/** The C client over stdin/stdout lines: about a microsecond per message. */
class NativeClients implements LoadClients {
  readonly kind = 'C (epoll)';
  private readonly answers: ((line: string) => void)[] = [];

  constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => this.answers.shift()?.(line));
  }

  get pid(): number {
    return this.child.pid as number;
  }

  private send<T>(line: string): Promise<T> {
    return new Promise((resolve, reject) => {
      this.answers.push((answer) => {
        const parsed = JSON.parse(answer) as T & { error?: string };
        if (parsed.error) reject(new Error(parsed.error));
        else resolve(parsed);
      });
      this.child.stdin!.write(`${line}\n`);
    });
  }

  connect = (port: number, path: string, count: number) => this.send<{ ms: number }>(`connect ${port} ${path} ${count}`);
  reset = async () => void (await this.send('reset'));
  report = (expected: number) => this.send<Report>(`report ${expected}`);
  pause = async (index: number) => void (await this.send(`pause ${index}`));
  resume = async (index: number) => void (await this.send(`resume ${index}`));
  exclude = async (index: number) => void (await this.send(`exclude ${index}`));
  state = async () => (await this.send<{ state: Record<string, string> }>('state 0')).state;
  close = async () => {
    await this.send('close');
    await stopChild(this.child);
  };
}

/** The Node client (bench/load/ws-clients.ts) over IPC: the fallback without gcc. */
class NodeClients implements LoadClients {
  readonly kind = 'Node';

  constructor(private readonly child: ChildProcess) {}

  get pid(): number {
    return this.child.pid as number;
  }

  connect = (port: number, path: string, count: number) => ask<{ ms: number }>(this.child, { cmd: 'connect', port, path, count });
  reset = async () => void (await ask(this.child, { cmd: 'reset' }));
  report = (expected: number) => ask<Report>(this.child, { cmd: 'report', expected });
  pause = async (index: number) => void (await ask(this.child, { cmd: 'pause', index }));
  resume = async (index: number) => void (await ask(this.child, { cmd: 'resume', index }));
  exclude = async (index: number) => void (await ask(this.child, { cmd: 'exclude', index }));
  state = async () => (await ask<{ state: Record<string, string> }>(this.child, { cmd: 'state', index: 0 })).state;
  close = async () => {
    await ask(this.child, { cmd: 'close' }).catch(() => {});
    await stopChild(this.child);
  };
}

/** Starts a client process: the C one when it can be built, else the Node one. */
export async function startClients(): Promise<LoadClients> {
  const native = nativeClientBinary();
  if (native) return new NativeClients(spawn(native, [], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const child = forkLoad('ws-clients.ts');
  await new Promise((resolve) => child.once('message', resolve));
  return new NodeClients(child);
}
