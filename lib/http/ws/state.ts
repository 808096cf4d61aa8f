/**
 * What the WebSocket fan-out keeps: per client what it asked for at its upgrade (`WsClient`,
 * behind its `WsSocket`, never changed), per joined client (`Member`), per shared filter set
 * (`Topic`), per parameter that changed (`Entry`) and per snapshot under way (`Snapshot`).
 * Each mutable field names the one file that writes it; the others only read it.
 */
import type { Subscription } from 'rxjs';
import type { Reading } from '../../core/graph.ts';
import type { Parameter } from '../../core/parameter.ts';
import type { Pattern } from '../../core/regex.ts';
import { type ClientAccess, fullAccess } from '../access.ts';
import type { ReplayBuffer } from './resume.ts';
import type { ResumeAsked } from './upgrade-query.ts';

/** What a WebSocket client asked for at its upgrade, and who it is: made once, never changed. */
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
  /** `?meta=1`: each value of its snapshot comes with what its parameter says of itself (R-PK6). */
  readonly meta: boolean;
  /** `?events=1`: also told when parameters appear or go (messages.ts). */
  readonly events?: boolean;
  /** `?log=<level>`: also sent the hub's log lines at that level and above ("" for none). */
  readonly logLevel?: string;
  /** `?resume=`: it may come back for what it missed (R-W3); undefined when it did not ask. */
  readonly resume: ResumeAsked | undefined;
  /** The session cookie it was let in by alone (a browser signed in by token): it is closed once that no longer signs in. */
  readonly session?: string;
}

/** How a client asked to be sent values on its upgrade: `?batch=1`, `?maxHz=<n>`, `?origins=1`, `?resume=`. */
export interface SendingAsked {
  readonly batch?: boolean;
  readonly maxHz?: number;
  readonly origins?: boolean;
  readonly meta?: boolean;
  readonly resume?: ResumeAsked | undefined;
}

/** A client as its upgrade makes it, with its own `?filter=` expressions. */
export function newWsClient(
  filters: readonly Pattern[],
  access: ClientAccess = fullAccess,
  origin = 'ws',
  { batch = false, maxHz = 0, origins = false, meta = false, resume }: SendingAsked = {},
): WsClient {
  return { filters, access, origin, batch, maxHz, origins, meta, resume };
}

/**
 * What the fan-out needs of a client's socket: uWS's WebSocket has all of it, and specs pass
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

/**
 * A client from its join on: its socket, what it asked and the topic it shares. Made by the
 * fan-out when the client joins, never changed; what the parts keep of a client as it goes
 * (its snapshot, its lag) each part keeps itself, keyed by this.
 */
export interface Member {
  readonly ws: WsSocket;
  readonly client: WsClient;
  readonly topic: Topic;
}

/**
 * A snapshot sent in slices of a few milliseconds, so that a million values for one client
 * never hold the others up. It is the topic's values as they were when it began; what the
 * topic sends meanwhile (changes, trigger fires) is queued for the client and follows it in
 * order, and the client joins the stream in the turn the queue runs out. Written by
 * snapshots.ts alone.
 */
export interface Snapshot {
  readonly member: Member;
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

/** A turn's messages for a topic, as they wait for its slices (outbox.ts). */
export interface EndedTurn {
  readonly messages: readonly string[];
  /** Encoded once for every slice, when they go to each client in one write. */
  encoded?: readonly Buffer[];
}

/** Some of a topic's listening members, sent to together (outbox.ts). */
export interface Slice {
  readonly index: number;
  readonly members: Set<WsSocket>;
  /** The count of the topic's ended turns handed to uWS for these members: the next is theirs to send. */
  sentTurns: number;
}

/**
 * One distinct client filter set and access: every client with the same ones shares its uWS
 * topic. Its mutable fields are grouped by the one file that writes each; the others read them.
 */
export class Topic {
  // topics.ts
  members = 0;
  /** While it has no members: when it goes, unless a client comes back first. */
  goes: Subscription | undefined;

  // outbox.ts
  /** This turn's messages, sent when the turn ends: one array for a batch topic. */
  pending: string[] = [];
  /** Members subscribed to the uWS topic now: every member but those joining or off the stream while lagging. */
  readonly listening = new Set<WsSocket>();
  /** The listening members in slices of a few dozen, each slice a uWS topic of its own (`Outbox.sliceName`). */
  readonly slices: Slice[] = [];
  /** The slice of each listening member. */
  readonly sliceOf = new Map<WsSocket, Slice>();
  /** The next slice sent while slices wait for the turns' messages. */
  nextSlice = 0;
  /** Messages of ended turns that a slice still waits for, a turn's an entry, oldest first. */
  unsent: EndedTurn[] = [];
  /** The count of ended turns before `unsent`'s first: every slice has been sent those. */
  unsentFrom = 0;

  // sending.ts
  /** Rate-limited topics: the latest message of each parameter changed since the last tick, in the order they first changed. */
  readonly held = new Map<Entry, string>();
  /** The next tick, while messages are held. */
  nextTick: Subscription | undefined;
  /** When the last tick sent. */
  lastTick = Number.NEGATIVE_INFINITY;

  // matching.ts
  /**
   * The parameters its filters pass, in definition order, as readings (a table's rows are
   * not made for it; `Graph.current` reads each again when a snapshot reaches it): found
   * once, going through the graph in slices, so that each snapshot goes through these
   * alone. Undefined until then, while the topic is `wide`, and again once a parameter is
   * removed: the next client to join has them found anew.
   */
  matched: Reading[] | undefined;
  /** Its filters pass more than `MATCHED_AT_MOST`: snapshots go through the graph itself. */
  wide = false;
  /** While `matched` is found: where in the graph, and what so far. */
  finding: { readonly rest: Iterator<Reading>; readonly found: Reading[]; readonly removals: number } | undefined;
  /** Clients whose snapshot waits for `matched`. */
  readonly waiting: Member[] = [];

  // snapshots.ts
  /** Snapshots under way to its clients: what the topic sends is queued for them. */
  readonly snapshots = new Set<Snapshot>();

  /** No filters and full access: snapshots go through the graph itself, nothing is found first. */
  readonly passesAll: boolean;

  constructor(
    readonly name: string,
    readonly key: string,
    private readonly filters: readonly Pattern[],
    private readonly access: ClientAccess,
    readonly batch: boolean,
    /** Milliseconds between two sends of one parameter; 0 for no limit. */
    readonly interval: number,
    /** Its messages carry who changed each value and when (`?origins=1`). */
    readonly origins: boolean,
    /** Its snapshots' values carry their parameters' `meta` (`?meta=1`). */
    readonly meta: boolean,
    /** `?resume` topics (R-W3): what it sent, for clients that come back; undefined for the others, which keep nothing. */
    readonly replay: ReplayBuffer | undefined,
    /** The token its clients are given: the topic's key under the hub's MAC key; empty for a topic that keeps nothing. */
    readonly token: string,
  ) {
    this.passesAll = filters.length === 0 && access.full;
  }

  matches(address: string): boolean {
    return this.access.canRead(address) && (this.filters.length === 0 || this.filters.some((filter) => filter.test(address)));
  }
}

/**
 * A parameter that changed while the hub ran, as the WebSocket layer keeps it: made at its
 * first change, so a million parameters that have not changed cost nothing here. Written
 * by changes.ts alone.
 */
export interface Entry {
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

/** Parameters gone through between two looks at the clock and the client's buffer (a snapshot's slice, a topic's finding). */
export const SLICE_CHECK_EVERY = 256;
