import type { Subscription } from 'rxjs';
import type { HubEvent, ResumeMessage } from '../core/api-shapes.ts';
import type { Graph, Reading } from '../core/graph.ts';
import type { LastChange, Parameter } from '../core/parameter.ts';
import { after, afterTurn, type Scheduler } from '../core/scheduler.ts';
import type { Pattern } from '../core/regex.ts';
import { toWire, type Value } from '../core/value.ts';
import { SLICE_MS } from './stream.ts';
import { rateAtOrBelow, rateLadder } from './rate-ladder.ts';
import { type ClientAccess, fullAccess } from './access.ts';
import { BatchWriter } from './batch-writer.ts';
import type { ResumeAsked } from './upgrade-query.ts';
import {
  defaultResumeLimits,
  ReplayBudget,
  ReplayBuffer,
  type ResumeLimits,
  ResumeTokens,
  seqOf,
  type TokenCheck,
  withSeq,
} from './ws-resume.ts';

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

/** What a topic's clients are told, beyond values, for `?resume` (R-W3; shapes in core/api-shapes.ts). */
const greeting = (token: string, seq: number) => JSON.stringify({ resume: token, seq } satisfies ResumeMessage);
const seqMark = (seq: number) => JSON.stringify({ seq } satisfies ResumeMessage);
const resync = JSON.stringify({ event: 'resync' } satisfies HubEvent);

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

/** Parameters gone through between two looks at the clock and the client's buffer. */
const SLICE_CHECK_EVERY = 256;

/**
 * The most parameters a topic keeps as the ones its filters pass (`matched`). A filter set
 * that passes more is wide: each snapshot goes through the graph's readings and tests the
 * filters as it goes, as `GET /parameters` does, rather than holding a list as long as the
 * graph (a million rows held as a list cost about as much as the rows themselves).
 */
const MATCHED_AT_MOST = 10_000;

/**
 * More messages than this in one turn (a batch of writes, a rate-limited topic's tick) go to
 * each client in one corked write rather than through `publish`, which uWS writes to a
 * socket at most 32 at a time: ticks of 100 messages to 1,000 clients took about half the
 * server CPU this way (`npm run bench:ticks`). Fewer messages are cheaper published, one
 * call for all clients.
 */
const PUBLISH_AT_MOST = 32;

/** How a client asked to be sent values on its upgrade: `?batch=1`, `?maxHz=<n>`, `?origins=1`, `?resume=`. */
export interface SendingAsked {
  readonly batch?: boolean;
  readonly maxHz?: number;
  readonly origins?: boolean;
  readonly resume?: ResumeAsked | undefined;
}

/** The state of a client that has not joined yet, with its own `?filter=` expressions. */
export function newWsClient(
  filters: readonly Pattern[],
  access: ClientAccess = fullAccess,
  origin = 'ws',
  { batch = false, maxHz = 0, origins = false, resume }: SendingAsked = {},
): WsClient {
  return {
    filters,
    access,
    origin,
    batch,
    maxHz,
    origins,
    resume,
    topic: undefined,
    lagging: false,
    snapshotBytes: 0,
    missedSince: 0,
    snapshot: undefined,
  };
}

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

/**
 * Topics whose clients all left and that wait `resumeWindow` for one to come back, at most:
 * past it the longest waiting goes (its clients get a snapshot). Each holds up to its
 * `ResumeLimits`, so this bounds what clients that never come back cost.
 */
const WAITING_TOPICS_AT_MOST = 64;

/** One distinct client filter set and access: every client with the same ones shares its uWS topic. */
class Topic {
  members = 0;
  /** Members subscribed to the uWS topic now: every member but those joining or off the stream while lagging. */
  readonly listening = new Set<WsSocket>();
  /** This turn's messages, sent when the turn ends: one array for a batch topic. */
  pending: string[] = [];
  /** Rate-limited topics: the latest message of each parameter changed since the last tick, in the order they first changed. */
  readonly held = new Map<Entry, string>();
  /** The next tick, while messages are held. */
  nextTick: Subscription | undefined;
  /** When the last tick sent. */
  lastTick = Number.NEGATIVE_INFINITY;
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
  readonly waiting: WsSocket[] = [];
  /** No filters and full access: snapshots go through the graph itself, nothing is found first. */
  readonly passesAll: boolean;
  /** Clients being sent a snapshot in slices: what the topic sends is queued for them. */
  readonly snapshots = new Set<WsClient>();
  /** `?resume` topics (R-W3): what it sent, for clients that come back; undefined for the others, which keep nothing. */
  replay: ReplayBuffer | undefined;
  /** The token its clients are given: the topic's key under the hub's MAC key. */
  token = '';
  /** While it has no members: when it goes, unless a client comes back first. */
  goes: Subscription | undefined;

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
  ) {
    this.passesAll = filters.length === 0 && access.full;
  }

  matches(address: string): boolean {
    return this.access.canRead(address) && (this.filters.length === 0 || this.filters.some((filter) => filter.test(address)));
  }
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

