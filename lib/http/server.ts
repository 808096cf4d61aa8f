import { HubError } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Authenticator } from './auth.ts';
import { compileFilters } from './filters.ts';
import { type CodedError, jsonClient, sendError } from './respond.ts';
import { answerFault, getOther, type Handler, methodNotAllowed, notFound, type RouteContext, routes } from './routes.ts';
import type { StaticFiles } from './static-files.ts';
import { type HttpRequest, type HttpResponse, type ListenSocket, type TemplatedApp, uws, type WebSocket } from './uws.ts';
import { errorAnswer, parseClientMessage } from './ws-messages.ts';
import { newWsClient, type WsClient, WsHub } from './ws-hub.ts';

export interface RestServerOptions {
  readonly graph: Graph;
  readonly auth: Authenticator;
  readonly files: StaticFiles | undefined;
  readonly wsFilters: readonly RegExp[];
  /** `GET /connections`: plain data, so that lib/http depends on nothing in lib/connections. */
  readonly connections: () => readonly object[];
  /** `GET /problems`: the hub's current problems, as plain data. */
  readonly problems: () => readonly object[];
  /** Calls back once every write so far is stored as safely as the hub promises; `/update` waits for it for kept values (R-S4). */
  readonly settled?: (done: () => void) => void;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly limits?: Partial<Limits>;
}

export interface Limits {
  /** Largest accepted request body (R-H2: 413 above it). */
  readonly maxBody: number;
  /** Largest accepted WebSocket message; uWS closes the socket on a larger one. */
  readonly maxMessage: number;
  /** Send-buffer bytes beyond a client's snapshot at which it stops getting changes. */
  readonly lagLimit: number;
  /** How often buffers are checked while changes flow. */
  readonly scanIntervalMs: number;
  /** uWS's own per-socket cap; past it uWS drops messages (the lag check repairs that). */
  readonly maxBackpressure: number;
}

export const defaultLimits: Limits = {
  maxBody: 64 * 1024,
  maxMessage: 1024 * 1024,
  lagLimit: 512 * 1024,
  scanIntervalMs: 50,
  maxBackpressure: 32 * 1024 * 1024,
};

const UNAUTHORIZED: CodedError = { code: 'PB_UNAUTHORIZED', message: 'authentication required' };

/**
 * The uWS app of one rest-api connection: the routes of routes.ts behind authentication
 * (R-H5) and a fault guard, the WebSocket stream of ws-hub.ts, listening and stopping.
 */
export class RestServer {
  private readonly app: TemplatedApp;
  private readonly ws: WsHub;
  private readonly limits: Limits;
  private readonly context: RouteContext;
  private readonly challenges: readonly (readonly [string, string])[];
  private listenSocket: ListenSocket | undefined;

  constructor(private readonly options: RestServerOptions) {
    this.limits = { ...defaultLimits, ...options.limits };
    const { graph, files, connections, problems, log, settled } = options;
    this.context = { graph, files, connections, problems, ...(settled ? { settled } : {}), maxBody: this.limits.maxBody, log };
    this.challenges = options.auth.challenges.map((challenge) => ['WWW-Authenticate', challenge] as const);
    this.app = uws.App();
    this.ws = new WsHub(graph, options.wsFilters, (topic, message) => this.app.publish(topic, message, false), {
      lagLimit: this.limits.lagLimit,
      scanIntervalMs: this.limits.scanIntervalMs,
      dropLimit: this.limits.maxBackpressure,
      scheduler: options.scheduler,
    });
    // The ws route comes first: this uWS build crashes when publishing before one exists.
    this.routeWebSocket();
    this.routeHttp();
  }

  get webSockets(): WsHub {
    return this.ws;
  }

