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