const NO_TOPICS: readonly Topic[] = [];

/**
 * The key of the topic a client belongs to: what it is sent and how (options, rate on the
 * ladder), the login's access and its filters. A resume token is this key's MAC.
 */
function topicKeyOf({ filters, access, batch, maxHz, origins, resume }: WsClient): string {
  const rate = rateAtOrBelow(maxHz) ?? rateLadder[0];
  const sources = filters.map((f) => f.source).sort();
  return `${batch ? 'batch' : ''} ${rate}${origins ? ' origins' : ''}${resume ? ' resume' : ''}\n${access.name}\n${sources.join('\n')}`;
}

/** The parameters a replay goes through: none, its messages are all in the queue. */
const NO_READINGS: Iterator<Reading> = { next: () => ({ done: true, value: undefined }) };

// A value's message is a `ChangeMessage` (core/api-shapes.ts), written by hand rather than by
// JSON.stringify of one: its start is made once per parameter.
/** `{"p":<address>,"v":`: what a parameter's messages begin with. */
const prefixOf = (address: string) => `{"p":${JSON.stringify(address)},"v":`;
/** `{"p":…,"v":…}`: a value's message, from its parameter's prefix. */
const messageOf = (prefix: string, value: Value) => `${prefix}${JSON.stringify(toWire(value))}}`;

/** The last time turned into ISO form: the changes of one turn share their time (`wallClockOfTurn`). */
let isoAt = Number.NaN;
let iso = '';
const isoOf = (at: number) => {
  if (at !== isoAt) {
    isoAt = at;
    iso = new Date(at).toISOString();
  }
  return iso;
};

/** `{"p":…,"v":…,"by":…,"at":…}`: a value's message with who changed it and when, as `GET /parameters` lists them (R-O2). */
const withOrigin = (message: string, last: LastChange | undefined) =>
  last === undefined ? message : `${message.slice(0, -1)},"by":${JSON.stringify(last.by)},"at":"${isoOf(last.at)}"}`;

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
export class WsHub {
  private readonly entries = new Map<string, Entry>();
  private readonly topics = new Map<string, Topic>();
  private readonly clients = new Set<WsSocket>();
  private readonly lagging = new Set<WsSocket>();
  private readonly graphEvents: Subscription[] = [];
  /** Parameters removed from the graph so far: a topic's `matched` found before a removal may hold it. */
  private removals = 0;
  private stopDeliveries: (() => void) | undefined;
  /** Bumped when a topic comes or goes: each entry's list of topics is found again at its next change. */
  private topicsVersion = 0;
  private scan: Subscription | undefined;
  private publishedSinceScan = false;
  private topicCount = 0;
  /** Counts every change, so a client that caught up can be sent only what it missed. */
  private changeCount = 0;
  /** Messages and their bytes handed to uWS for clients, snapshots included (for `/metrics`). */
  private sentMessages = 0;
  private sentBytes = 0;
  /** Topics with messages waiting for the end of the turn. */
  private readonly waiting = new Set<Topic>();
  /** Where a slice of a batch snapshot is written: one buffer for every client, one slice at a time. */
  private readonly batchWriter = new BatchWriter();
  private readonly tokens = new ResumeTokens();
  /** What every resumable topic keeps together (`ResumeLimits.totalBytes`). */
  private readonly replayBudget = new ReplayBudget();
  /** Resumable topics without members, waiting for a client to come back; the longest waiting first. */
  private readonly idleTopics = new Set<Topic>();
  /** Clients that came back (R-W3): resumed, sent a snapshot instead, refused at the upgrade. */
  private readonly comebacks = { resumed: 0, resynced: 0, refused: 0 };

  constructor(
    private readonly graph: Graph,
    private readonly serverFilters: readonly Pattern[],
    private readonly publish: (topic: string, message: string) => void,
    private readonly options: WsHubOptions,
  ) {}

