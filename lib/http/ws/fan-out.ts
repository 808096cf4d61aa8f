/**
 * The WebSocket fan-out of one rest-api connection (R-H3), shaped for thousands of clients
 * and a million parameters: it follows the graph's deliveries (not a subscription per
 * parameter), serialises each change once and hands it to uWS `publish` once per topic (a
 * filter set its clients share). This file builds its parts, each given at construction the
 * lower ones it calls (what happens upwards comes back as an Observable), joins and lets go
 * of clients, and turns each change into its topics' messages.
 *
 * It never touches uWS itself: sockets come as `WsSocket` and fan-out goes through the
 * injected `publish`, so specs drive it with fakes (spec/http/ws/fan-out.spec.ts).
 */
import type { Subscription } from 'rxjs';
import type { Graph, Reading } from '../../core/graph.ts';
import type { LastChange, Parameter } from '../../core/parameter.ts';
import type { Pattern } from '../../core/regex.ts';
import { afterTurn } from '../../core/scheduler.ts';
import type { Value } from '../../core/value.ts';
import { Changes } from './changes.ts';
import { type LagLimits, LagWatch } from './lag.ts';
import { Matching } from './matching.ts';
import { greeting, messageOf, prefixOf, withOrigin } from './messages.ts';
import { Outbox } from './outbox.ts';
import { type ResumeLimits, type TokenCheck, withSeq } from './resume.ts';
import { Sending } from './sending.ts';
import { Snapshots } from './snapshots.ts';
import type { Entry, Member, Topic, WsClient, WsSocket } from './state.ts';
import { Topics } from './topics.ts';

export interface WsFanOutOptions extends LagLimits {
  /** Runs work once the turn's I/O is done (`afterTurn`); specs pass their virtual clock's. */
  readonly afterTurn?: (work: () => void) => void;
  /** What a resumable topic keeps for clients that come back (R-W3). */
  readonly resume?: ResumeLimits;
}

export class WsFanOut {
  /** Every client that joined and has not left. */
  private readonly members = new Map<WsSocket, Member>();
  private readonly graphEvents: Subscription[] = [];
  private stopDeliveries: (() => void) | undefined;
  private readonly topics: Topics;
  private readonly changes: Changes;
  private readonly outbox: Outbox;
  private readonly snapshots: Snapshots;
  private readonly lag: LagWatch;
  private readonly sending: Sending;
  private readonly matching: Matching;

  constructor(
    private readonly graph: Graph,
    serverFilters: readonly Pattern[],
    publish: (topic: string, message: string) => void,
    private readonly options: WsFanOutOptions,
  ) {
    // Lowest first: each part is handed only parts made before it.
    this.topics = new Topics(serverFilters, options.scheduler, options.resume);
    this.changes = new Changes(graph, this.topics);
    this.outbox = new Outbox(publish, options.afterTurn ?? afterTurn);
    this.snapshots = new Snapshots(graph, this.topics, this.changes, this.outbox, options.lagLimit);
    this.lag = new LagWatch(options, this.members, this.changes, this.outbox, this.snapshots);
    this.sending = new Sending(this.outbox, this.snapshots, options.scheduler, this.topics.dropped$);
    this.matching = new Matching(graph, this.topics, this.changes, this.outbox, this.snapshots);
  }

  start(): void {
    this.stopDeliveries = this.graph.hooks.onDelivery((parameter, value) => this.changed(parameter, value));
    this.graphEvents.push(
      this.graph.added$.subscribe((parameter) => this.appeared([parameter])),
      this.graph.removed$.subscribe((parameter) => this.gone([parameter])),
      this.graph.tables$.subscribe((table) => (table.added ? this.appearedRows(table.readings()) : this.gone(table.parameters()))),
      // Unknown again: a client that joins now gets no value for it in its snapshot.
      this.graph.forgotten$.subscribe((parameter) => this.changes.forget(parameter.address)),
    );
  }

  /** Unsubscribes from the graph and closes every client with 1001 "going away". */
  stop(): void {
    this.outbox.stop();
    for (const ws of [...this.members.keys()]) ws.end(1001, 'hub stopping');
    for (const subscription of this.graphEvents) subscription.unsubscribe();
    this.stopDeliveries?.();
    this.changes.clear();
    this.topics.stop();
    this.sending.stop();
    this.lag.stop();
    this.members.clear();
  }

  /** Clients, lagging clients and the largest send buffer now: for `GET /connections`. */
  stats(): { clients: number; lagging: number; largestSendBuffer: number } {
    let largest = 0;
    for (const ws of this.members.keys()) largest = Math.max(largest, ws.getBufferedAmount());
    return { clients: this.members.size, lagging: this.lag.size, largestSendBuffer: largest };
  }

