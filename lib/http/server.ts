import type { Subscription } from 'rxjs';
import { createServer } from 'node:net';
import type { Pattern } from '../core/regex.ts';
import { HubError } from '../core/errors.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { Graph } from '../core/graph.ts';
import type { SetResult } from '../core/parameter.ts';
import { type Logger, logLevels, tapLog } from '../core/log.ts';
import { after, type Scheduler } from '../core/scheduler.ts';
import { AcceptGuard } from './accept-guard.ts';
import type { Authenticator } from './auth.ts';
import { FairShare } from './fair-share.ts';
import { compileFilters } from './filters.ts';
import { type Access, fullAccess, writeFor } from './access.ts';
import { corsHeaders, OriginPolicy, preflightHeaders, SAME_ORIGIN } from './origins.ts';
import { hubMetrics } from './metrics.ts';
import { answerHead, answerWith, type CodedError, type Tally, tallyIn, jsonClient, sendEmpty, sendError, sendOk } from './respond.ts';
import {
  answerFault,
  clientAddress,
  getOther,
  type Handler,
  type Listed,
  type ListedRule,
  methodNotAllowed,
  notFound,
  type RouteContext,
  routes,
} from './routes.ts';
import type { StaticFiles } from './static-files.ts';
import { type HttpRequest, type HttpResponse, type ListenSocket, listenExclusive, type TemplatedApp, uws, type WebSocket } from './uws.ts';
import { errorAnswer, parametersChanged, parseClientMessage } from './ws-messages.ts';
import { consoleFiles } from './console.ts';
import { newWsClient, type WsClient, WsHub } from './ws-hub.ts';

export interface RestServerOptions {
  readonly graph: Graph;
  readonly auth: Authenticator;
  readonly files: StaticFiles | undefined;
  readonly wsFilters: readonly Pattern[];
  /** Origins other than the hub's own whose pages may change parameters (R-H10). */
  readonly allowedOrigins?: readonly string[];
  /** The connections `/readyz` waits for; none: every enabled one. */
  readonly required?: readonly string[];
  /** `GET /connections`: plain data, so that lib/http depends on nothing in lib/connections. */
  readonly connections: () => readonly Listed[];
  /** What the hub counted of its own work (rules, store), for `/metrics`. */
  readonly counts?: () => HubCounts;
  /** What each connection type reports of its connections, for `/metrics`. */
  readonly connectionMetrics?: readonly (ConnectionMetric & { readonly type: string })[];
  /** `GET /problems`: the hub's current problems, as plain data. */
  readonly problems: () => readonly Listed[];
  /** `GET /rules`: the flow's enabled rules, as plain data. */
  readonly rules: () => readonly ListedRule[];
  /** Calls back once every write so far is stored as safely as the hub promises; `/update` waits for it for kept values (R-S4). */
  readonly settled?: (done: () => void) => void;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly limits?: Partial<Limits>;
  /** R-U1: serve the operator console at /console/ (the `console` setting; default on). */
  readonly console?: boolean;
}

export interface Limits {
  /** Largest accepted request body (R-H2: 413 above it). */
  readonly maxBody: number;
  /** Largest accepted WebSocket message; a larger one closes the socket with 1009 (R-H12). */
  readonly maxMessage: number;
  /**
   * What uWS itself reads of one message before it drops the connection (1006, no close
   * frame): above `maxMessage`, so that a message somewhat too large is read and answered
   * with 1009, and bounded, so that no socket can make the hub buffer more.
   */
  readonly maxMessageRead: number;
  /** Error answers sent one by one per client message; the rest are counted in one more. */
  readonly maxErrorAnswers: number;
  /** Milliseconds of applying one client's WebSocket messages per event-loop turn; the rest waits (fair share). */
  readonly writeShareMs: number;
  /** Message bytes a client may have waiting; beyond them it is closed with 1008. */
  readonly maxWaitingWrites: number;
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
  maxMessageRead: 8 * 1024 * 1024,
  maxErrorAnswers: 32,
  writeShareMs: 2,
  maxWaitingWrites: 4 * 1024 * 1024,
  lagLimit: 512 * 1024,
  scanIntervalMs: 50,
  maxBackpressure: 32 * 1024 * 1024,
};