  start(): void {
    this.stopDeliveries = this.graph.onDelivery((parameter, value) => this.changed(parameter, value));
    this.graphEvents.push(
      this.graph.added$.subscribe((parameter) => this.appeared([parameter])),
      this.graph.removed$.subscribe((parameter) => this.gone([parameter])),
      this.graph.tables$.subscribe((table) => (table.added ? this.appearedRows(table.readings()) : this.gone(table.parameters()))),
      // Unknown again: a client that joins now gets no value for it in its snapshot.
      this.graph.forgotten$.subscribe((parameter) => {
        const entry = this.entries.get(parameter.address);
        if (entry) entry.message = undefined;
      }),
    );
  }

  /**
   * Parameters added while clients are connected stream their values to them; later
   * clients find them in their snapshot. Without clients a table's are not even made.
   */
  private appeared(parameters: Iterable<Parameter>): void {
    if (this.topics.size === 0) return;
    for (const parameter of parameters) {
      for (const topic of this.topics.values())
        if (topic.matched && this.passes(topic, parameter.address)) this.keepMatched(topic, parameter);
      if (parameter.value !== undefined) this.changed(parameter, parameter.value);
    }
  }

  /** Parameters removed: topics find theirs again, and those that changed are no longer kept. */
  private gone(parameters: Iterable<Parameter>): void {
    this.removals++;
    for (const parameter of parameters) this.untrack(parameter.address);
    for (const topic of this.topics.values()) {
      topic.matched = undefined;
      topic.wide = false;
    }
  }

  /** One more parameter a topic's filters pass; past `MATCHED_AT_MOST` the topic is wide and keeps none. */
  private keepMatched(topic: Topic, reading: Reading): void {
    if (!topic.matched) return;
    if (topic.matched.length < MATCHED_AT_MOST) topic.matched.push(reading);
    else {
      topic.matched = undefined;
      topic.wide = true;
    }
  }

  /** Unsubscribes from the graph and closes every client with 1001 "going away". */
  stop(): void {
    for (const ws of [...this.clients]) ws.end(1001, 'hub stopping');
    for (const subscription of this.graphEvents) subscription.unsubscribe();
    this.stopDeliveries?.();
    this.entries.clear();
    for (const topic of this.topics.values()) {
      topic.nextTick?.unsubscribe();
      topic.goes?.unsubscribe();
    }
    this.scan?.unsubscribe();
    this.clients.clear();
    this.lagging.clear();
  }

  /** Clients, lagging clients and the largest send buffer now: for `GET /connections`. */
  stats(): { clients: number; lagging: number; largestSendBuffer: number } {
    let largest = 0;
    for (const ws of this.clients) largest = Math.max(largest, ws.getBufferedAmount());
    return { clients: this.clients.size, lagging: this.lagging.size, largestSendBuffer: largest };
  }

  /** Messages and bytes sent to clients since the start. */
  sent(): { messages: number; bytes: number } {
    return { messages: this.sentMessages, bytes: this.sentBytes };
  }

  /** What resumable topics keep for clients that come back, and how those fared (R-W3): for `/metrics`. */
  resumeStats(): { topics: number; messages: number; bytes: number; resumed: number; resynced: number; refused: number } {
    let [topics, messages, bytes] = [0, 0, 0];
    for (const topic of this.topics.values()) {
      if (!topic.replay) continue;
      topics++;
      messages += topic.replay.size;
      bytes += topic.replay.bytes;
    }
    return { topics, messages, bytes, ...this.comebacks };
  }

  /**
   * What the token a client brings back says of it (R-W3), before it is let in: one given
   * to another login or to other filters or options is `foreign`, and refused; undefined
   * for a client that brings none.
   */
  checkResume(client: WsClient): TokenCheck | undefined {
    const token = client.resume?.token;
    if (token === undefined) return undefined;
    const check = this.tokens.check(token, topicKeyOf(client));
    if (check === 'foreign') this.comebacks.refused++;
    return check;
  }

