import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Authenticator } from './auth.ts';
import { JSON_TYPE, send, sendError, sendHubError, statusLines, TEXT } from './respond.ts';
import type { StaticFiles } from './static-files.ts';
import { type HttpRequest, type HttpResponse, type ListenSocket, type TemplatedApp, type WebSocket, uws } from './uws.ts';
import { type WsClient, WsHub } from './ws-hub.ts';

export interface RestServerOptions {
  readonly graph: Graph;
  readonly auth: Authenticator;
  readonly files: StaticFiles | undefined;
  readonly wsFilters: readonly RegExp[];
  /** The hub's connections as `GET /connections` lists them. */
  readonly connections: () => readonly object[];
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly limits?: Partial<Limits>;
}

export interface Limits {
  /** Largest accepted request body (R-H2: 413 above it). */
  readonly maxBody: number;
  /** Largest accepted WebSocket message; a larger one closes the socket (1009). */
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

const utf8 = new TextDecoder('utf-8', { fatal: true });
const PARAMETERS = '/parameters/';

const wantsJson = (req: HttpRequest) => req.getHeader('accept').includes('application/json');

function compileFilters(sources: readonly string[]): RegExp[] | string {
  const filters: RegExp[] = [];
  for (const source of sources) {
    try {
      filters.push(new RegExp(source));
    } catch {
      return `filter ${JSON.stringify(source)} is not a regular expression`;
    }
  }
  return filters;
}

/**
 * The uWS app of one rest-api connection: parameters, updates, discovery, the WebSocket
 * stream and hosted files (R-H1–R-H7). Follows the rules of the native edge: request data
 * is copied before returning, `onAborted` is set before anything asynchronous, and every
 * write made later is corked.
 */
export class RestServer {
  private readonly app: TemplatedApp;
  private readonly ws: WsHub;
  private readonly limits: Limits;
  private listenSocket: ListenSocket | undefined;

