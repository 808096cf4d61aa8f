/**
 * The one place uWebSockets.js is loaded. Its native binary is one file per platform and
 * Node ABI; when none loads here, `uws` refuses every use with one line that names the
 * binary it looked for, why it did not load and the Node versions this build has one for
 * (the rest-api fails with it; the rest of the hub runs), never a stack. `nativeBinaryLoaded`
 * also tells a JavaScript stand-in from the native module, so benchmarks refuse to report on one.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as UWS from 'uWebSockets.js';
import { reasonOf } from '../core/errors.ts';

const require = createRequire(import.meta.url);

export const nativeBinaryName = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;

/** Node's major version of each module ABI the package may hold a binary for. */
const NODE_OF_ABI: Readonly<Record<string, string>> = { 108: '18', 115: '20', 127: '22', 131: '23', 137: '24', 141: '25' };

/** Why no binary loaded, in one line: the file looked for, the loader's reason, the Node versions with a binary here. */
function whyNotLoaded(error: unknown): string {
  const reason = reasonOf(error).trim().split('\n').at(-1) ?? '';
  let versions = '';
  try {
    const folder = dirname(require.resolve('uWebSockets.js'));
    const pattern = new RegExp(`^uws_${process.platform}_${process.arch}_(\\d+)\\.node$`);
    versions = readdirSync(folder)
      .map((file) => pattern.exec(file)?.[1])
      .filter((abi): abi is string => abi !== undefined)
      .map((abi) => NODE_OF_ABI[abi] ?? `ABI ${abi}`)
      .join(', ');
  } catch {
    // The package is not there at all: the reason says so.
  }
  return `uWebSockets.js has no native binary that loads in Node ${process.version} here (looked for ${nativeBinaryName}: ${reason}); this build has one for Node ${versions || 'no version'} on ${process.platform}-${process.arch}`;
}

function load(): { uws: typeof UWS; problem?: string } {
  try {
    return { uws: require('uWebSockets.js') as typeof UWS };
  } catch (error) {
    const problem = whyNotLoaded(error);
    const refuse = () => {
      throw new Error(problem);
    };
    return { uws: new Proxy({}, { get: refuse }) as typeof UWS, problem };
  }
}

const loaded = load();
export const uws = loaded.uws;
/** Why the native binary did not load; undefined when it did. */
export const nativeBinaryProblem: string | undefined = loaded.problem;
export const nativeBinaryLoaded: boolean =
  loaded.problem === undefined && /\[native code\]/.test(Function.prototype.toString.call(uws.App));

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket as ListenSocket, WebSocket } from 'uWebSockets.js';

/** The native module's LIBUS_LISTEN_EXCLUSIVE_PORT (its typings name it only in an enum). */
const exclusivePort = (): number => (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

/**
 * Listens without SO_REUSEPORT, which uWS sets by default and with which two processes
 * share a port at random. On "" every interface (uWS's default, dual stack).
 */
export function listenExclusive(
  app: UWS.TemplatedApp,
  host: string,
  port: number,
  done: (socket: UWS.us_listen_socket | false) => void,
): void {
  // The typings lack the (host, port, options, callback) form that the native module has.
  const listen = app.listen.bind(app) as unknown as (...args: unknown[]) => void;
  if (host) listen(host, port, exclusivePort(), done);
  else listen(port, exclusivePort(), done);
}

/**
 * Closes every socket of `app` at once, HTTP connections kept alive included (the native
 * `close`, which this build has and its typings lack). WebSockets should be ended first,
 * so that their clients get a close frame with the reason.
 */
export function closeEverySocket(app: UWS.TemplatedApp): void {
  const close = (app as unknown as { close?: () => void }).close;
  if (typeof close === 'function') close.call(app);
}