  /** Subscribes a new client: snapshot first (see `continueSnapshot`), then changes; a client that came back, what it missed. */
  join(ws: WsSocket): void {
    const client = ws.getUserData();
    const key = topicKeyOf(client);
    let topic = this.topics.get(key);
    if (!topic) {
      // On the rate ladder, however the client was made: the topics of one filter set stay few.
      const maxHz = rateAtOrBelow(client.maxHz) ?? rateLadder[0];
      const { filters, access, batch, origins } = client;
      topic = new Topic(`t${++this.topicCount}`, key, filters, access, batch, maxHz > 0 ? 1000 / maxHz : 0, origins);
      if (client.resume) {
        topic.replay = new ReplayBuffer(this.options.resume ?? defaultResumeLimits, this.changeCount, this.replayBudget);
        topic.token = this.tokens.tokenFor(key);
      }
      this.topics.set(key, topic);
      this.topicsVersion++;
    }
    if (topic.goes) {
      topic.goes.unsubscribe();
      topic.goes = undefined;
      this.idleTopics.delete(topic);
    }
    topic.members++;
    client.topic = topic;
    this.clients.add(ws);
    if (client.resume?.token !== undefined && this.resumed(ws, client.resume.token, client.resume.seq)) return;
    if (!topic.matched && !topic.wide && !(topic.passesAll && this.serverFilters.length === 0)) {
      // Its snapshot begins once the topic knows its parameters.
      topic.waiting.push(ws);
      if (!topic.finding) {
        topic.finding = { rest: this.graph.readings(), found: [], removals: this.removals };
        this.find(topic);
      }
      return;
    }
    // What this turn changed is in the snapshot: the members have it now, not the newcomer twice.
    this.flush(topic);
    this.sendSnapshot(ws, -1);
  }

  /**
   * Finds the parameters a topic's filters pass, in slices of a few milliseconds (each
   * parameter tested once, however many clients share the filters), then starts the
   * snapshots of the clients waiting for them. It reads, as a listing does: no row of a
   * table is made. Past `MATCHED_AT_MOST` it stops: the topic is wide.
   */
  private find(topic: Topic): void {
    const finding = topic.finding;
    if (!finding || this.topics.get(topic.key) !== topic) return;
    const started = performance.now();
    let wide = false;
    for (let count = 1; ; count++) {
      const next = finding.rest.next();
      if (next.done) break;
      if (this.passes(topic, next.value.address)) {
        if (finding.found.length === MATCHED_AT_MOST) {
          wide = true;
          break;
        }
        finding.found.push(next.value);
      }
      if (count % SLICE_CHECK_EVERY === 0 && performance.now() - started > SLICE_MS) {
        afterTurn(() => this.find(topic));
        return;
      }
    }
    // One found and removed before the end is left out now, once, rather than looked for in every snapshot.
    topic.matched = wide
      ? undefined
      : finding.removals === this.removals
        ? finding.found
        : finding.found.filter((reading) => this.graph.current(reading) !== undefined);
    topic.wide = wide;
    topic.finding = undefined;
    this.flush(topic);
    for (const ws of topic.waiting.splice(0)) this.sendSnapshot(ws, -1);
  }

  leave(ws: WsSocket): void {
    this.clients.delete(ws);
    this.lagging.delete(ws);
    const client = ws.getUserData();
    const topic = client.topic;
    const waiting = topic?.waiting.indexOf(ws) ?? -1;
    if (waiting >= 0) topic?.waiting.splice(waiting, 1);
    this.endSnapshot(client);
    topic?.listening.delete(ws);
    if (!topic || --topic.members > 0) return;
    const window = this.options.resume?.window ?? defaultResumeLimits.window;
    if (topic.replay && window > 0) this.idle(topic, window);
    else this.drop(topic);
  }

  /**
   * A client that came back with its token and the last `seq` it received (R-W3): when the
   * topic still holds everything it sent after that `seq`, the client is greeted, sent
   * exactly that (conflated for a rate-limited client) and joins the stream: true. Else
   * false: it gets `{"event":"resync"}` and a snapshot.
   */
  private resumed(ws: WsSocket, token: string, seq: number | undefined): boolean {
    const client = ws.getUserData();
    const topic = client.topic as Topic;
    client.resynced = true;
    // The turn's messages go to the members now; the replay holds them for this client.
    this.flush(topic);
    const missed =
      seq !== undefined && seq <= this.changeCount && this.tokens.check(token, topic.key) === 'ours'
        ? topic.replay?.since(seq, topic.interval > 0, this.options.scheduler.now())
        : undefined;
    if (!missed) {
      this.comebacks.resynced++;
      return false;
    }
    this.comebacks.resumed++;
    ws.send(greeting(topic.token, seq as number));
    this.sendSnapshot(ws, seq as number, missed.messages);
    return true;
  }

