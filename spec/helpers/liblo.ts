import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ExecutionContext } from 'ava';
import { eventually } from './eventually.ts';

/**
 * Debian's liblo-tools, an OSC implementation the project did not write (R-G5): `oscsend`
 * encodes and sends messages, `oscsendfile` sends several as one bundle, `oscdump` receives
 * and prints them (UDP, or TCP where it reads SLIP frames).
 */
const tools = ['/usr/bin/oscsend', '/usr/bin/oscdump', '/usr/bin/oscsendfile'];
/** True where liblo-tools is installed (CI installs it). */
export const canRunLiblo = tools.every((tool) => existsSync(tool));
/** Appended to a spec's title: why it was skipped, when it was. */
export const whyNoLiblo = canRunLiblo ? '' : ' (skipped: liblo-tools is missing; apt-get install liblo-tools)';

const run = promisify(execFile);

/** Sends one message with liblo's `oscsend` to 127.0.0.1:`port` over UDP: `types` such as "if", one value each. */
export async function oscsend(port: number, address: string, types = '', ...values: string[]): Promise<void> {
  await run('oscsend', ['127.0.0.1', String(port), address, types, ...values]);
}

/** One message as liblo encodes it (`oscsend -` writes the packet to standard output). */
export function libloMessage(address: string, types = '', ...values: string[]): Buffer {
  return execFileSync('oscsend', ['-', address, types, ...values]);
}

/**
 * Sends `lines` (`/address types values…`) to 127.0.0.1:`port` with `oscsendfile`, which
 * sends consecutive messages of one timetag as one bundle: here, all of them.
 */
export async function oscsendBundle(port: number, lines: readonly string[]): Promise<void> {
  const file = join(mkdtempSync(join(tmpdir(), 'patchbay-osc-')), 'messages.txt');
  writeFileSync(file, lines.map((line) => `00000000.00000001 ${line}\n`).join(''));
  await run('oscsendfile', ['127.0.0.1', String(port), file]);
}

/** An `oscdump` of the spec's own: what it printed, one message a line (`/address types values…`, its timestamp cut). */
export interface Dump {
  readonly lines: string[];
  /** Waits until a printed line satisfies `check`. */
  until(check: (line: string) => boolean, what: string): Promise<void>;
  /** Stops it (SIGKILL) and resolves once it is gone. */
  kill(): Promise<void>;
}

/**
 * Starts `oscdump` on `url` (`9000` for UDP, `osc.tcp://:9000` for TCP) and resolves once it
 * listens: `ready` is called until a line of its own probe comes out (UDP: sent with
 * oscsend; TCP: the spec's own client, such as the hub connecting).
 */
export async function startDump(t: ExecutionContext, url: string, ready?: () => Promise<void>): Promise<Dump> {
  const child: ChildProcess = spawn('oscdump', ['-L', url], { stdio: ['ignore', 'pipe', 'pipe'] });
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.teardown(() => void child.kill('SIGKILL'));
  const lines: string[] = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString();
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) lines.push(line.replace(/^[0-9a-f]{8}\.[0-9a-f]{8} /, ''));
  });
  const dump: Dump = {
    lines,
    until: (check, what) =>
      eventually(
        () => lines.some(check),
        () => `oscdump to print ${what}; it printed ${JSON.stringify(lines.slice(-5))}`,
      ),
    async kill() {
      child.kill('SIGKILL');
      await gone;
    },
  };
  const probe = ready ?? (() => oscsend(Number(url), '/patchbay/probe'));
  await eventually(async () => {
    if (lines.some((line) => line.startsWith('/patchbay/probe'))) return true;
    await probe().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    return lines.some((line) => line.startsWith('/patchbay/probe'));
  }, `oscdump on ${url} to listen`);
  return dump;
}

/** An OSC bundle of `elements` (liblo's messages, say), its timetag "immediately": liblo's tools send no nested bundles. */
export function bundle(...elements: Buffer[]): Buffer {
  const head = Buffer.from('#bundle\0\0\0\0\0\0\0\0\x01', 'latin1');
  return Buffer.concat([head, ...elements.flatMap((element) => [sizeOf(element), element])]);
}

function sizeOf(element: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(element.length);
  return size;
}

export async function sendDatagram(port: number, packet: Buffer): Promise<void> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => socket.send(packet, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
  socket.close();
}