  constructor(private readonly options: RestServerOptions) {
    this.limits = { ...defaultLimits, ...options.limits };
    this.app = uws.App();
    this.ws = new WsHub(options.graph, options.wsFilters, (topic, message) => this.app.publish(topic, message, false), {
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

  /** Listens on `bindIp` ("" for every interface) and resolves with the port. */
  listen(bindIp: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const done = (socket: ListenSocket | false) => {
        if (!socket) return reject(new Error(`cannot listen on ${bindIp || '*'}:${port} (in use, or not a local address)`));
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

  /**
   * Wraps a route so that a fault in it answers 500 and is logged, instead of reaching
   * the process: one bad request never takes the hub down.
   */
  private guarded(handler: (res: HttpResponse, req: HttpRequest) => void): (res: HttpResponse, req: HttpRequest) => void {
    return (res, req) => {
      try {
        handler(res, req);
      } catch (error) {
        this.options.log.error(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        try {
          sendError(res, 500, 'internal error; see the hub log', false, undefined, true);
        } catch {
          // The response was already answered or aborted.
        }
      }
    };
  }

  /** Answers 401 with a challenge per scheme unless the request carries valid credentials. */
  private admitted(res: HttpResponse, req: HttpRequest, accessToken = ''): boolean {
    const { auth } = this.options;
    if (!auth.required || auth.accepts(req.getHeader('authorization'), accessToken)) return true;
    res.writeStatus(statusLines[401]);
    for (const challenge of auth.challenges) res.writeHeader('WWW-Authenticate', challenge);
    res.writeHeader('Content-Type', TEXT).end('authentication required');
    return false;
  }

  private routeHttp(): void {
    const { graph } = this.options;
    const app = this.app;

    app.get('/parameters/*', this.guarded((res, req) => {
      if (!this.admitted(res, req)) return;
      const json = wantsJson(req);
      let address = req.getUrl().slice(PARAMETERS.length);
      if (address.includes('%')) {
        try {
          address = decodeURIComponent(address);
        } catch {
          return sendError(res, 404, 'bad percent-encoding in the address', json);
        }
      }
      const found = graph.lookup(address);
      if (!found.ok) return sendHubError(res, found.error, json);
      const value = found.value.value;
      if (value === undefined) {
        const why = found.value.type === 'T' ? 'a trigger has no state' : 'the value is unknown';
        return sendError(res, 503, `${address}: ${why}`, json);
      }
      if (json) send(res, 200, JSON_TYPE, JSON.stringify(value));
      else send(res, 200, TEXT, typeof value === 'string' ? value : String(value));
    }));

    app.get('/parameters', this.guarded((res, req) => {
      if (!this.admitted(res, req)) return;
      const filters = compileFilters(new URLSearchParams(req.getQuery() ?? '').getAll('filter'));
      if (typeof filters === 'string') return sendError(res, 400, filters, wantsJson(req));
      const list = graph
        .all()
        .filter((p) => filters.length === 0 || filters.some((f) => f.test(p.address)))
        .map((p) => ({ p: p.address, type: p.type, access: p.access, ...(p.value === undefined ? {} : { v: p.value }) }));
      send(res, 200, JSON_TYPE, JSON.stringify(list));
    }));

    app.get('/connections', this.guarded((res, req) => {
      if (!this.admitted(res, req)) return;
      send(res, 200, JSON_TYPE, JSON.stringify(this.options.connections()));
    }));

    app.get('/update', this.guarded((res, req) => {
      if (!this.admitted(res, req)) return;
      const fields = new URLSearchParams(req.getQuery() ?? '');
      this.update(res, fields.get('parameter'), fields.has('value') ? fields.get('value') : undefined, wantsJson(req));
    }));

    app.post('/update', this.guarded((res, req) => {
      if (!this.admitted(res, req)) return;
      this.postUpdate(res, req);
    }));

    for (const path of ['/parameters/*', '/parameters', '/connections', '/update']) {
      app.any(path, this.guarded((res, req) => {
        if (!this.admitted(res, req)) return;
        const allowed = path === '/update' ? 'GET, POST' : 'GET';
        res.writeStatus(statusLines[405]).writeHeader('Allow', allowed).writeHeader('Content-Type', TEXT).end(`use ${allowed} for ${path}`);
      }));
    }

    app.get('/*', this.guarded((res, req) => {
      if (!this.admitted(res, req)) return;
      const url = req.getUrl();
      if (url === '/ws') return sendError(res, 426, 'GET /ws upgrades to a WebSocket', false);
      this.serveFile(res, url);
    }));

    app.any('/*', this.guarded((res, req) => {
      if (!this.admitted(res, req)) return;
      sendError(res, 404, `nothing at ${req.getMethod().toUpperCase()} ${req.getUrl()}`, wantsJson(req));
    }));
  }

  /** R-H2: converts and writes; answers 200, 400, 403 or 404 with the reason. */
  private update(res: HttpResponse, address: unknown, value: unknown, json: boolean): void {
    if (typeof address !== 'string' || address === '') return sendError(res, 400, 'missing field "parameter"', json);
    if (value === undefined) return sendError(res, 400, 'missing field "value"', json);
    const written = this.options.graph.write(address, value, 'http');
    if (!written.ok) return sendHubError(res, written.error, json);
    if (json) send(res, 200, JSON_TYPE, '{"ok":true}');
    else send(res, 200, TEXT, 'OK');
  }

  private postUpdate(res: HttpResponse, req: HttpRequest): void {
    const contentType = req.getHeader('content-type').split(';')[0]?.trim().toLowerCase() ?? '';
    const declaredLength = Number(req.getHeader('content-length') || 0);
    const acceptsJson = wantsJson(req);
    const isJson = contentType === 'application/json';
    if (contentType !== 'application/x-www-form-urlencoded' && !isJson) {
      return sendError(res, 415, 'send the fields as application/x-www-form-urlencoded or application/json', acceptsJson || isJson, undefined, true);
    }
    const json = acceptsJson || isJson;
    const maxBody = this.limits.maxBody;
    if (declaredLength > maxBody) return sendError(res, 413, `the body is over ${maxBody} bytes`, json, undefined, true);

    let aborted = false;
    res.onAborted(() => (aborted = true));
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (aborted || size > maxBody) return;
      size += chunk.byteLength;
      if (size > maxBody) {
        res.cork(() => sendError(res, 413, `the body is over ${maxBody} bytes`, json, undefined, true));
      } else {
        chunks.push(Buffer.from(new Uint8Array(chunk))); // copied: uWS reuses the chunk's memory
        if (isLast) res.cork(() => this.handleBody(res, Buffer.concat(chunks), isJson, json));
      }
    });
  }

  private handleBody(res: HttpResponse, body: Buffer, isJson: boolean, json: boolean): void {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      return sendError(res, 400, 'the body is not valid UTF-8', json);
    }
    if (!isJson) {
      const fields = new URLSearchParams(text);
      return this.update(res, fields.get('parameter'), fields.has('value') ? fields.get('value') : undefined, json);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return sendError(res, 400, 'the body is not JSON', json);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return sendError(res, 400, 'expected a JSON object {"parameter": "<address>", "value": <value>}', json);
    }
    const fields = parsed as Record<string, unknown>;
    this.update(res, fields['parameter'], 'value' in fields ? fields['value'] : undefined, json);
  }

  private serveFile(res: HttpResponse, url: string): void {
    const files = this.options.files;
    if (!files) return sendError(res, 404, `nothing at ${url}`, false);
    let aborted = false;
    res.onAborted(() => (aborted = true));
    files.find(url).then(
      (file) => {
        if (aborted) return;
        res.cork(() => (file ? send(res, 200, file.contentType, file.body) : sendError(res, 404, `no file at ${url}`, false)));
      },
      (error: unknown) => {
        this.options.log.warn(`reading ${url} failed: ${String(error)}`);
        if (!aborted) res.cork(() => sendError(res, 404, `no file at ${url}`, false));
      },
    );
  }

  private routeWebSocket(): void {
    const hub = this.ws;
    this.app.ws<WsClient>('/ws', {
      compression: uws.DISABLED,
      maxPayloadLength: this.limits.maxMessage,
      maxBackpressure: this.limits.maxBackpressure,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        const query = new URLSearchParams(req.getQuery() ?? '');
        if (!this.admitted(res, req, query.get('access_token') ?? '')) return;
        const filters = compileFilters(query.getAll('filter'));
        if (typeof filters === 'string') return sendError(res, 400, filters, false);
        res.upgrade<WsClient>(
          { filters, topic: undefined, lagging: false, snapshotBytes: 0, missedSince: 0 },
          req.getHeader('sec-websocket-key'),
          req.getHeader('sec-websocket-protocol'),
          req.getHeader('sec-websocket-extensions'),
          context,
        );
      },
      open: (ws) => hub.join(ws),
      message: (ws, message) => this.clientMessage(ws, message),
      drain: (ws) => hub.drained(ws),
      close: (ws) => hub.leave(ws),
    });
  }

  /** R-H3 client writes: `{p, v}` or an array of them; each bad one is answered on the socket. */
  private clientMessage(ws: WebSocket<WsClient>, message: ArrayBuffer): void {
    const answer = (p: unknown, error: string) => ws.send(JSON.stringify({ p: typeof p === 'string' ? p : null, error }));
    let data: unknown;
    try {
      data = JSON.parse(utf8.decode(message));
    } catch {
      answer(null, 'the message is not UTF-8 JSON');
      return;
    }
    for (const item of Array.isArray(data) ? data : [data]) {
      if (typeof item !== 'object' || item === null || Array.isArray(item) || typeof item.p !== 'string' || !('v' in item)) {
        answer(item?.p, 'expected {"p":"<address>","v":<value>} or an array of them');
        continue;
      }
      const written = this.options.graph.write(item.p, item.v, 'ws');
      if (!written.ok) answer(item.p, written.error.message);
    }
  }
}