  /** A resumable topic whose clients all left waits `window` for one to come back, still keeping what it would send. */
  private idle(topic: Topic, window: number): void {
    topic.goes = after(this.options.scheduler, window, () => this.drop(topic));
    this.idleTopics.add(topic);
    if (this.idleTopics.size > WAITING_TOPICS_AT_MOST) this.drop(this.idleTopics.values().next().value as Topic);
  }

  private drop(topic: Topic): void {
    topic.goes?.unsubscribe();
    topic.replay?.clear();
    this.idleTopics.delete(topic);
    this.topics.delete(topic.key);
    this.topicsVersion++;
    topic.nextTick?.unsubscribe();
  }

  /** uWS reports that a client's send buffer shrank: a lagging client may be ready again. */
  drained(ws: WsSocket): void {
    const client = ws.getUserData();
    if (client.snapshot) this.continueSnapshot(ws);
    else if (client.lagging) this.resumeIfDrained(ws);
  }

  /** Whether the server's filters let the parameter at `address` out at all. */
  private exposes(address: string): boolean {
    return this.serverFilters.length === 0 || this.serverFilters.some((filter) => filter.test(address));
  }

  /** Whether the topic's clients are sent the parameter at `address`. */
  private passes(topic: Topic, address: string): boolean {
    return this.exposes(address) && topic.matches(address);
  }

  /** The parameter's entry, made at its first change; undefined for one no longer in the graph. */
  private entryOf(parameter: Parameter): Entry | undefined {
    const address = parameter.address;
    let entry = this.entries.get(address);
    if (entry === undefined || entry.parameter !== parameter) {
      if (this.graph.get(address) !== parameter) return undefined;
      const prefix = this.exposes(address) ? prefixOf(address) : '';
      entry = { parameter, prefix, message: undefined, topics: NO_TOPICS, topicsVersion: -1, changedAt: 0 };
      this.entries.set(address, entry);
    }
    return entry;
  }

  private topicsOf(entry: Entry): readonly Topic[] {
    if (entry.topicsVersion !== this.topicsVersion) {
      entry.topicsVersion = this.topicsVersion;
      const address = entry.parameter.address;
      entry.topics = [...this.topics.values()].filter((topic) => topic.matches(address));
    }
    return entry.topics;
  }

  private untrack(address: string): void {
    const entry = this.entries.get(address);
    if (!entry) return;
    for (const topic of entry.topics) topic.held.delete(entry);
    this.entries.delete(address);
  }

  private changed(parameter: Parameter, value: Value): void {
    const entry = this.entryOf(parameter);
    if (entry === undefined || entry.prefix === '') return;
    const message = messageOf(entry.prefix, value);
    entry.changedAt = ++this.changeCount;
    if (parameter.type !== 'T') entry.message = message;
    this.fanOut(this.topicsOf(entry), message, parameter.lastChange, entry.changedAt, entry);
  }

  /**
   * A table's rows, defined while clients are connected (a reload): as `appeared`, but read
   * as they are, none made — a table of a million rows made a million parameters here. Each
   * value goes out once; a row that changes later is made then, as any.
   */
  private appearedRows(rows: Iterable<Reading>): void {
    if (this.topics.size === 0) return;
    const topics = [...this.topics.values()];
    for (const row of rows) {
      const address = row.address;
      for (const topic of topics) if (topic.matched && this.passes(topic, address)) this.keepMatched(topic, row);
      if (row.value === undefined || !this.exposes(address)) continue;
      const message = messageOf(prefixOf(address), row.value);
      this.fanOut(
        topics.filter((topic) => topic.matches(address)),
        message,
        row.lastChange,
        ++this.changeCount,
        address,
      );
    }
  }

  /**
   * A change's message to each of `topics`, with who made it for `origins` topics and its
   * `seq` for resumable ones — each made once, and only when a topic asks: `{p, v}` clients pay
   * nothing for them. Kept for clients that may come back; held for a rate-limited topic's
   * tick by the parameter's entry (a row without one goes at once).
   */
  private fanOut(topics: readonly Topic[], message: string, last: LastChange | undefined, seq: number, key: Entry | string): void {
    if (topics.length === 0) return;
    let originMessage: string | undefined;
    let seqMessage: string | undefined;
    let seqOriginMessage: string | undefined;
    let now: number | undefined;
    for (let i = 0; i < topics.length; i++) {
      const topic = topics[i] as Topic;
      let sent = topic.origins ? (originMessage ??= withOrigin(message, last)) : message;
      if (topic.replay) {
        sent = topic.origins ? (seqOriginMessage ??= withSeq(sent, seq)) : (seqMessage ??= withSeq(message, seq));
        topic.replay.push(seq, key, sent, (now ??= this.options.scheduler.now()));
        // Waiting for a client to come back: kept, sent to nobody.
        if (topic.members === 0) continue;
      }
      if (topic.interval > 0 && typeof key !== 'string') this.hold(topic, key, sent);
      else this.send(topic, sent);
    }
    this.publishedSinceScan = true;
    this.scan ??= after(this.options.scheduler, this.options.scanIntervalMs, () => this.checkBuffers());
  }

