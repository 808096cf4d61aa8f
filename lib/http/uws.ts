/**
 * The one place uWebSockets.js is loaded. The package silently falls back to a slow
 * pure-JS shim when its native binary does not load; `nativeBinaryLoaded` tells which one
 * is running, so the hub can log it and benchmarks can refuse to report on the shim.
 */
import { createRequire } from 'node:module';
import type * as UWS from 'uWebSockets.js';

const require = createRequire(import.meta.url);
export const uws = require('uWebSockets.js') as typeof UWS;

export const nativeBinaryLoaded: boolean = /\[native code\]/.test(Function.prototype.toString.call(uws.App));
export const nativeBinaryName = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket as ListenSocket, WebSocket } from 'uWebSockets.js';

/** The native module's LIBUS_LISTEN_EXCLUSIVE_PORT (its typings name it only in an enum). */
const exclusivePort = (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

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
  if (host) listen(host, port, exclusivePort, done);
  else listen(port, exclusivePort, done);
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