  /** Listens on `bindIp` ("" for every interface) and resolves with the port; rejects with PB_PORT_UNAVAILABLE. */
  listen(bindIp: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const done = (socket: ListenSocket | false) => {
        if (!socket) return reject(new HubError('PB_PORT_UNAVAILABLE', `cannot listen on ${bindIp || '*'}:${port} (in use, or not a local address)`));
        this.listenSocket = socket;
        this.ws.start();
        resolve(uws.us_socket_local_port(socket as never));
      };
      if (bindIp) this.app.listen(bindIp, port, done);
      else this.app.listen(port, done);
    });
  }

  /** Closes every WebSocket and the listening socket, which frees the port. Idempotent. */
  stop(): void {
    this.ws.stop();
    if (this.listenSocket) uws.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
  }

  private routeHttp(): void {
    const app = this.app;
    for (const route of routes) {
      app.get(route.path, this.handle(route.get));
      if (route.post) app.post(route.path, this.handle(route.post));
    }
    for (const route of routes) app.any(route.path, this.handle(methodNotAllowed(route)));
    app.get('/*', this.handle(getOther));
    app.any('/*', this.handle(notFound));
  }

  /**
   * A handler behind authentication and the fault guard: a fault answers 500 and is
   * logged instead of reaching the process, so one bad request never takes the hub down.
   */
  private handle(handler: Handler): (res: HttpResponse, req: HttpRequest) => void {
    const context = this.context;
    return (res, req) => {
      try {
        if (this.admitted(res, req)) handler(res, req, context);
      } catch (error) {
        answerFault(res, jsonClient(req), context.log, error);
      }
    };
  }

  /** Answers 401 with a challenge per scheme unless the request carries valid credentials. */
  private admitted(res: HttpResponse, req: HttpRequest, accessToken = ''): boolean {
    const { auth } = this.options;
    if (!auth.required || auth.accepts(req.getHeader('authorization'), accessToken)) return true;
    sendError(res, UNAUTHORIZED, jsonClient(req), { headers: this.challenges });
    return false;
  }

  /** Remote addresses of WebSocket clients, kept only while debug lines are wanted (for the line when one leaves). */
  private readonly peers = new WeakMap<WsClient, string>();

  private routeWebSocket(): void {
    const hub = this.ws;
    this.app.ws<WsClient>('/ws', {
      compression: uws.DISABLED,
      maxPayloadLength: this.limits.maxMessage,
      maxBackpressure: this.limits.maxBackpressure,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        try {
          const query = new URLSearchParams(req.getQuery() ?? '');
          if (!this.admitted(res, req, query.get('access_token') ?? '')) return;
          const filters = compileFilters(query.getAll('filter'));
          if (!filters.ok) return sendError(res, filters.error, jsonClient(req));
          res.upgrade<WsClient>(
            newWsClient(filters.value),
            req.getHeader('sec-websocket-key'),
            req.getHeader('sec-websocket-protocol'),
            req.getHeader('sec-websocket-extensions'),
            context,
          );
        } catch (error) {
          answerFault(res, jsonClient(req), this.options.log, error);
        }
      },
      open: (ws) => {
        hub.join(ws);
        if (!this.options.log.isLevelEnabled('debug')) return;
        const { filters } = ws.getUserData();
        const peer = Buffer.from(ws.getRemoteAddressAsText()).toString();
        this.peers.set(ws.getUserData(), peer);
        this.options.log.debug(`WebSocket client ${peer} joined${filters.length ? ` (filters ${filters.map(String).join(' ')})` : ''}; ${hub.stats().clients} connected`);
      },
      message: (ws, message) => this.clientMessage(ws, message),
      drain: (ws) => hub.drained(ws),
      close: (ws, code) => {
        hub.leave(ws);
        const peer = this.peers.get(ws.getUserData());
        if (peer !== undefined) this.options.log.debug(`WebSocket client ${peer} left (code ${code}); ${hub.stats().clients} connected`);
      },
    });
  }

  /** R-H3 client writes: each bad item is answered on the socket with its code, in order. */
  private clientMessage(ws: WebSocket<WsClient>, message: ArrayBuffer): void {
    for (const item of parseClientMessage(message)) {
      if (!item.ok) {
        ws.send(errorAnswer(item.p, item.error));
        continue;
      }
      const written = this.options.graph.write(item.p, item.v, 'ws');
      if (!written.ok) ws.send(errorAnswer(item.p, written.error));
    }
  }
}