  /**
   * What a snapshot sends of a parameter, when the topic sends it and it has not changed
   * after `until` (then the change follows the snapshot): the message of its last change,
   * or the parameter itself when it has not changed since the hub started (its message is
   * made as it is sent, not kept for each of a million). `matched`: it comes from the
   * topic's `matched`, which passes the filters; `live`: it is in the graph (false when a
   * parameter was removed since the snapshot began: it may be this one).
   */
  private snapshotPart(
    topic: Topic,
    parameter: Reading,
    since: number,
    until: number,
    matched: boolean,
    live: boolean,
  ): string | Reading | undefined {
    const part = this.snapshotValue(topic, parameter, since, until, matched, live);
    if (!topic.origins || part === undefined) return part;
    const message = typeof part === 'string' ? part : messageOf(prefixOf(part.address), part.value as Value);
    return withOrigin(message, parameter.lastChange);
  }

  /** `snapshotPart` without who changed it. */
  private snapshotValue(
    topic: Topic,
    parameter: Reading,
    since: number,
    until: number,
    matched: boolean,
    live: boolean,
  ): string | Reading | undefined {
    const address = parameter.address;
    const entry = this.entries.get(address);
    if (entry !== undefined && entry.parameter === parameter) {
      if (entry.changedAt <= since || entry.changedAt > until || entry.prefix === '') return undefined;
      return matched || topic.matches(address) ? entry.message : undefined;
    }
    if (since >= 0 || parameter.value === undefined) return undefined;
    if (matched ? !live && this.graph.current(parameter) !== parameter : !this.passes(topic, address)) return undefined;
    return parameter;
  }

  /**
   * A message for a topic's clients, sent with the turn's others when the turn ends. Not at
   * once: changes come from inside uWS's handlers (a client's WebSocket message, an HTTP
   * write), where uWS holds its one cork buffer for that client, and publishing there wrote
   * every message to every other client with a system call of its own — a batch of 100
   * writes to 200 clients took 20,000 sends instead of 800.
   */
  private send(topic: Topic, message: string): void {
    if (topic.snapshots.size > 0) for (const client of topic.snapshots) this.queueBehindSnapshot(client, message);
    if (topic.pending.length === 0) this.sendWhenTurnEnds(topic);
    topic.pending.push(message);
  }

  /** Hands one message to uWS for every client of the topic, counted for `/metrics`. */
  private publishTo(topic: Topic, message: string): void {
    this.publish(topic.name, message);
    this.sentMessages += topic.listening.size;
    this.sentBytes += topic.listening.size * message.length;
  }

  /**
   * R-W2: a rate-limited topic sends on ticks at least its interval apart, each with the
   * latest message of every parameter that changed since the one before (one per parameter,
   * so memory stays bounded and the last value always arrives). A change after a quiet
   * interval goes out at once (with whatever else changes before the next timer turn).
   * Ticking per topic rather than per parameter is what makes the limit cheap: however many
   * parameters change, a client is written to at most n times a second (see `sendEach`).
   */
  private hold(topic: Topic, entry: Entry, message: string): void {
    // A resumable topic's tick goes in the order of last changes, so its `seq`s only grow.
    if (topic.replay) topic.held.delete(entry);
    topic.held.set(entry, message);
    if (topic.nextTick) return;
    const wait = Math.max(0, topic.lastTick + topic.interval - this.options.scheduler.now());
    topic.nextTick = after(this.options.scheduler, wait, () => this.tick(topic));
  }

  private tick(topic: Topic): void {
    topic.nextTick = undefined;
    topic.lastTick = this.options.scheduler.now();
    for (const message of topic.held.values()) this.send(topic, message);
    topic.held.clear();
  }

