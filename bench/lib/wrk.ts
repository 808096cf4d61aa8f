import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds } from './processes.ts';

export const wrkInstalled = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary throws ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();

export const wrkMissing = 'wrk is not installed: apt-get install wrk (Debian) — HTTP scenarios need it';

export interface WrkResult {
  readonly requestsPerSecond: number;
  readonly non2xx: number;
  /** CPU seconds wrk itself used. */
  readonly cpu: number;
}

/**
 * Runs wrk against `url` with one thread (the other core is the server's) and returns
 * requests per second. `luaPath` optionally shapes each request (varying values).
 */
export function wrk(
  url: string,
  { connections, seconds, lua }: { connections: number; seconds: number; lua?: string },
): Promise<WrkResult> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  if (lua) {
    const path = join(tmpdir(), `patchbay-wrk-${process.pid}.lua`);
    writeFileSync(path, lua);
    args.push('-s', path);
  }
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // wrk's own CPU, sampled until it exits: the load tool must not be the bottleneck.
    let cpu = 0;
    const sampler = setInterval(() => {
      try {
        cpu = cpuSeconds(child.pid as number);
      } catch {
        // exited between samples
      }
    }, 100);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      clearInterval(sampler);
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      if (code !== 0 || !rate) return reject(new Error(`wrk failed (${code}):\n${out}`));
      resolve({ requestsPerSecond: Number(rate[1]), non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0), cpu });
    });
  });
}

/** A wrk script whose every request writes a new value, so each one is a change. */
export function updateScript(parameter: string): string {
  return `
counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, "/update?parameter=${parameter}&value=" .. counter)
end
`;
}
