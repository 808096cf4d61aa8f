/**
 * The `/ws` route of one rest-api connection (R-H3, R-W1, R-W2, R-W3, R-U1): the upgrade behind
 * the edge, with its query parsed by `upgrade-query.ts`; clients joining and leaving the
 * stream of `fan-out.ts`; their writes applied in fair shares (`fair-share.ts`) with bounded
 * error answers (R-H12); and the two side streams, parameter events and the live log.
 */
import type { Observable } from 'rxjs';
import type { Graph } from '../../core/graph.ts';
import { type Logger } from '../../core/log.ts';
import { type SparseLog } from '../../core/sparse-log.ts';
import { type Scheduler } from '../../core/scheduler.ts';
import { type ClientAccess } from '../access.ts';
import type { Limits } from '../limits.ts';
import { type HttpRequest, type HttpResponse, type TemplatedApp } from '../uws.ts';
import type { WsFanOut } from './fan-out.ts';
import { type WsClient } from './state.ts';
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
    readonly sessions?: {
        only(req: HttpRequest): string | undefined;
        signedIn(session: string): boolean;
    };
}
export declare class WebSocketRoute {
    private readonly options;
    private readonly writes;
    /** `?events=1` clients (R-U1): told when parameters appear or go, so they list them again. */
    private readonly eventClients;
    private eventsDue;
    private connectionsDue;
    /** `?log=<level>` clients (R-U1): sent `{"log": {level, time, connection?, msg}}` per line at that level or above. */
    private readonly logClients;
    /** Every open socket, so that stopping can close each with the reason. */
    private readonly sockets;
    /** Clients that left with writes still waiting for their share: who they were (uWS forgets a closed socket). */
    private readonly departed;
    private readonly untap;
    private readonly graphEvents;
    /** Sockets of browsers let in by their session cookie: closed once it no longer signs in (a rotated sign-in key). */
    private readonly sessionSockets;
    /** While there are such sockets: checks them every second. */
    private sessionCheck;
    constructor(options: WebSocketRouteOptions);
    /** Adds the route to `app`; before anything may publish, which this uWS build does not survive. */
    register(app: TemplatedApp): void;
    /**
     * Closes every socket with `code` (1012 when a reload replaces the connection, so
     * clients know to come back; 1001 when it goes), and lets go of the log, the graph's
     * events and the clients of the side streams. Idempotent.
     */
    stop(code: 1001 | 1012, reason: string): void;
    /** Closes the sockets whose client `ended` says no longer holds (its credentials changed): they sign in again, or are refused. */
    closeWhere(ended: (client: WsClient) => boolean, reason: string): void;
    /**
     * A browser's socket let in by its session cookie (R-H11): closed with 1008 once the
     * session no longer signs in — the sign-in key was rotated, or its token changed — as its
     * HTTP requests are refused then; checked every second while there are such sockets.
     */
    private followSession;
    /**
     * A `?log=` client: first the level the hub logs at (`{"logLevel"}`: lines below it are
     * never made, so a client asking for more learns why it gets none), then the hub's last
     * lines at the client's level (`logHistory`, up to 1,000), then the lines as they come.
     */
    private joinLog;
    /**
     * R-H3 client writes: each bad item is answered on the socket with its code, in order,
     * up to `maxErrorAnswers` per message, then one answer counts the rest, so what a client
     * gets back is never more than it sent (R-H12). A client that does not read its answers
     * is closed before they pile up in the hub (see `answer`).
     */
    private clientMessage;
    /**
     * Sends an answer to a client's write, unless it has gone meanwhile (uWS throws on a
     * closed socket). uWS keeps what a client has not read, up to `maxBackpressure` (32 MiB)
     * a socket: a client that writes bad messages and never reads would make the hub hold
     * that much for it. So an answer due while more than `lagLimit` and one largest message
     * (1.5 MiB) wait for the client closes it with 1008 instead: a client that reads has
     * far less waiting, since its stream stops at `lagLimit`.
     */
    private answer;
}