  /**
   * Many single messages at once to a topic's clients: each client gets them in one corked
   * write, each message encoded once for all. (Through `publish`, uWS would write them 32
   * at a time: 4 sends a client for a tick of 100.)
   */
  private sendEach(topic: Topic, messages: readonly string[]): void {
    if (topic.listening.size === 0) return;
    const encoded = messages.map((message) => Buffer.from(message));
    const bytes = encoded.reduce((sum, message) => sum + message.length, 0);
    for (const ws of topic.listening) {
      ws.cork(() => {
        for (const message of encoded) ws.send(message);
      });
    }
    this.sentMessages += topic.listening.size * messages.length;
    this.sentBytes += topic.listening.size * bytes;
  }

  private sendWhenTurnEnds(topic: Topic): void {
    if (this.waiting.size === 0) (this.options.afterTurn ?? afterTurn)(() => this.flushAll());
    this.waiting.add(topic);
  }

  private flushAll(): void {
    for (const topic of this.waiting) this.flush(topic);
    this.waiting.clear();
  }

  /**
   * Sends a topic's waiting messages: a batch topic's as one array (serialised once, handed
   * to uWS once), many at once to each client in one write, a few through `publish`.
   */
  private flush(topic: Topic): void {
    const messages = topic.pending;
    if (messages.length === 0) return;
    topic.pending = [];
    if (topic.batch) this.publishTo(topic, `[${messages.join(',')}]`);
    else if (messages.length > PUBLISH_AT_MOST) this.sendEach(topic, messages);
    else for (const message of messages) this.publishTo(topic, message);
  }

  /**
   * Sends the current value of every parameter of the client's topic changed after `since`,
   * then subscribes it: at once when that fits in one slice, else slice by slice. With
   * `replay` (R-W3), those messages instead of values: what a resumable topic sent after
   * `since`. A full snapshot to a resumable topic's client begins with its greeting.
   */
  private sendSnapshot(ws: WsSocket, since: number, replay?: string[]): void {
    const client = ws.getUserData();
    const topic = client.topic;
    if (!topic) return;
    const matched = topic.matched !== undefined;
    const rest = replay ? NO_READINGS : topic.matched ? topic.matched.values() : this.graph.readings();
    const mark = topic.replay !== undefined && !replay;
    if (mark && since < 0) {
      ws.cork(() => {
        if (client.resynced) ws.send(resync);
        ws.send(greeting(topic.token, this.changeCount));
      });
      client.resynced = true;
    }
    client.snapshot = {
      ws,
      since,
      // A replay is sent as a queue: a client cut off from it missed what follows `since`.
      began: replay ? since : this.changeCount,
      rest,
      matched,
      removals: this.removals,
      mark,
      done: replay !== undefined,
      queue: replay ?? [],
      next: 0,
      queuedBytes: 0,
      bytes: 0,
    };
    topic.snapshots.add(client);
    this.continueSnapshot(ws);
  }

  /**
   * One slice of a client's snapshot: values until the slice's time is up or the client's
   * buffer is full (then it goes on when uWS reports it drained), then what was queued
   * behind it. The client is subscribed in the same synchronous turn as the last message,
   * so nothing falls between the two and nothing arrives out of order.
   */
  private continueSnapshot(ws: WsSocket): void {
    const client = ws.getUserData();
    const { snapshot, topic } = client;
    if (!snapshot || !topic) return;
    const started = performance.now();
    let full = false;
    ws.cork(() => {
      const batch = topic.batch ? this.batchWriter : undefined;
      let bytes = 0;
      let messages = 0;
      const put = (message: string) => {
        if (batch) batch.message(message);
        else {
          ws.send(message);
          bytes += message.length;
          messages++;
        }
      };
      const sendBatch = () => {
        const sent = batch?.sendTo(ws) ?? 0;
        bytes += sent;
        if (sent > 0) messages++;
      };
      for (let count = 1; ; count++) {
        if (!snapshot.done) {
          const next = snapshot.rest.next();
          if (next.done) {
            snapshot.done = true;
            if (snapshot.mark) {
              // The values first, then where they stand: what the queue holds follows that `seq`.
              sendBatch();
              batch ? ws.send(seqMark(snapshot.began)) : put(seqMark(snapshot.began));
              if (batch) messages++;
            }
          } else {
            // A row kept since the filters found it may have been made (and changed) or removed since.
            const reading = snapshot.matched ? this.graph.current(next.value) : next.value;
            // Changed since the snapshot began: its changes are in the queue.
            const part =
              reading &&
              this.snapshotPart(topic, reading, snapshot.since, snapshot.began, snapshot.matched, snapshot.removals === this.removals);
            if (typeof part === 'string') put(part);
            // Its value is known: `snapshotPart` leaves out the unknown.
            else if (part !== undefined && batch) batch.value(part.address, part.value as Value);
            else if (part !== undefined) put(messageOf(prefixOf(part.address), part.value as Value));
          }
        } else if (snapshot.next < snapshot.queue.length) {
          put(snapshot.queue[snapshot.next++] as string);
        } else break;
        if (count % SLICE_CHECK_EVERY === 0) {
          full = ws.getBufferedAmount() > this.options.lagLimit;
          if (full || performance.now() - started > SLICE_MS) break;
        }
      }
      sendBatch();
      snapshot.bytes += bytes;
      this.sentBytes += bytes;
      this.sentMessages += messages;
      if (snapshot.done && snapshot.next === snapshot.queue.length) {
        // The turn's waiting messages were queued behind this snapshot: they go to the others first.
        this.flush(topic);
        ws.subscribe(topic.name);
      }
    });
    if (!snapshot.done || snapshot.next < snapshot.queue.length) {
      // A full buffer waits for uWS to report it drained; otherwise the next turn goes on.
      if (!full) afterTurn(() => client.snapshot === snapshot && this.continueSnapshot(ws));
      return;
    }
    this.endSnapshot(client);
    topic.listening.add(ws);
    client.snapshotBytes = snapshot.bytes;
    client.lagging = false;
  }

