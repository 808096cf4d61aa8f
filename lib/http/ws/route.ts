/**
 * The `/ws` route of one rest-api connection (R-H3, R-W1, R-W2, R-W3, R-U1): the upgrade behind
 * the edge, its query parsed at the edge; clients joining and leaving the fan-out's stream;
 * their writes applied in fair shares, each parameter looked up once, with bounded error
 * answers (R-H12); and the two side streams, parameter events and the live log.
 */
import { type Observable, Subscription } from 'rxjs';
import type { LogMessage } from '../../core/api-shapes.ts';
import type { Graph } from '../../core/graph.ts';
import { type Logger, logHistory, logLevels, tapLog } from '../../core/log.ts';
import { namingOnce, type SparseLog } from '../../core/sparse-log.ts';
import type { SetResult } from '../../core/parameter.ts';
import { after, every, type Scheduler } from '../../core/scheduler.ts';
import { type ClientAccess, writeFound } from '../access.ts';
import { FairShare } from './fair-share.ts';
import { type CodedError, codesOf, jsonClient, sendError } from '../respond.ts';
import { answerFault, clientAddress } from '../handling.ts';
import type { Limits } from '../limits.ts';
import { parseUpgradeQuery } from './upgrade-query.ts';
import { type HttpRequest, type HttpResponse, type TemplatedApp, uws, type WebSocket } from '../uws.ts';
import type { WsFanOut } from './fan-out.ts';
import { newWsClient, type WsClient } from './state.ts';
import { connectionsChanged, errorAnswer, parametersChanged, parseClientMessage } from './messages.ts';

export interface WebSocketRouteOptions {
  readonly graph: Graph;
  readonly fanOut: WsFanOut;
  readonly limits: Limits;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** Refused writes, logged sparsely (shared with the HTTP routes). */
  readonly refusals: SparseLog;
  /** Emits when connections change status, come or go: `?events=1` clients are told. */
  readonly connectionChanges$?: Observable<void>;
  /** The edge: the client's access, or undefined once it has answered a refusal. */
  readonly admit: (res: HttpResponse, req: HttpRequest) => ClientAccess | undefined;
  /** The session cookie an upgrade was let in by alone, and whether a session still signs in (R-H11). */
  readonly sessions?: { only(req: HttpRequest): string | undefined; signedIn(session: string): boolean };
}

/** How often the sockets of signed-in browsers are checked against the sign-in key. */
const SESSION_CHECK_MS = 1000;

export class WebSocketRoute {
  private readonly writes: FairShare<WebSocket<WsClient>>;
  /** `?events=1` clients (R-U1): told when parameters appear or go, so they list them again. */
  private readonly eventClients = new Set<WebSocket<WsClient>>();
  private eventsDue: Subscription | undefined;
  private connectionsDue: Subscription | undefined;
  /** `?log=<level>` clients (R-U1): sent `{"log": {level, time, connection?, msg}}` per line at that level or above. */
  private readonly logClients = new Set<WebSocket<WsClient>>();
  /** Every open socket, so that stopping can close each with the reason. */
  private readonly sockets = new Set<WebSocket<WsClient>>();
  /** Clients that left with writes still waiting for their share: who they were (uWS forgets a closed socket). */
  private readonly departed = new WeakMap<WebSocket<WsClient>, WsClient>();
  private readonly untap: () => void;
  private readonly graphEvents: Subscription[];
  /** Sockets of browsers let in by their session cookie: closed once it no longer signs in (a rotated sign-in key). */
  private readonly sessionSockets = new Set<WebSocket<WsClient>>();
  /** While there are such sockets: checks them every second. */
  private sessionCheck: Subscription | undefined;

  constructor(private readonly options: WebSocketRouteOptions) {
    const { limits, graph, scheduler, log } = options;
    this.writes = new FairShare({
      msPerTurn: limits.writeShareMs,
      maxWaitingBytes: limits.maxWaitingWrites,
      apply: (ws, message, gone) => (gone ? this.clientMessage(ws, message) : ws.cork(() => this.clientMessage(ws, message))),
      overflow: (ws) => ws.end(1008, 'writing faster than the hub applies'),
    });
    // A reload adds and removes parameters by the thousand: one message for all of them, sent
    // once they have settled for a moment, not one per parameter.
    const announce = () => {
      if (this.eventClients.size === 0) return;
      this.eventsDue?.unsubscribe();
      this.eventsDue = after(scheduler, 100, () => {
        this.eventsDue = undefined;
        for (const ws of this.eventClients) ws.send(parametersChanged);
      });
    };
    // A status that flaps (a device reconnecting) is one message per 100 ms at most.
    const announceConnections = () => {
      if (this.eventClients.size === 0 || this.connectionsDue) return;
      this.connectionsDue = after(scheduler, 100, () => {
        this.connectionsDue = undefined;
        for (const ws of this.eventClients) ws.send(connectionsChanged);
      });
    };
    // A parameter that says anew what it is (a router renamed an input) is listed again too.
    const stopDescribed = graph.hooks.onDescribed(announce);
    this.graphEvents = [
      new Subscription(stopDescribed),
      graph.added$.subscribe(announce),
      graph.removed$.subscribe(announce),
      graph.forgotten$.subscribe(announce),
      graph.tables$.subscribe(announce),
      ...(options.connectionChanges$ ? [options.connectionChanges$.subscribe(announceConnections)] : []),
    ];
    this.untap = tapLog(log, (line) => {
      if (this.logClients.size === 0) return;
      const rank = logLevels.indexOf(line.level as never);
      const message = JSON.stringify({ log: line } satisfies LogMessage);
      for (const ws of this.logClients) if (rank <= logLevels.indexOf(ws.getUserData().logLevel as never)) ws.send(message);
    });
  }

