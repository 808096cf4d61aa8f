/**
 * The node's listener (R-NM1, R-NM2, R-NM3): a uWS app of its own on `bindIp`:`port` serving
 * the Node, Events and Connection APIs (answers from api-answers.ts: GET and HEAD; PATCH and
 * POST, with a JSON body of at most 64 KiB, for the Connection API; OPTIONS for CORS; other
 * methods 405) and the events WebSocket, whose clients' rules are event-clients.ts's. Thin
 * glue: nothing a uWS callback runs may throw out of it (that would end the process), and
 * these requests come from anyone who reaches the port.
 */
import {
  closeEverySocket,
  type HttpResponse,
  listenExclusive,
  type ListenSocket,
  type TemplatedApp,
  uws,
  type WebSocket,
} from '../../http/uws.ts';
import { reasonOf, type SparseLog } from '../../sdk/index.ts';
import { type Answer, type ApiView, answerRequest } from './api-answers.ts';
import type { EventClient, EventClients } from './event-clients.ts';
import { EVENTS_SOCKET } from './resources.ts';

/** Bytes of a Connection API request's body: a bulk PATCH of every receiver stays far below it. */
const MAX_BODY_BYTES = 64 * 1024;

const STATUS_LINES: Readonly<Record<Answer['status'], string>> = {
  200: '200 OK',
  202: '202 Accepted',
  400: '400 Bad Request',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  423: '423 Locked',
  500: '500 Internal Server Error',
};

const cors = (response: HttpResponse) =>
  response
    .writeHeader('access-control-allow-origin', '*')
    .writeHeader('access-control-allow-methods', 'GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS')
    .writeHeader('access-control-allow-headers', 'content-type');

export interface NodeServerOptions {
  readonly bindIp: string;
  readonly port: number;
  readonly maxClients: number;
  readonly maxMessageBytes: number;
}

const refused = (status: Answer['status'], error: string, code: string): Answer => ({ status, body: { code: status, error, debug: code } });
const starting: Answer = { status: 404, body: { code: 404, error: 'Not Found', debug: 'starting' } };

export class NodeServer {
  private app: TemplatedApp | undefined;
  private socket: ListenSocket | undefined;
  private readonly sockets = new Set<WebSocket<{ client: EventClient }>>();

  constructor(
    private readonly settings: NodeServerOptions,
    /** What the APIs answer from; undefined while the node starts. */
    private readonly view: () => ApiView | undefined,
    private readonly clients: EventClients,
    private readonly refusals: SparseLog,
  ) {}

