import type { Subscription } from 'rxjs';
import type { Graph, Reading } from '../core/graph.ts';
import type { Parameter } from '../core/parameter.ts';
import { type Scheduler } from '../core/scheduler.ts';
import type { Pattern } from '../core/regex.ts';
import { type ClientAccess } from './access.ts';
import type { ResumeAsked } from './upgrade-query.ts';
import { ReplayBuffer, type ResumeLimits, type TokenCheck } from './ws-resume.ts';
/** What the hub keeps per WebSocket client. */
export interface WsClient {
    /** The client's own `?filter=` expressions, from the upgrade URL. */
    readonly filters: readonly Pattern[];
    /** What the client's credentials grant: it is sent only parameters it can read (R-A2). */
    readonly access: ClientAccess;
    /** `ws <client address>`: who its writes are from (R-O2). */
    readonly origin: string;
    /** `?batch=1`: one JSON array of `{p, v}` per event-loop turn instead of a message per change (R-W1). */
    readonly batch: boolean;
    /** `?maxHz=<n>`: each parameter at most n times a second, its latest value always (R-W2); 0 for no limit. Taken down to the rate ladder. */
    readonly maxHz: number;
    /** `?origins=1`: each value comes with who changed it last and when, `{p, v, by, at}` as `GET /parameters` lists it (R-O2). */
    readonly origins: boolean;
    /** `?events=1`: also told when parameters appear or go (lib/http/ws-messages.ts). */
    readonly events?: boolean;
    /** `?log=<level>`: also sent the hub's log lines at that level and above ("" for none). */
    readonly logLevel?: string;
    /** `?resume=`: it may come back for what it missed (R-W3); undefined when it did not ask. */
    readonly resume: ResumeAsked | undefined;
    /** The session cookie it was let in by alone (a browser signed in by token): it is closed once that no longer signs in. */
    session?: string;
    /** A resume client that was sent a snapshot already, or came back and could not resume: its next snapshot follows `{"event":"resync"}`. */
    resynced?: boolean;
    topic: Topic | undefined;
    /** Set while the client is too far behind to be sent changes; it gets a snapshot when it catches up. */
    lagging: boolean;
    /** Bytes of the last snapshot sent: a client is not lagging just because a large snapshot is in flight. */
    snapshotBytes: number;
    /** The hub's change count when the client was taken off the stream; it is resent only what changed after. */
    missedSince: number;
    /** The snapshot being sent to it, while it is sent in slices; it joins the stream at its end. */
    snapshot: Snapshot | undefined;
}
/**
 * A snapshot sent in slices of a few milliseconds, so that a million values for one client
 * never hold the others up. It is the topic's values as they were when it began; what the
 * topic sends meanwhile (changes, trigger fires) is queued for the client and follows it in
 * order, and the client joins the stream in the turn the queue runs out.
 */
interface Snapshot {
    readonly ws: WsSocket;
    /** Parameters changed up to this change count are not sent (the client has them). */
    readonly since: number;
    /** The change count when it began: parameters changed after it come through the queue. */
    readonly began: number;
    /**
     * The parameters still to go through, a live iterator (ones defined meanwhile are met
     * too): the topic's `matched`, or the graph's readings (nothing made) while it has none.
     */
    readonly rest: Iterator<Reading>;
    /** Whether `rest` holds only parameters the topic's filters pass (its `matched`). */
    readonly matched: boolean;
    /** The hub's count of removed parameters when it began: while it stays, every parameter of `rest` is in the graph. */
    readonly removals: number;
    /** A resumable topic's snapshot of values ends with `{"seq": began}`: from there on the client may resume (R-W3). */
    readonly mark: boolean;
    /** Whether every parameter has been gone through. */
    done: boolean;
    readonly queue: string[];
    /** The next queued message to send. */
    next: number;
    queuedBytes: number;
    bytes: number;
}
/** How a client asked to be sent values on its upgrade: `?batch=1`, `?maxHz=<n>`, `?origins=1`, `?resume=`. */
export interface SendingAsked {
    readonly batch?: boolean;
    readonly maxHz?: number;
    readonly origins?: boolean;
    readonly resume?: ResumeAsked | undefined;
}
/** The state of a client that has not joined yet, with its own `?filter=` expressions. */
export declare function newWsClient(filters: readonly Pattern[], access?: ClientAccess, origin?: string, { batch, maxHz, origins, resume }?: SendingAsked): WsClient;
/**
 * What the hub needs of a client's socket: uWS's WebSocket has all of it, and specs pass
 * fakes whose buffers they fill and drain in virtual time.
 */