const UNAUTHORIZED: CodedError = { code: 'PB_UNAUTHORIZED', message: 'authentication required' };
const CROSS_ORIGIN: CodedError = { code: 'PB_CROSS_ORIGIN', message: 'a page of another origin may not change parameters here' };

/**
 * The uWS app of one rest-api connection: the routes of routes.ts behind authentication
 * (R-H5) and a fault guard, the WebSocket stream of ws-hub.ts, listening and stopping.
 */
export class RestServer {
  private readonly app: TemplatedApp;
  private readonly ws: WsHub;
  private readonly limits: Limits;
  private readonly context: RouteContext;
  /** Answers by status per route, for `/metrics`. */
  private readonly tallies = new Map<string, Tally>();
  private readonly challenges: readonly (readonly [string, string])[];
  private readonly origins: OriginPolicy;
  private readonly writes: FairShare<WebSocket<WsClient>>;
  private listening: AcceptGuard | undefined;
  /** The session cookie's name holds the port: browsers share cookies between the ports of a host. */
  private cookieName = 'patchbay';
  /** `?events=1` clients (R-U1): told when parameters appear or go, so they list them again. */
  private readonly eventClients = new Set<WebSocket<WsClient>>();
  private eventsDue: Subscription | undefined;
  /** `?log=<level>` clients (R-U1): sent `{"log": {level, time, connection?, msg}}` per line at that level or above. */
  private readonly logClients = new Set<WebSocket<WsClient>>();
  /** Clients that left with writes still waiting for their share: who they were (uWS forgets a closed socket). */
  private readonly departed = new WeakMap<WebSocket<WsClient>, WsClient>();
  private readonly untap: () => void;
  private readonly graphEvents: Subscription[] = [];

  constructor(private readonly options: RestServerOptions) {
    this.limits = { ...defaultLimits, ...options.limits };
    const { graph, files, connections, problems, rules, log, settled } = options;
    this.challenges = options.auth.challenges.map((challenge) => ['WWW-Authenticate', challenge] as const);
    this.origins = new OriginPolicy(options.allowedOrigins ?? []);
    this.writes = new FairShare({
      msPerTurn: this.limits.writeShareMs,
      maxWaitingBytes: this.limits.maxWaitingWrites,
      apply: (ws, message, gone) => (gone ? this.clientMessage(ws, message) : ws.cork(() => this.clientMessage(ws, message))),
      overflow: (ws) => ws.end(1008, 'writing faster than the hub applies'),
    });
    this.app = uws.App();
    this.ws = new WsHub(graph, options.wsFilters, (topic, message) => this.app.publish(topic, message, false), {
      lagLimit: this.limits.lagLimit,
      scanIntervalMs: this.limits.scanIntervalMs,
      dropLimit: this.limits.maxBackpressure,
      scheduler: options.scheduler,
    });
    const metrics = hubMetrics({
      graph,
      connections,
      webSockets: this.ws,
      routes: this.tallies,
      ...(options.counts ? { counts: options.counts } : {}),
      connectionMetrics: options.connectionMetrics ?? [],
    });
    const required = options.required ?? [];
    this.context = {
      graph,
      files,
      connections,
      problems,
      rules,
      ...(settled ? { settled } : {}),
      maxBody: this.limits.maxBody,
      log,
      metrics,
      required,
    };
    // The ws route comes first: this uWS build crashes when publishing before one exists.
    this.routeWebSocket();
    this.routeHttp();
    // A reload adds and removes parameters by the thousand: one message for all of them, sent
    // once they have settled for a moment, not one per parameter.
    const announce = () => {
      if (this.eventClients.size === 0) return;
      this.eventsDue?.unsubscribe();
      this.eventsDue = after(options.scheduler, 100, () => {
        this.eventsDue = undefined;
        for (const ws of this.eventClients) ws.send(parametersChanged);
      });
    };
    this.graphEvents.push(
      graph.added$.subscribe(announce),
      graph.removed$.subscribe(announce),
      graph.forgotten$.subscribe(announce),
      graph.tables$.subscribe(announce),
    );
    this.untap = tapLog(options.log, (line) => {
      if (this.logClients.size === 0) return;
      const rank = logLevels.indexOf(line.level as never);
      const message = JSON.stringify({ log: line });
      for (const ws of this.logClients) if (rank <= logLevels.indexOf(ws.getUserData().logLevel as never)) ws.send(message);
    });
  }