  /**
   * A message the client's topic sends while its snapshot is under way. A queue that grows
   * past the lag limit means the client cannot keep up: it is taken off as a lagging client
   * would be, and sent what it missed once it has drained.
   */
  private queueBehindSnapshot(client: WsClient, message: string): void {
    const snapshot = client.snapshot;
    if (!snapshot) return;
    snapshot.queue.push(message);
    snapshot.queuedBytes += message.length;
    if (snapshot.queuedBytes <= this.options.lagLimit) return;
    this.endSnapshot(client);
    client.lagging = true;
    // What went is as of its start; with parameters still to go, they all go again. A
    // resumable topic's client missed what follows the last queued message it was sent.
    client.missedSince =
      client.topic?.replay && snapshot.next > 0
        ? seqOf(snapshot.queue[snapshot.next - 1] as string)
        : snapshot.done
          ? snapshot.began
          : snapshot.since;
    this.lagging.add(snapshot.ws);
    this.scan ??= after(this.options.scheduler, this.options.scanIntervalMs, () => this.checkBuffers());
  }

  private endSnapshot(client: WsClient): void {
    client.topic?.snapshots.delete(client);
    client.snapshot = undefined;
  }

  private checkBuffers(): void {
    this.scan = undefined;
    if (this.publishedSinceScan) {
      this.publishedSinceScan = false;
      for (const ws of this.clients) {
        const client = ws.getUserData();
        if (!client.lagging && !client.snapshot && ws.getBufferedAmount() > this.options.lagLimit + client.snapshotBytes)
          this.setLagging(ws);
      }
    }
    for (const ws of this.lagging) this.resumeIfDrained(ws);
    // Lagging clients that never read again are checked until they do or disconnect.
    if (this.lagging.size > 0) this.scan ??= after(this.options.scheduler, this.options.scanIntervalMs, () => this.checkBuffers());
  }

  private setLagging(ws: WsSocket): void {
    const client = ws.getUserData();
    client.lagging = true;
    // Below uWS's cap every message so far is queued for it; beyond, some may be lost.
    client.missedSince = ws.getBufferedAmount() < this.options.dropLimit ? this.changeCount : -1;
    if (client.topic) {
      ws.unsubscribe(client.topic.name);
      client.topic.listening.delete(ws);
    }
    this.lagging.add(ws);
  }

  private resumeIfDrained(ws: WsSocket): void {
    if (ws.getBufferedAmount() > this.options.lagLimit / 4) return;
    this.lagging.delete(ws);
    const client = ws.getUserData();
    const topic = client.topic;
    if (topic) this.flush(topic);
    // What it was sent before it lagged is on its way; only what changed since is missing:
    // replayed exactly, trigger fires too, when its topic keeps it (R-W3).
    const missed =
      client.missedSince >= 0 ? topic?.replay?.since(client.missedSince, topic.interval > 0, this.options.scheduler.now()) : undefined;
    if (missed) this.sendSnapshot(ws, client.missedSince, missed.messages);
    else this.sendSnapshot(ws, topic?.replay ? -1 : client.missedSince);
  }
}
