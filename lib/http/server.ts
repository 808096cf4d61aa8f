import { createServer } from 'node:net';
import type { Answers } from '../core/api-shapes.ts';
import type { Pattern } from '../core/regex.ts';
import { HubError, reasonOf } from '../core/errors.ts';
import { whyNotBound } from '../core/ports.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { FlowView } from '../core/flow-view.ts';
import type { StoreView } from '../core/store-view.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import { SparseLog } from '../core/sparse-log.ts';
import type { Observable } from 'rxjs';
import { AcceptGuard } from './accept-guard.ts';
import type { Authenticator } from './auth.ts';
import type { ClientAccess } from './access.ts';
import { hubMetrics } from './metrics.ts';
import { answerHead, type CodedError, jsonClient, sendError, type Tally, tallyIn } from './respond.ts';
import { answerFault } from './handling.ts';
import type { GroupView, Handler, RouteContext } from './route.ts';
import { methodNotAllowed, routes } from './routes.ts';
import { hostedFilesRoute, notFound } from './hosted-routes.ts';
import { consoleFilesRoute, consoleRedirect } from './console-routes.ts';
import type { StaticFiles } from './static-files.ts';
import {
  closeEverySocket,
  type HttpRequest,
  type HttpResponse,
  type ListenSocket,
  listenExclusive,
  type TemplatedApp,
  uws,
} from './uws.ts';
import { Edge } from './edge.ts';
import { checkTls, type TlsFiles } from './tls.ts';
import { defaultLimits, type Limits } from './limits.ts';
import { WebSocketRoute } from './ws/route.ts';
import { consoleFiles } from './console.ts';
import { WsFanOut } from './ws/fan-out.ts';
import { defaultResumeLimits } from './ws/resume.ts';

export interface RestServerOptions {
  readonly graph: Graph;
  readonly auth: Authenticator;
  readonly files: StaticFiles | undefined;
  readonly wsFilters: readonly Pattern[];
  /** Origins other than the hub's own whose pages may change parameters (R-H10). */
  readonly allowedOrigins?: readonly string[];
  /** Serve HTTPS and WSS with this certificate and key (checked first: PB_TLS says what is wrong). */
  readonly tls?: TlsFiles;
  /** Names the hub answers under besides IP literals, localhost and the machine's own (hosts.ts). */
  readonly hostnames?: readonly string[];
  /** The connections `/readyz` waits for; none: every enabled one. */
  readonly required?: readonly string[];
  /** How long and how much a `?resume=1` client may miss and come back to (R-W3); the bytes bound is the hub's. */
  readonly resume?: { readonly window: number; readonly changes: number };
  /** `GET /connections`: plain data, so that lib/http depends on nothing in lib/connections. */
  readonly connections: () => Answers['/connections'];
  /** Emits when a connection's status changes or connections come or go: `?events=1` clients are told (R-U1). */
  readonly connectionChanges$?: Observable<void>;
  /** What the hub counted of its own work (rules, store), for `/metrics`. */
  readonly counts?: () => HubCounts;
  /** What each connection type reports of its connections, for `/metrics`. */
  readonly connectionMetrics?: readonly (ConnectionMetric & { readonly type: string })[];
  /** `GET /problems`: the hub's current problems, as plain data. */
  readonly problems: () => Answers['/problems'];
  /** `GET /rules`: the flow's enabled rules, as plain data. */
  readonly rules: () => Answers['/rules'];
  /** Calls back once every write so far is stored as safely as the hub promises; `/update` waits for it for kept values (R-S4). */
  readonly settled?: (done: () => void) => void;
  /**
   * Calls back once the hub serves: every connection started, and its code flows and rules
   * running (a standby: its connections). Until then every request and WebSocket upgrade is
   * answered 503 PB_STARTING, so no client hears `OK` for a write whose rules have not run
   * (R-S4, R-R1). Absent: the server serves from the moment it listens.
   */
  readonly whenServing?: (work: () => void) => void;
  /** The hub's redundancy group, while it is in one (R-B1): `/update` waits for the broker on the active hub, `/failover` asks it. */
  readonly group?: () => GroupView | undefined;
  /** The flow file the hub runs, for `/flow` (R-ED3). */
  readonly flow?: FlowView;
  /** What a studio can add beside it, for `/catalogue` (R-ST2). */
  readonly store?: StoreView;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly limits?: Partial<Limits>;
  /** R-U1: serve the operator console at /console/ (the `console` setting; default on). */
  readonly console?: boolean;
}