  /** Messages and bytes sent to clients since the start, snapshots included. */
  sent(): { messages: number; bytes: number } {
    const published = this.outbox.sent();
    const snapshots = this.snapshots.sent();
    return { messages: published.messages + snapshots.messages, bytes: published.bytes + snapshots.bytes };
  }

  /** What resumable topics keep for clients that come back, and how those fared (R-W3): for `/metrics`. */
  resumeStats(): ReturnType<Topics['resumeStats']> {
    return this.topics.resumeStats();
  }

  /** What the token a client brings back says of it (R-W3), before it is let in (see `Topics.checkResume`). */
  checkResume(client: WsClient): TokenCheck | undefined {
    return this.topics.checkResume(client);
  }

  /** Subscribes a new client: snapshot first (see `Snapshots`), then changes; a client that came back, what it missed. */
  join(ws: WsSocket): void {
    const client = ws.getUserData();
    const member: Member = { ws, client, topic: this.topics.enter(client, this.changes.count) };
    this.members.set(ws, member);
    if (client.resume?.token !== undefined && this.resumed(member, client.resume.token, client.resume.seq)) return;
    // Its snapshot begins once the topic knows its parameters.
    if (!this.matching.ready(member.topic)) return this.matching.await(member);
    // What this turn changed is in the snapshot: the members have it now, not the newcomer twice.
    this.outbox.flush(member.topic);
    this.snapshots.send(member, -1);
  }

  /**
   * Sends now what this turn has for the client's topic, so that an answer to the client's
   * write follows the changes that came before it (R-PK9): a device's report and its refusal
   * in one turn (one packet, or one message across a package's process wall) reach it in
   * that order. A rate-limited topic's held changes still wait for its tick.
   */
  sendPending(ws: WsSocket): void {
    const member = this.members.get(ws);
    if (member !== undefined) this.outbox.flush(member.topic);
  }

  leave(ws: WsSocket): void {
    const member = this.members.get(ws);
    if (member === undefined) return;
    this.members.delete(ws);
    this.lag.left(member);
    this.matching.left(member);
    this.snapshots.left(member);
    this.outbox.left(member.topic, ws);
    this.topics.left(member.topic);
  }

  /** uWS reports that a client's send buffer shrank: its snapshot goes on, or a lagging client may be ready again. */
  drained(ws: WsSocket): void {
    const member = this.members.get(ws);
    if (member === undefined) return;
    if (this.snapshots.underWay(member)) this.snapshots.continue(member);
    else this.lag.drained(member);
  }

  /**
   * A client that came back with its token and the last `seq` it received (R-W3): when the
   * topic still holds everything it sent after that `seq`, the client is greeted, sent
   * exactly that (conflated for a rate-limited client) and joins the stream: true. Else
   * false: it gets `{"event":"resync"}` and a snapshot.
   */
  private resumed(member: Member, token: string, seq: number | undefined): boolean {
    const { ws, topic } = member;
    // The turn's messages go to the members now; the replay holds them for this client.
    this.outbox.flush(topic);
    const missed = this.topics.missedBy(topic, token, seq, this.changes.count);
    if (!missed) return false;
    ws.send(greeting(topic.token, seq as number));
    this.snapshots.send(member, seq as number, missed.messages);
    return true;
  }

  /**
   * Parameters added while clients are connected stream their values to them; later
   * clients find them in their snapshot. Without clients a table's are not even made.
   */
  private appeared(parameters: Iterable<Parameter>): void {
    if (this.topics.size === 0) return;
    for (const parameter of parameters) {
      this.matching.added(parameter);
      if (parameter.value !== undefined) this.changed(parameter, parameter.value);
    }
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
      this.matching.added(row);
      if (row.value === undefined || !this.topics.exposes(address)) continue;
      const message = messageOf(prefixOf(address), row.value);
      this.fanOut(
        topics.filter((topic) => topic.matches(address)),
        message,
        row.lastChange,
        this.changes.nextSeq(),
        address,
      );
    }
  }

  /** Parameters removed: topics find theirs again, and those that changed are no longer kept nor held for a tick. */
  private gone(parameters: Iterable<Parameter>): void {
    this.sending.forget(this.changes.remove(parameters));
    this.matching.forget();
  }

  private changed(parameter: Parameter, value: Value): void {
    const entry = this.changes.entryOf(parameter);
    if (entry === undefined || entry.prefix === '') return;
    const message = messageOf(entry.prefix, value);
    // A trigger's fire is sent, never kept as its value.
    const seq = this.changes.changed(entry, parameter.type === 'T' ? undefined : message);
    this.fanOut(this.changes.topicsOf(entry), message, parameter.lastChange, seq, entry);
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
      if (topic.interval > 0 && typeof key !== 'string') this.sending.hold(topic, key, sent);
      else this.sending.send(topic, sent);
    }
    this.lag.published();
  }
}
