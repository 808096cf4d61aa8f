import type * as UWS from 'uWebSockets.js';
export declare const nativeBinaryName: string;
export declare const uws: typeof UWS;
/** Why the native binary did not load; undefined when it did. */
export declare const nativeBinaryProblem: string | undefined;
export declare const nativeBinaryLoaded: boolean;
export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket as ListenSocket, WebSocket } from 'uWebSockets.js';
/**
 * Listens without SO_REUSEPORT, which uWS sets by default and with which two processes
 * share a port at random. On "" every interface (uWS's default, dual stack).
 */
export declare function listenExclusive(app: UWS.TemplatedApp, host: string, port: number, done: (socket: UWS.us_listen_socket | false) => void): void;
/**
 * Closes every socket of `app` at once, HTTP connections kept alive included (the native
 * `close`, which this build has and its typings lack). WebSockets should be ended first,
 * so that their clients get a close frame with the reason.
 */
export declare function closeEverySocket(app: UWS.TemplatedApp): void;