  /** Listens on `bindIp`:`port`; resolves with the port. */
  listen(): Promise<number> {
    const app = uws.App();
    this.app = app;
    app.any('/*', (res, req) => {
      const method = req.getMethod().toUpperCase();
      const url = req.getUrl();
      this.guarded(res, () => this.answer(res, method, url));
    });
    app.ws<{ client: EventClient }>(EVENTS_SOCKET, {
      maxPayloadLength: this.settings.maxMessageBytes,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) =>
        this.guarded(res, () => {
          if (this.sockets.size >= this.settings.maxClients) {
            return void res
              .writeStatus('503 Service Unavailable')
              .end(JSON.stringify({ code: 503, error: `at most ${this.settings.maxClients} events clients`, debug: null }), true);
          }
          const holder: { client?: EventClient } = {};
          res.upgrade(
            holder as { client: EventClient },
            req.getHeader('sec-websocket-key'),
            req.getHeader('sec-websocket-protocol'),
            req.getHeader('sec-websocket-extensions'),
            context,
          );
        }),
      open: (ws) => {
        const peer = Buffer.from(ws.getRemoteAddressAsText()).toString();
        const client: EventClient = {
          peer,
          // A socket closed in the meantime throws on use: what was for it is dropped (its close forgets it).
          send: (text) => {
            try {
              ws.send(text, false);
            } catch {
              // Closed.
            }
          },
          bufferedBytes: () => {
            try {
              return ws.getBufferedAmount();
            } catch {
              return 0;
            }
          },
          end: (reason) => ws.end(1000, reason.slice(0, 120)),
        };
        ws.getUserData().client = client;
        this.sockets.add(ws);
        this.clients.opened(client);
      },
      message: (ws, message) => {
        try {
          this.clients.received(ws.getUserData().client, Buffer.from(message).toString('utf8'));
        } catch (error) {
          this.refusals.warn(`an events WebSocket message failed: ${reasonOf(error)}`);
        }
      },
      close: (ws) => {
        this.sockets.delete(ws);
        this.clients.closed(ws.getUserData().client);
      },
    });
    const { bindIp, port } = this.settings;
    return new Promise((resolve, reject) =>
      listenExclusive(app, bindIp, port, (socket) => {
        if (!socket) return reject(new Error(`the NMOS node cannot listen on ${bindIp || '*'}:${port}`));
        this.socket = socket;
        resolve(uws.us_socket_local_port(socket as never));
      }),
    );
  }

  private answer(res: HttpResponse, method: string, url: string): void {
    if (method === 'OPTIONS') return void cors(res.writeStatus('200 OK')).end();
    let path: string;
    try {
      path = decodeURIComponent(url);
    } catch {
      path = url;
    }
    if (method === 'PATCH' || method === 'POST') return this.withBody(res, method, path);
    if (method !== 'GET' && method !== 'HEAD') {
      return this.send(res, method, {
        status: 405,
        body: { code: 405, error: 'Method Not Allowed', debug: `${method} is not served here` },
      });
    }
    const view = this.view();
    this.send(res, method, view === undefined ? starting : answerRequest('GET', path, undefined, view));
  }

  /**
   * A PATCH or POST: its body read whole, each chunk copied (uWS reuses its memory), refused
   * with 413 once past the bound, parsed as JSON, then answered corked; nothing once the
   * client has gone.
   */
  private withBody(res: HttpResponse, method: 'PATCH' | 'POST', path: string): void {
    let finished = false;
    res.onAborted(() => (finished = true));
    const chunks: Buffer[] = [];
    let size = 0;
    const answer = (answer: () => Answer) => {
      finished = true;
      res.cork(() => this.guarded(res, () => this.send(res, method, answer())));
    };
    res.onData((chunk, isLast) => {
      if (finished) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) return answer(() => refused(413, `the body is over ${MAX_BODY_BYTES} bytes`, 'PB_BODY_TOO_LARGE'));
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (!isLast) return;
      answer(() => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          // No body at all reads as none: a POST to the Node API is a 405, not a 400.
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          return refused(400, 'the body is not JSON', 'PB_BAD_REQUEST');
        }
        const view = this.view();
        return view === undefined ? starting : answerRequest(method, path, body, view);
      });
    });
  }

  private send(res: HttpResponse, method: string, answer: Answer): void {
    const text = JSON.stringify(answer.body);
    cors(res.writeStatus(STATUS_LINES[answer.status])).writeHeader('content-type', 'application/json');
    // This uWS build aborts the process when endWithoutBody is given any argument (see http/respond.ts's `finish`).
    if (method === 'HEAD') return void res.writeHeader('content-length', String(Buffer.byteLength(text))).endWithoutBody();
    res.end(text);
  }

  /** A throw in a uWS callback ends the process, and these requests come from anyone who reaches the port. */
  private guarded(res: HttpResponse, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.refusals.warn(`an NMOS request failed: ${reasonOf(error)}`);
      try {
        res.writeStatus('500 Internal Server Error').end(JSON.stringify({ code: 500, error: 'Internal Server Error', debug: null }), true);
      } catch {
        // Answered (or gone) already.
      }
    }
  }

  /** Closes the listener and every socket; clients should be ended first, so that they hear why. */
  close(): void {
    if (this.socket) uws.us_listen_socket_close(this.socket);
    this.socket = undefined;
    if (this.app) closeEverySocket(this.app);
    this.app = undefined;
  }
}
