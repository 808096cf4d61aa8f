import type { Graph } from '../../core/graph.ts';
import type { Pattern } from '../../core/regex.ts';
import { type LagLimits } from './lag.ts';
import { type ResumeLimits, type TokenCheck } from './resume.ts';
import type { WsClient, WsSocket } from './state.ts';
import { Topics } from './topics.ts';
export interface WsFanOutOptions extends LagLimits {
    /** Runs work once the turn's I/O is done (`afterTurn`); specs pass their virtual clock's. */
    readonly afterTurn?: (work: () => void) => void;
    /** What a resumable topic keeps for clients that come back (R-W3). */
    readonly resume?: ResumeLimits;
}
export declare class WsFanOut {
    private readonly graph;
    private readonly options;
    private readonly clients;
    private readonly graphEvents;
    private stopDeliveries;
    private readonly topics;
    private readonly changes;
    private readonly sending;
    private readonly snapshots;
    private readonly matching;
    private readonly lag;
    constructor(graph: Graph, serverFilters: readonly Pattern[], publish: (topic: string, message: string) => void, options: WsFanOutOptions);
    start(): void;
    /** Unsubscribes from the graph and closes every client with 1001 "going away". */
    stop(): void;
    /** Clients, lagging clients and the largest send buffer now: for `GET /connections`. */
    stats(): {
        clients: number;
        lagging: number;
        largestSendBuffer: number;
    };
    /** Messages and bytes sent to clients since the start. */
    sent(): {
        messages: number;
        bytes: number;
    };
    /** What resumable topics keep for clients that come back, and how those fared (R-W3): for `/metrics`. */
    resumeStats(): ReturnType<Topics['resumeStats']>;
    /** What the token a client brings back says of it (R-W3), before it is let in (see `Topics.checkResume`). */
    checkResume(client: WsClient): TokenCheck | undefined;
    /** Subscribes a new client: snapshot first (see `Snapshots`), then changes; a client that came back, what it missed. */
    join(ws: WsSocket): void;
    leave(ws: WsSocket): void;
    /** uWS reports that a client's send buffer shrank: its snapshot goes on, or a lagging client may be ready again. */
    drained(ws: WsSocket): void;
    /**
     * A client that came back with its token and the last `seq` it received (R-W3): when the
     * topic still holds everything it sent after that `seq`, the client is greeted, sent
     * exactly that (conflated for a rate-limited client) and joins the stream: true. Else
     * false: it gets `{"event":"resync"}` and a snapshot.
     */
    private resumed;
    /**
     * Parameters added while clients are connected stream their values to them; later
     * clients find them in their snapshot. Without clients a table's are not even made.
     */
    private appeared;
    /**
     * A table's rows, defined while clients are connected (a reload): as `appeared`, but read
     * as they are, none made — a table of a million rows made a million parameters here. Each
     * value goes out once; a row that changes later is made then, as any.
     */
    private appearedRows;
    /** Parameters removed: topics find theirs again, and those that changed are no longer kept. */
    private gone;
    private changed;
    /**
     * A change's message to each of `topics`, with who made it for `origins` topics and its
     * `seq` for resumable ones — each made once, and only when a topic asks: `{p, v}` clients pay
     * nothing for them. Kept for clients that may come back; held for a rate-limited topic's
     * tick by the parameter's entry (a row without one goes at once).
     */
    private fanOut;
}