  /** Adds the route to `app`; before anything may publish, which this uWS build does not survive. */
  register(app: TemplatedApp): void {
    const { fanOut, limits, log } = this.options;
    app.ws<WsClient>('/ws', {
      compression: uws.DISABLED,
      maxPayloadLength: Math.max(limits.maxMessage, limits.maxMessageRead),
      maxBackpressure: limits.maxBackpressure,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        try {
          const access = this.options.admit(res, req);
          if (!access) return;
          const asked = parseUpgradeQuery(req.getQuery() ?? '', { mayReadLog: access.full || access.metrics });
          if (!asked.ok) return sendError(res, asked.error, jsonClient(req), { close: true });
          const { filters, batch, maxHz, origins, meta, events, logLevel, resume } = asked.value;
          const session = this.options.sessions?.only(req);
          const client = {
            ...newWsClient(filters, access, `ws ${clientAddress(res)}`, { batch, maxHz, origins, meta, resume }),
            events,
            logLevel,
            ...(session === undefined ? {} : { session }),
          };
          if (fanOut.checkResume(client) === 'foreign')
            return sendError(
              res,
              { code: 'PB_RESUME_REFUSED', message: 'this resume token was not given to this login with these filters and options' },
              jsonClient(req),
              { close: true },
            );
          res.upgrade<WsClient>(
            client,
            req.getHeader('sec-websocket-key'),
            req.getHeader('sec-websocket-protocol'),
            req.getHeader('sec-websocket-extensions'),
            context,
          );
        } catch (error) {
          answerFault(res, jsonClient(req), log, error);
        }
      },
      open: (ws) => {
        this.sockets.add(ws);
        if (ws.getUserData().session !== undefined) this.followSession(ws);
        fanOut.join(ws);
        const { events, resume } = ws.getUserData();
        if (events) this.eventClients.add(ws);
        // The notices are not kept for a client that comes back: it is told to list again, as it would have been.
        if (events && resume?.token !== undefined)
          ws.cork(() => {
            ws.send(parametersChanged);
            ws.send(connectionsChanged);
          });
        if (ws.getUserData().logLevel) this.joinLog(ws);
        if (!log.isLevelEnabled('debug')) return;
        const { filters, origin } = ws.getUserData();
        log.debug(
          `WebSocket client ${origin.slice('ws '.length)} joined${filters.length ? ` (filters ${filters.map((f) => f.source).join(' ')})` : ''}; ${fanOut.stats().clients} connected`,
        );
      },
      message: (ws, message) => {
        if (message.byteLength > limits.maxMessage) return ws.end(1009, `message over ${limits.maxMessage} bytes`);
        this.writes.offer(ws, message);
      },
      drain: (ws) => fanOut.drained(ws),
      close: (ws, code) => {
        // What it sent before leaving is still applied (FairShare.leave), as the client it was.
        this.sockets.delete(ws);
        this.sessionSockets.delete(ws);
        if (this.sessionSockets.size === 0) {
          this.sessionCheck?.unsubscribe();
          this.sessionCheck = undefined;
        }
        this.departed.set(ws, ws.getUserData());
        this.writes.leave(ws);
        this.eventClients.delete(ws);
        this.logClients.delete(ws);
        fanOut.leave(ws);
        if (log.isLevelEnabled('debug'))
          log.debug(
            `WebSocket client ${ws.getUserData().origin.slice('ws '.length)} left (code ${code}); ${fanOut.stats().clients} connected`,
          );
      },
    });
  }

  /**
   * Closes every socket with `code` (1012 when a reload replaces the connection, so
   * clients know to come back; 1001 when it goes), and lets go of the log, the graph's
   * events and the clients of the side streams. Idempotent.
   */
  stop(code: 1001 | 1012, reason: string): void {
    for (const ws of [...this.sockets]) ws.end(code, reason);
    this.sockets.clear();
    this.sessionSockets.clear();
    this.sessionCheck?.unsubscribe();
    this.sessionCheck = undefined;
    this.eventsDue?.unsubscribe();
    this.connectionsDue?.unsubscribe();
    this.untap();
    this.logClients.clear();
    for (const subscription of this.graphEvents.splice(0)) subscription.unsubscribe();
    this.eventClients.clear();
  }

  /** Closes the sockets whose client `ended` says no longer holds (its credentials changed): they sign in again, or are refused. */
  closeWhere(ended: (client: WsClient) => boolean, reason: string): void {
    for (const ws of [...this.sockets]) if (ended(ws.getUserData())) ws.end(1008, reason);
  }

  /**
   * A browser's socket let in by its session cookie (R-H11): closed with 1008 once the
   * session no longer signs in — the sign-in key was rotated, or its token changed — as its
   * HTTP requests are refused then; checked every second while there are such sockets.
   */
  private followSession(ws: WebSocket<WsClient>): void {
    this.sessionSockets.add(ws);
    const { sessions, scheduler } = this.options;
    if (!sessions) return;
    this.sessionCheck ??= every(scheduler, SESSION_CHECK_MS, () => {
      for (const socket of this.sessionSockets) {
        const session = socket.getUserData().session;
        if (session !== undefined && !sessions.signedIn(session)) socket.end(1008, 'signed out: the sign-in key changed');
      }
    });
  }

  /**
   * A `?log=` client: first the level the hub logs at (`{"logLevel"}`: lines below it are
   * never made, so a client asking for more learns why it gets none), then the hub's last
   * lines at the client's level (`logHistory`, up to 1,000), then the lines as they come.
   */
  private joinLog(ws: WebSocket<WsClient>): void {
    const { log } = this.options;
    const rank = logLevels.indexOf(ws.getUserData().logLevel as never);
    ws.cork(() => {
      ws.send(JSON.stringify({ logLevel: log.level } satisfies LogMessage));
      for (const line of logHistory(log))
        if (logLevels.indexOf(line.level as never) <= rank) ws.send(JSON.stringify({ log: line } satisfies LogMessage));
    });
    this.logClients.add(ws);
  }

  /**
   * R-H3 client writes: each bad item is answered on the socket with its code, in order,
   * up to `maxErrorAnswers` per message, then one answer counts the rest, so what a client
   * gets back is never more than it sent (R-H12). A client that does not read its answers
   * is closed before they pile up in the hub (see `answer`).
   */
  private clientMessage(ws: WebSocket<WsClient>, message: ArrayBuffer): void {
    const gone = this.departed.get(ws);
    const { access, origin } = gone ?? ws.getUserData();
    const { graph, limits } = this.options;
    let refused = 0;
    const refuse = (p: string | null, error: CodedError) => {
      this.options.refusals.warn(
        `WebSocket write from ${origin.slice('ws '.length)} refused: ${p === null ? error.message : namingOnce(p, error.message)} (${codesOf(error)})`,
      );
      if (++refused <= limits.maxErrorAnswers && !gone) this.answer(ws, errorAnswer(p, error));
    };
    for (const item of parseClientMessage(message)) {
      if (!item.ok) {
        refuse(item.p, item.error);
        continue;
      }
      const parameter = graph.get(item.p);
      // A refusal by the owner of a remote parameter comes later, after the answers of this message.
      const answered = parameter?.answersLater
        ? (answer: SetResult) => {
            if (answer.ok) return;
            this.options.refusals.warn(
              `WebSocket write from ${origin.slice('ws '.length)} refused: ${namingOnce(item.p, answer.error.message)} (${codesOf(answer.error)})`,
            );
            this.answer(ws, errorAnswer(item.p, answer.error));
          }
        : undefined;
      const written = writeFound(access, graph, item.p, parameter, item.v, origin, answered);
      if (!written.ok) refuse(item.p, written.error);
    }
    const unanswered = refused - limits.maxErrorAnswers;
    if (unanswered > 0 && !gone)
      this.answer(
        ws,
        errorAnswer(null, { code: 'PB_BAD_REQUEST', message: `${unanswered} more bad items in this message, not answered one by one` }),
      );
  }

  /**
   * Sends an answer to a client's write, unless it has gone meanwhile (uWS throws on a
   * closed socket). uWS keeps what a client has not read, up to `maxBackpressure` (32 MiB)
   * a socket: a client that writes bad messages and never reads would make the hub hold
   * that much for it. So an answer due while more than `lagLimit` and one largest message
   * (1.5 MiB) wait for the client closes it with 1008 instead: a client that reads has
   * far less waiting, since its stream stops at `lagLimit`. What waits for the end of the
   * turn for the client goes first, so the answer overtakes no change (R-PK9).
   */
  private answer(ws: WebSocket<WsClient>, message: string): void {
    const { lagLimit, maxMessage } = this.options.limits;
    try {
      if (ws.getBufferedAmount() <= lagLimit + maxMessage) {
        this.options.fanOut.sendPending(ws);
        ws.send(message);
      } else ws.end(1008, 'not reading the answers to its messages');
    } catch {
      // Gone: nobody is left to tell.
    }
  }
}