  get webSockets(): WsHub {
    return this.ws;
  }

  /**
   * Listens on `bindIp` ("" for every interface) and resolves with the port. The port is
   * exclusive (R-H8): uWS would otherwise set SO_REUSEPORT and share it with another hub at
   * random. Rejects with PB_PORT_UNAVAILABLE and the system's reason.
   */
  listen(bindIp: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const done = (socket: ListenSocket | false) => {
        if (!socket) {
          void whyNotListening(bindIp, port).then((why) =>
            reject(new HubError('PB_PORT_UNAVAILABLE', `cannot listen on ${bindIp || '*'}:${port}: ${why}`)),
          );
          return;
        }
        const actual = uws.us_socket_local_port(socket as never);
        this.listening = new AcceptGuard(this.app, socket, bindIp, actual, this.options);
        this.ws.start();
        this.cookieName = `patchbay-${actual}`;
        resolve(actual);
      };
      listenExclusive(this.app, bindIp, port, done);
    });
  }

  /** Closes every WebSocket and the listening socket, which frees the port. Idempotent. */
  stop(): void {
    this.eventsDue?.unsubscribe();
    this.untap();
    this.logClients.clear();
    for (const subscription of this.graphEvents) subscription.unsubscribe();
    this.eventClients.clear();
    this.ws.stop();
    this.listening?.close();
    this.listening = undefined;
  }

  private routeHttp(): void {
    const app = this.app;
    const preflight = (res: HttpResponse, req: HttpRequest) => this.preflight(res, req);
    for (const route of routes) {
      const tally = this.tally(route.path);
      app.options(route.path, preflight);
      app.get(route.path, this.handle(tally, route.get, route.changes === 'get'));
      if (!route.changes) app.head(route.path, this.handle(tally, route.get, false, true));
      if (route.post) app.post(route.path, this.handle(tally, route.post, true));
      app.any(route.path, this.handle(tally, methodNotAllowed(route)));
    }
    if (this.options.console !== false) {
      // R-U1: built in, so it wins over a documentRoot file of the same path.
      const files = consoleFiles();
      const tally = this.tally('/console/');
      const serve: Handler = (res, req) => {
        const file = files.get(req.getUrl().slice('/console/'.length));
        if (!file) return notFound(res, req, this.context, fullAccess);
        sendOk(res, file.contentType, file.body);
      };
      const toSlash: Handler = (res) => sendEmpty(res, 303, [['Location', '/console/']]);
      app.get('/console', this.handle(tally, toSlash));
      app.get('/console/*', this.handle(tally, serve));
      app.head('/console/*', this.handle(tally, serve, false, true));
    }
    const other = this.tally('other');
    app.options('/*', preflight);
    app.get('/*', this.handle(other, getOther));
    app.head('/*', this.handle(other, getOther, false, true));
    app.any('/*', this.handle(other, notFound));
  }

  /**
   * A handler behind the edge (origin, credentials) and the fault guard: a fault answers
   * 500 and is logged instead of reaching the process, so one bad request never takes the
   * hub down. `changesState` marks requests a foreign page may not send (R-H10).
   */
  private handle(tally: Tally, handler: Handler, changesState = false, head = false): (res: HttpResponse, req: HttpRequest) => void {
    const context = this.context;
    return (res, req) => {
      try {
        tallyIn(res, tally);
        if (head) answerHead(res);
        const access = this.admitted(res, req, changesState, false);
        if (access) handler(res, req, context, access);
      } catch (error) {
        answerFault(res, jsonClient(req), context.log, error);
      }
    };
  }

  /**
   * The edge of every request: a foreign page's state change is refused (R-H10), CORS
   * headers go on every answer to an allowed origin, and the credentials (R-H5, R-A1) give
   * the client its access; a GET with a valid `?access_token=` signs a browser in (R-H11).
   * Answers the request and returns undefined when it goes no further.
   */
  private admitted(res: HttpResponse, req: HttpRequest, changesState: boolean, upgrade: boolean): Access | undefined {
    // A read from a page of another origin is answered without CORS headers (the page
    // cannot see it), so reads need judging only when other origins are allowed.
    const verdict =
      changesState || this.origins.allowsOthers
        ? this.origins.judge(req.getHeader('origin'), req.getHeader('sec-fetch-site'), req.getHeader('host'))
        : SAME_ORIGIN;
    if (verdict.cors) answerWith(res, corsHeaders(verdict.cors));
    // A refused upgrade closes the connection: the client was waiting for a socket, not more HTTP.
    const close = upgrade;
    if (verdict.foreign && changesState) {
      sendError(res, CROSS_ORIGIN, jsonClient(req), { close });
      return undefined;
    }
    const { auth } = this.options;
    if (!auth.required) return fullAccess;
    const accessToken = req.getQuery('access_token') ?? '';
    if (accessToken !== '' && !upgrade) {
      const access = auth.byToken(accessToken);
      if (access) {
        this.signIn(res, req, access);
        return undefined;
      }
    }
    const access = auth.identify({
      authorization: req.getHeader('authorization'),
      accessToken: upgrade ? accessToken : '',
      session: cookieValue(req.getHeader('cookie'), this.cookieName),
    });
    if (access) return access;
    sendError(res, UNAUTHORIZED, jsonClient(req), { headers: this.challenges, close });
    return undefined;
  }

  /** R-H11: the session cookie, and the same URL without the token, so it leaves the address bar and history. */
  private signIn(res: HttpResponse, req: HttpRequest, access: Access): void {
    const query = new URLSearchParams(req.getQuery() ?? '');
    query.delete('access_token');
    const rest = query.toString();
    const cookie = `${this.cookieName}=${this.options.auth.sessionFor(access)}; HttpOnly; SameSite=Strict; Path=/`;
    sendEmpty(res, 303, [
      ['Location', `${req.getUrl()}${rest ? `?${rest}` : ''}`],
      ['Set-Cookie', cookie],
      ['Cache-Control', 'no-store'],
    ]);
  }

  private tally(route: string): Tally {
    const tally: Tally = new Map();
    this.tallies.set(route, tally);
    return tally;
  }

  /** CORS preflights: allowed origins get their answer; foreign pages 403; anyone else learns the methods. */
  private preflight(res: HttpResponse, req: HttpRequest): void {
    const verdict = this.origins.judge(req.getHeader('origin'), req.getHeader('sec-fetch-site'), req.getHeader('host'));
    if (verdict.cors) return sendEmpty(res, 204, [...corsHeaders(verdict.cors), ...preflightHeaders]);
    if (verdict.foreign) return sendError(res, CROSS_ORIGIN, jsonClient(req));
    sendEmpty(res, 204, [['Allow', 'GET, POST, OPTIONS']]);
  }

  private routeWebSocket(): void {
    const hub = this.ws;
    this.app.ws<WsClient>('/ws', {
      compression: uws.DISABLED,
      maxPayloadLength: Math.max(this.limits.maxMessage, this.limits.maxMessageRead),
      maxBackpressure: this.limits.maxBackpressure,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        try {
          const access = this.admitted(res, req, true, true);
          if (!access) return;
          const query = new URLSearchParams(req.getQuery() ?? '');
          const filters = compileFilters(query.getAll('filter'));
          if (!filters.ok) return sendError(res, filters.error, jsonClient(req), { close: true });
          const batch = flag(query.get('batch'));
          if (batch === undefined)
            return sendError(res, { code: 'PB_BAD_REQUEST', message: 'batch is 1 or 0 (true or false)' }, jsonClient(req), { close: true });
          const maxHz = Number(query.get('maxHz') ?? 0);
          if (!(maxHz >= 0 && maxHz <= 1000))
            return sendError(
              res,
              { code: 'PB_BAD_REQUEST', message: 'maxHz is a number of times a second, 0 to 1000 (0: no limit)' },
              jsonClient(req),
              { close: true },
            );
          const logLevel = query.get('log') ?? '';
          if (logLevel !== '' && !logLevels.includes(logLevel as never))
            return sendError(res, { code: 'PB_BAD_REQUEST', message: `log is one of ${logLevels.join(', ')}` }, jsonClient(req), {
              close: true,
            });
          // The log names every address and client: only for full access, not for scoped tokens.
          if (logLevel !== '' && access !== fullAccess && !access.metrics)
            return sendError(res, { code: 'PB_FORBIDDEN', message: 'this token may not read the log' }, jsonClient(req), { close: true });
          const events = flag(query.get('events'));
          if (events === undefined)
            return sendError(res, { code: 'PB_BAD_REQUEST', message: 'events is 1 or 0 (true or false)' }, jsonClient(req), {
              close: true,
            });
          res.upgrade<WsClient>(
            { ...newWsClient(filters.value, access, `ws ${clientAddress(res)}`, batch, maxHz), events, logLevel },
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
        if (ws.getUserData().events) this.eventClients.add(ws);
        if (ws.getUserData().logLevel) this.logClients.add(ws);
        if (!this.options.log.isLevelEnabled('debug')) return;
        const { filters, origin } = ws.getUserData();
        this.options.log.debug(
          `WebSocket client ${origin.slice('ws '.length)} joined${filters.length ? ` (filters ${filters.map((f) => f.source).join(' ')})` : ''}; ${hub.stats().clients} connected`,
        );
      },
      message: (ws, message) => {
        if (message.byteLength > this.limits.maxMessage) return ws.end(1009, `message over ${this.limits.maxMessage} bytes`);
        this.writes.offer(ws, message);
      },
      drain: (ws) => hub.drained(ws),
      close: (ws, code) => {
        // What it sent before leaving is still applied (FairShare.leave), as the client it was.
        this.departed.set(ws, ws.getUserData());
        this.writes.leave(ws);
        this.eventClients.delete(ws);
        this.logClients.delete(ws);
        hub.leave(ws);
        if (this.options.log.isLevelEnabled('debug'))
          this.options.log.debug(
            `WebSocket client ${ws.getUserData().origin.slice('ws '.length)} left (code ${code}); ${hub.stats().clients} connected`,
          );
      },
    });
  }

  /**
   * R-H3 client writes: each bad item is answered on the socket with its code, in order,
   * up to `maxErrorAnswers` per message, then one answer counts the rest, so what a client
   * gets back is never more than it sent (R-H12).
   */
  private clientMessage(ws: WebSocket<WsClient>, message: ArrayBuffer): void {
    const gone = this.departed.get(ws);
    const { access, origin } = gone ?? ws.getUserData();
    const { graph } = this.options;
    let refused = 0;
    const refuse = (p: string | null, error: CodedError) => {
      if (++refused <= this.limits.maxErrorAnswers && !gone) ws.send(errorAnswer(p, error));
    };
    for (const item of parseClientMessage(message)) {
      if (!item.ok) {
        refuse(item.p, item.error);
        continue;
      }
      // A refusal by the owner of a remote parameter comes later, after the answers of this message.
      const answered = graph.get(item.p)?.remote
        ? (answer: SetResult) => answer.ok || sendIfOpen(ws, errorAnswer(item.p, answer.error))
        : undefined;
      const written = writeFor(access, graph, item.p, item.v, origin, answered);
      if (!written.ok) refuse(item.p, written.error);
    }
    const unanswered = refused - this.limits.maxErrorAnswers;
    if (unanswered > 0 && !gone)
      ws.send(
        errorAnswer(null, { code: 'PB_BAD_REQUEST', message: `${unanswered} more bad items in this message, not answered one by one` }),
      );
  }
}

/** Sends unless the client has gone meanwhile (uWS throws on a closed socket). */
function sendIfOpen(ws: WebSocket<WsClient>, message: string): void {
  try {
    ws.send(message);
  } catch {
    // Gone: nobody is left to tell.
  }
}

/** uWS says only that listening failed; binding the same address with Node tells why. */
function whyNotListening(bindIp: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const reasons: Record<string, string> = {
        EADDRINUSE: 'the port is in use by another process',
        EADDRNOTAVAIL: `${bindIp} is not an address of this machine`,
        EACCES: 'permission denied (ports below 1024 need privileges)',
      };
      resolve(reasons[error.code ?? ''] ?? error.message);
    });
    probe.listen({ ...(bindIp ? { host: bindIp } : {}), port, exclusive: true }, () => probe.close(() => resolve('the port was in use')));
  });
}

/** The value of one cookie in a `Cookie` header, or "". */
function cookieValue(header: string, name: string): string {
  if (header === '') return '';
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return '';
}

/** A yes/no query parameter: absent is no; anything but 1/0/true/false is undefined. */
function flag(value: string | null): boolean | undefined {
  if (value === null || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true' || value === '') return true;
  return undefined;
}