export interface WsSocket {
    send(message: string | Buffer): unknown;
    cork(work: () => void): unknown;
    subscribe(topic: string): unknown;
    unsubscribe(topic: string): unknown;
    /** Bytes queued for the client and not yet taken by the kernel. */
    getBufferedAmount(): number;
    end(code: number, reason: string): unknown;
    getUserData(): WsClient;
}
export interface WsHubOptions {
    /** A client whose send buffer holds more than this (beyond its snapshot) stops getting changes. */
    readonly lagLimit: number;
    /** How often, while changes flow, send buffers are checked against the limit. */
    readonly scanIntervalMs: number;
    /** uWS's per-socket cap: a client found beyond it may have lost messages. */
    readonly dropLimit: number;
    readonly scheduler: Scheduler;
    /** Runs work once the turn's I/O is done (`afterTurn`); specs pass their virtual clock's. */
    readonly afterTurn?: (work: () => void) => void;
    /** What a resumable topic keeps for clients that come back (R-W3). */
    readonly resume?: ResumeLimits;
}
/** One distinct client filter set and access: every client with the same ones shares its uWS topic. */
declare class Topic {
    readonly name: string;
    readonly key: string;
    private readonly filters;
    private readonly access;
    readonly batch: boolean;
    /** Milliseconds between two sends of one parameter; 0 for no limit. */
    readonly interval: number;
    /** Its messages carry who changed each value and when (`?origins=1`). */
    readonly origins: boolean;
    members: number;
    /** Members subscribed to the uWS topic now: every member but those joining or off the stream while lagging. */
    readonly listening: Set<WsSocket>;
    /** This turn's messages, sent when the turn ends: one array for a batch topic. */
    pending: string[];
    /** Rate-limited topics: the latest message of each parameter changed since the last tick, in the order they first changed. */
    readonly held: Map<Entry, string>;
    /** The next tick, while messages are held. */
    nextTick: Subscription | undefined;
    /** When the last tick sent. */
    lastTick: number;
    /**
     * The parameters its filters pass, in definition order, as readings (a table's rows are
     * not made for it; `Graph.current` reads each again when a snapshot reaches it): found
     * once, going through the graph in slices, so that each snapshot goes through these
     * alone. Undefined until then, while the topic is `wide`, and again once a parameter is
     * removed: the next client to join has them found anew.
     */
    matched: Reading[] | undefined;
    /** Its filters pass more than `MATCHED_AT_MOST`: snapshots go through the graph itself. */
    wide: boolean;
    /** While `matched` is found: where in the graph, and what so far. */
    finding: {
        readonly rest: Iterator<Reading>;
        readonly found: Reading[];
        readonly removals: number;
    } | undefined;
    /** Clients whose snapshot waits for `matched`. */
    readonly waiting: WsSocket[];
    /** No filters and full access: snapshots go through the graph itself, nothing is found first. */
    readonly passesAll: boolean;
    /** Clients being sent a snapshot in slices: what the topic sends is queued for them. */
    readonly snapshots: Set<WsClient>;
    /** `?resume` topics (R-W3): what it sent, for clients that come back; undefined for the others, which keep nothing. */
    replay: ReplayBuffer | undefined;
    /** The token its clients are given: the topic's key under the hub's MAC key. */
    token: string;
    /** While it has no members: when it goes, unless a client comes back first. */
    goes: Subscription | undefined;
    constructor(name: string, key: string, filters: readonly Pattern[], access: ClientAccess, batch: boolean, 
    /** Milliseconds between two sends of one parameter; 0 for no limit. */
    interval: number, 
    /** Its messages carry who changed each value and when (`?origins=1`). */
    origins: boolean);
    matches(address: string): boolean;
}
/**
 * A parameter that changed while the hub ran, as the WebSocket layer keeps it: made at its
 * first change, so a million parameters that have not changed cost nothing here.
 */