/** Methods of a uWS app that route a path; `ws` is a GET upgrade. */
const ROUTING = new Set(['get', 'post', 'put', 'patch', 'del', 'head', 'options', 'any', 'ws']);

/**
 * The app to route on, noting in `routed` each method and path it is given a handler for.
 * Only for routing, at start: the server sends and publishes on the app itself.
 */
function recording(app: TemplatedApp, routed: { method: string; path: string }[]): TemplatedApp {
  return new Proxy(app, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof key !== 'string' || !ROUTING.has(key)) return value.bind(target);
      return (path: string, ...rest: unknown[]) => {
        routed.push({ method: key === 'ws' ? 'get' : key, path });
        value.call(target, path, ...rest);
        return receiver;
      };
    },
  });
}

/**
 * The uWS app of one rest-api connection: its routes behind the edge (names, origins,
 * credentials) and a fault guard, the WebSocket route, listening and stopping.
 */
export class RestServer {
  private readonly app: TemplatedApp;
  /** Every method and path routed, as registered: what `/openapi.json` must describe (R-DS1). */
  readonly routed: { readonly method: string; readonly path: string; readonly refuses?: true }[] = [];
  private readonly ws: WsFanOut;
  private readonly limits: Limits;
  private readonly context: RouteContext;
  /** Answers by status per route, for `/metrics`. */
  private readonly tallies = new Map<string, Tally>();
  private listening: AcceptGuard | undefined;
  private stopped = false;
  /** False until the hub serves (`whenServing`): requests meanwhile are answered 503 PB_STARTING. */
  private serving: boolean;
  private readonly edge: Edge;
  private readonly webSocketRoute: WebSocketRoute;
  constructor(private readonly options: RestServerOptions) {
    this.limits = { ...defaultLimits, ...options.limits };
    const { graph, files, connections, problems, rules, log, settled, group, flow, store } = options;
    this.serving = options.whenServing === undefined;
    options.whenServing?.(() => (this.serving = true));
    this.edge = new Edge({
      auth: options.auth,
      allowedOrigins: options.allowedOrigins ?? [],
      hostnames: options.hostnames ?? [],
      secure: options.tls !== undefined,
    });
    this.app = options.tls ? tlsApp(options.tls) : uws.App();
    this.ws = new WsFanOut(graph, options.wsFilters, (topic, message) => this.app.publish(topic, message, false), {
      lagLimit: this.limits.lagLimit,
      scanIntervalMs: this.limits.scanIntervalMs,
      dropLimit: this.limits.maxBackpressure,
      scheduler: options.scheduler,
      resume: { ...defaultResumeLimits, ...options.resume },
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
    const refusals = new SparseLog(log, options.scheduler, 'refused');
    this.context = {
      refusals,
      graph,
      files,
      connections,
      problems,
      rules,
      ...(settled ? { settled } : {}),
      ...(group ? { group } : {}),
      ...(flow ? { flow } : {}),
      ...(store ? { store } : {}),
      maxBody: this.limits.maxBody,
      log,
      metrics,
      required,
      sessionCookie: () => this.edge.sessionCookie,
    };
    this.webSocketRoute = new WebSocketRoute({
      graph,
      fanOut: this.ws,
      limits: this.limits,
      scheduler: options.scheduler,
      log,
      refusals,
      ...(options.connectionChanges$ ? { connectionChanges$: options.connectionChanges$ } : {}),
      admit: (res, req) => (this.serving ? this.edge.admitted(res, req, true, true) : notServing(res, req, true)),
      sessions: { only: (req) => this.edge.sessionOnly(req), signedIn: (session) => this.edge.signedIn(session) },
    });
    // The ws route comes first: this uWS build crashes when publishing before one exists.
    this.webSocketRoute.register(recording(this.app, this.routed));
    this.routeHttp();
  }

  get webSockets(): WsFanOut {
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
        this.edge.listeningOn(actual);
        resolve(actual);
      };
      listenExclusive(this.app, bindIp, port, done);
    });
  }

  /**
   * New credentials in place of a restart: requests from now on are admitted by `auth`, and
   * the sockets of the logins `changed` says were changed or removed are closed (1008), to
   * sign in again or be refused; the others, and the port, stay.
   */
  useCredentials(auth: Authenticator, changed: (access: ClientAccess) => boolean): void {
    this.edge.useCredentials(auth);
    this.webSocketRoute.closeWhere((client) => changed(client.access), 'signed out: its credentials changed');
  }

  /**
   * Stops listening, which frees the port, and closes every connection: WebSockets with
   * 1012 "service restart" when a reload replaces this server (`restart`), 1001 otherwise;
   * HTTP connections kept alive at once, so none goes on being served by the settings this
   * server had. Idempotent.
   */
  stop(reason: 'stop' | 'restart' = 'stop'): void {
    if (this.stopped) return;
    this.stopped = true;
    this.listening?.close();
    this.listening = undefined;
    if (reason === 'restart') this.webSocketRoute.stop(1012, 'service restart');
    else this.webSocketRoute.stop(1001, 'hub stopping');
    this.ws.stop();
    closeEverySocket(this.app);
  }

  private routeHttp(): void {
    const app = recording(this.app, this.routed);
    const preflight = (res: HttpResponse, req: HttpRequest) => this.edge.preflight(res, req);
    for (const route of routes) {
      const tally = this.tally(route.path);
      app.options(route.path, preflight);
      if (route.get) {
        const changes = route.get.changes === true;
        app.get(route.path, this.handle(tally, route.get.handle, changes));
        if (!changes) app.head(route.path, this.handle(tally, route.get.handle, false, true));
      } else {
        // Named here: the hosted files' GET of every other path would answer it 404. A refusal, not an operation.
        this.app.get(route.path, this.handle(tally, methodNotAllowed(route)));
        this.app.head(route.path, this.handle(tally, methodNotAllowed(route), false, true));
        this.routed.push({ method: 'get', path: route.path, refuses: true });
      }
      if (route.post) app.post(route.path, this.handle(tally, route.post.handle, true));
      if (route.put) app.put(route.path, this.handle(tally, route.put.handle, true));
      app.any(route.path, this.handle(tally, methodNotAllowed(route)));
    }
    if (this.options.console !== false) {
      // R-U1: built in, so it wins over a documentRoot file of the same path. Its files are read now: one missing fails the start.
      consoleFiles();
      const tally = this.tally('/console/');
      app.get(consoleRedirect.path, this.handle(tally, consoleRedirect.get.handle));
      app.get(consoleFilesRoute.path, this.handle(tally, consoleFilesRoute.get.handle));
      app.head(consoleFilesRoute.path, this.handle(tally, consoleFilesRoute.get.handle, false, true));
    }
    const other = this.tally('other');
    const hosted = hostedFilesRoute.path;
    app.options(hosted, preflight);
    app.get(hosted, this.handle(other, hostedFilesRoute.get.handle));
    app.head(hosted, this.handle(other, hostedFilesRoute.get.handle, false, true));
    app.any(hosted, this.handle(other, notFound));
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
        if (!this.serving) return void notServing(res, req, false);
        const access = this.edge.admitted(res, req, changesState, false);
        if (access) handler(res, req, context, access);
      } catch (error) {
        answerFault(res, jsonClient(req), context.log, error);
      }
    };
  }

  private tally(route: string): Tally {
    const tally: Tally = new Map();
    this.tallies.set(route, tally);
    return tally;
  }
}

const STARTING: CodedError = { code: 'PB_STARTING', message: 'the hub is starting; try again in a moment' };

/** The answer to a request that came before the hub serves: 503 with Retry-After; an upgrade is closed after it. */
function notServing(res: HttpResponse, req: HttpRequest, upgrade: boolean): undefined {
  sendError(res, STARTING, jsonClient(req), { headers: [['Retry-After', '1']], close: upgrade });
  return undefined;
}

/** An app serving TLS with `files`, checked first: uWS would say no more than that construction failed. */
function tlsApp(files: TlsFiles): TemplatedApp {
  checkTls(files);
  const { cert, key, passphrase } = files;
  try {
    return uws.SSLApp({ cert_file_name: cert, key_file_name: key, ...(passphrase === undefined ? {} : { passphrase }) });
  } catch (error) {
    throw new HubError('PB_TLS', `cannot serve TLS with ${cert} and ${key}: ${reasonOf(error)}`);
  }
}

/** uWS says only that listening failed; binding the same address with Node tells why. */
function whyNotListening(bindIp: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(whyNotBound(error, bindIp)));
    probe.listen({ ...(bindIp ? { host: bindIp } : {}), port, exclusive: true }, () => probe.close(() => resolve('the port was in use')));
  });
}
