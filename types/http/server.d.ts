import type { Answers } from '../core/api-shapes.ts';
import type { Pattern } from '../core/regex.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { FlowView } from '../core/flow-view.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Observable } from 'rxjs';
import type { Authenticator } from './auth.ts';
import { type ClientAccess } from './access.ts';
import type { GroupView } from './route.ts';
import type { StaticFiles } from './static-files.ts';
import { type TlsFiles } from './tls.ts';
import { type Limits } from './limits.ts';
import { WsFanOut } from './ws/fan-out.ts';
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
    readonly resume?: {
        readonly window: number;
        readonly changes: number;
    };
    /** `GET /connections`: plain data, so that lib/http depends on nothing in lib/connections. */
    readonly connections: () => Answers['/connections'];
    /** Emits when a connection's status changes or connections come or go: `?events=1` clients are told (R-U1). */
    readonly connectionChanges$?: Observable<void>;
    /** What the hub counted of its own work (rules, store), for `/metrics`. */
    readonly counts?: () => HubCounts;
    /** What each connection type reports of its connections, for `/metrics`. */
    readonly connectionMetrics?: readonly (ConnectionMetric & {
        readonly type: string;
    })[];
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
    readonly scheduler: Scheduler;
    readonly log: Logger;
    readonly limits?: Partial<Limits>;
    /** R-U1: serve the operator console at /console/ (the `console` setting; default on). */
    readonly console?: boolean;
}
export declare class RestServer {
    private readonly options;
    private readonly app;
    /** Every method and path routed, as registered: what `/openapi.json` must describe (R-DS1). */
    readonly routed: {
        readonly method: string;
        readonly path: string;
        readonly refuses?: true;
    }[];
    private readonly ws;
    private readonly limits;
    private readonly context;
    /** Answers by status per route, for `/metrics`. */
    private readonly tallies;
    private listening;
    private stopped;
    /** False until the hub serves (`whenServing`): requests meanwhile are answered 503 PB_STARTING. */
    private serving;
    private readonly edge;
    private readonly webSocketRoute;
    constructor(options: RestServerOptions);
    get webSockets(): WsFanOut;
    /**
     * Listens on `bindIp` ("" for every interface) and resolves with the port. The port is
     * exclusive (R-H8): uWS would otherwise set SO_REUSEPORT and share it with another hub at
     * random. Rejects with PB_PORT_UNAVAILABLE and the system's reason.
     */
    listen(bindIp: string, port: number): Promise<number>;
    /**
     * New credentials in place of a restart: requests from now on are admitted by `auth`, and
     * the sockets of the logins `changed` says were changed or removed are closed (1008), to
     * sign in again or be refused; the others, and the port, stay.
     */
    useCredentials(auth: Authenticator, changed: (access: ClientAccess) => boolean): void;
    /**
     * Stops listening, which frees the port, and closes every connection: WebSockets with
     * 1012 "service restart" when a reload replaces this server (`restart`), 1001 otherwise;
     * HTTP connections kept alive at once, so none goes on being served by the settings this
     * server had. Idempotent.
     */
    stop(reason?: 'stop' | 'restart'): void;
    private routeHttp;
    /**
     * A handler behind the edge (origin, credentials) and the fault guard: a fault answers
     * 500 and is logged instead of reaching the process, so one bad request never takes the
     * hub down. `changesState` marks requests a foreign page may not send (R-H10).
     */
    private handle;
    private tally;
}