interface Entry {
    readonly parameter: Parameter;
    /** `{"p":<address>,"v":`; empty when the server's filters leave the parameter out. */
    readonly prefix: string;
    /** `{"p":…,"v":…}` of the current value; undefined while unknown and for triggers. */
    message: string | undefined;
    /** The topics whose filters match this address, as of `topicsVersion`: the cached "does it match" answers. */
    topics: readonly Topic[];
    topicsVersion: number;
    /** The hub's change count at this parameter's last change. */
    changedAt: number;
}
/**
 * The WebSocket fan-out of one rest-api connection (R-H3), shaped for thousands of clients
 * and a million parameters: it follows the graph's deliveries (not a subscription per
 * parameter), serialises each change once and hands it to uWS `publish` once per matching
 * filter set. Clients join with a snapshot, sent in slices of a few milliseconds when it is
 * large and followed by what the topic sent meanwhile, and are subscribed in the turn that
 * sends its last message, so nothing falls between. A client that stops reading is detected
 * by its send buffer, taken off the stream (its memory stays bounded), and when it has
 * drained it is sent the current value of every parameter that changed meanwhile, then
 * resumes. It never touches uWS itself: sockets come as `WsSocket` and fan-out goes through
 * the injected `publish`, so specs drive it with fakes.
 */
export declare class WsHub {
    private readonly graph;
    private readonly serverFilters;
    private readonly publish;
    private readonly options;
    private readonly entries;
    private readonly topics;
    private readonly clients;
    private readonly lagging;
    private readonly graphEvents;
    /** Parameters removed from the graph so far: a topic's `matched` found before a removal may hold it. */
    private removals;
    private stopDeliveries;
    /** Bumped when a topic comes or goes: each entry's list of topics is found again at its next change. */
    private topicsVersion;
    private scan;
    private publishedSinceScan;
    private topicCount;
    /** Counts every change, so a client that caught up can be sent only what it missed. */
    private changeCount;
    /** Messages and their bytes handed to uWS for clients, snapshots included (for `/metrics`). */
    private sentMessages;
    private sentBytes;
    /** Topics with messages waiting for the end of the turn. */
    private readonly waiting;
    /** Where a slice of a batch snapshot is written: one buffer for every client, one slice at a time. */
    private readonly batchWriter;
    private readonly tokens;
    /** What every resumable topic keeps together (`ResumeLimits.totalBytes`). */
    private readonly replayBudget;
    /** Resumable topics without members, waiting for a client to come back; the longest waiting first. */
    private readonly idleTopics;
    /** Clients that came back (R-W3): resumed, sent a snapshot instead, refused at the upgrade. */
    private readonly comebacks;
    constructor(graph: Graph, serverFilters: readonly Pattern[], publish: (topic: string, message: string) => void, options: WsHubOptions);
    start(): void;
    /**
     * Parameters added while clients are connected stream their values to them; later
     * clients find them in their snapshot. Without clients a table's are not even made.
     */
    private appeared;
    /** Parameters removed: topics find theirs again, and those that changed are no longer kept. */
    private gone;
    /** One more parameter a topic's filters pass; past `MATCHED_AT_MOST` the topic is wide and keeps none. */
    private keepMatched;
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
    resumeStats(): {
        topics: number;
        messages: number;
        bytes: number;
        resumed: number;
        resynced: number;
        refused: number;
    };
    /**
     * What the token a client brings back says of it (R-W3), before it is let in: one given
     * to another login or to other filters or options is `foreign`, and refused; undefined
     * for a client that brings none.
     */
    checkResume(client: WsClient): TokenCheck | undefined;
    /** Subscribes a new client: snapshot first (see `continueSnapshot`), then changes; a client that came back, what it missed. */
    join(ws: WsSocket): void;
    /**
     * Finds the parameters a topic's filters pass, in slices of a few milliseconds (each
     * parameter tested once, however many clients share the filters), then starts the
     * snapshots of the clients waiting for them. It reads, as a listing does: no row of a
     * table is made. Past `MATCHED_AT_MOST` it stops: the topic is wide.
     */
    private find;
    leave(ws: WsSocket): void;
    /**
     * A client that came back with its token and the last `seq` it received (R-W3): when the
     * topic still holds everything it sent after that `seq`, the client is greeted, sent
     * exactly that (conflated for a rate-limited client) and joins the stream: true. Else
     * false: it gets `{"event":"resync"}` and a snapshot.
     */
    private resumed;
    /** A resumable topic whose clients all left waits `window` for one to come back, still keeping what it would send. */
    private idle;
    private drop;
    /** uWS reports that a client's send buffer shrank: a lagging client may be ready again. */
    drained(ws: WsSocket): void;
    /** Whether the server's filters let the parameter at `address` out at all. */
    private exposes;
    /** Whether the topic's clients are sent the parameter at `address`. */
    private passes;
    /** The parameter's entry, made at its first change; undefined for one no longer in the graph. */
    private entryOf;
    private topicsOf;
    private untrack;
    private changed;
    /**
     * A table's rows, defined while clients are connected (a reload): as `appeared`, but read
     * as they are, none made — a table of a million rows made a million parameters here. Each
     * value goes out once; a row that changes later is made then, as any.
     */
    private appearedRows;
    /**
     * A change's message to each of `topics`, with who made it for `origins` topics and its
     * `seq` for resumable ones — each made once, and only when a topic asks: `{p, v}` clients pay
     * nothing for them. Kept for clients that may come back; held for a rate-limited topic's
     * tick by the parameter's entry (a row without one goes at once).
     */
    private fanOut;
    /**
     * What a snapshot sends of a parameter, when the topic sends it and it has not changed
     * after `until` (then the change follows the snapshot): the message of its last change,
     * or the parameter itself when it has not changed since the hub started (its message is
     * made as it is sent, not kept for each of a million). `matched`: it comes from the
     * topic's `matched`, which passes the filters; `live`: it is in the graph (false when a
     * parameter was removed since the snapshot began: it may be this one).
     */
    private snapshotPart;
    /** `snapshotPart` without who changed it. */
    private snapshotValue;
    /**
     * A message for a topic's clients, sent with the turn's others when the turn ends. Not at
     * once: changes come from inside uWS's handlers (a client's WebSocket message, an HTTP
     * write), where uWS holds its one cork buffer for that client, and publishing there wrote
     * every message to every other client with a system call of its own — a batch of 100
     * writes to 200 clients took 20,000 sends instead of 800.
     */
    private send;
    /** Hands one message to uWS for every client of the topic, counted for `/metrics`. */
    private publishTo;
    /**
     * R-W2: a rate-limited topic sends on ticks at least its interval apart, each with the
     * latest message of every parameter that changed since the one before (one per parameter,
     * so memory stays bounded and the last value always arrives). A change after a quiet
     * interval goes out at once (with whatever else changes before the next timer turn).
     * Ticking per topic rather than per parameter is what makes the limit cheap: however many
     * parameters change, a client is written to at most n times a second (see `sendEach`).
     */
    private hold;
    private tick;
    /**
     * Many single messages at once to a topic's clients: each client gets them in one corked
     * write, each message encoded once for all. (Through `publish`, uWS would write them 32
     * at a time: 4 sends a client for a tick of 100.)
     */
    private sendEach;
    private sendWhenTurnEnds;
    private flushAll;
    /**
     * Sends a topic's waiting messages: a batch topic's as one array (serialised once, handed
     * to uWS once), many at once to each client in one write, a few through `publish`.
     */
    private flush;
    /**
     * Sends the current value of every parameter of the client's topic changed after `since`,
     * then subscribes it: at once when that fits in one slice, else slice by slice. With
     * `replay` (R-W3), those messages instead of values: what a resumable topic sent after
     * `since`. A full snapshot to a resumable topic's client begins with its greeting.
     */
    private sendSnapshot;
    /**
     * One slice of a client's snapshot: values until the slice's time is up or the client's
     * buffer is full (then it goes on when uWS reports it drained), then what was queued
     * behind it. The client is subscribed in the same synchronous turn as the last message,
     * so nothing falls between the two and nothing arrives out of order.
     */
    private continueSnapshot;
    /**
     * A message the client's topic sends while its snapshot is under way. A queue that grows
     * past the lag limit means the client cannot keep up: it is taken off as a lagging client
     * would be, and sent what it missed once it has drained.
     */
    private queueBehindSnapshot;
    private endSnapshot;
    private checkBuffers;
    private setLagging;
    private resumeIfDrained;
}
export {};
