/**
 * Snapshots: the current value of every parameter a client's topic sends, or what a
 * resumable topic sent since the client's last `seq` (R-W3), sent in slices of a few
 * milliseconds and followed by what the topic sent meanwhile; the client joins the stream
 * in the turn its last message goes, so nothing falls between and nothing arrives out of
 * order.
 */
import type { Graph, Reading } from '../../core/graph.ts';
import { afterTurn } from '../../core/scheduler.ts';
import type { Value } from '../../core/value.ts';
import { SLICE_MS } from '../stream.ts';
import { BatchWriter } from './batch-writer.ts';
import type { Changes } from './changes.ts';
import { greeting, messageOf, prefixOf, resync, seqMark, withOrigin } from './messages.ts';
import { seqOf } from './resume.ts';
import type { Sending } from './sending.ts';
import { SLICE_CHECK_EVERY, type Topic, type WsClient, type WsSocket } from './state.ts';
import type { Topics } from './topics.ts';

/** The parameters a replay goes through: none, its messages are all in the queue. */
const NO_READINGS: Iterator<Reading> = { next: () => ({ done: true, value: undefined }) };

export class Snapshots {
  /** Where a slice of a batch snapshot is written: one buffer for every client, one slice at a time. */
  private readonly batchWriter = new BatchWriter();

  constructor(
    private readonly graph: Graph,
    private readonly topics: Topics,
    private readonly changes: Changes,
    private readonly sending: Sending,
    /** A client whose send buffer holds more than this (beyond its snapshot) stops getting changes. */
    private readonly lagLimit: number,
    /** A client whose queue behind its snapshot outgrew `lagLimit`: it is lagging now, and catches up once drained. */
    private readonly lagged: (ws: WsSocket) => void,
  ) {}

  /**
   * Sends the current value of every parameter of the client's topic changed after `since`,
   * then subscribes it: at once when that fits in one slice, else slice by slice. With
   * `replay` (R-W3), those messages instead of values: what a resumable topic sent after
   * `since`. A full snapshot to a resumable topic's client begins with its greeting.
   */
  send(ws: WsSocket, since: number, replay?: string[]): void {
    const client = ws.getUserData();
    const topic = client.topic;
    if (!topic) return;
    const matched = topic.matched !== undefined;
    const rest = replay ? NO_READINGS : topic.matched ? topic.matched.values() : this.graph.readings();
    const mark = topic.replay !== undefined && !replay;
    if (mark && since < 0) {
      ws.cork(() => {
        if (client.resynced) ws.send(resync);
        ws.send(greeting(topic.token, this.changes.count));
      });
      client.resynced = true;
    }
    client.snapshot = {
      ws,
      since,
      // A replay is sent as a queue: a client cut off from it missed what follows `since`.
      began: replay ? since : this.changes.count,
      rest,
      matched,
      removals: this.changes.removals,
      mark,
      done: replay !== undefined,
      queue: replay ?? [],
      next: 0,
      queuedBytes: 0,
      bytes: 0,
    };
    topic.snapshots.add(client);
    this.continue(ws);
  }

  /**
   * One slice of a client's snapshot: values until the slice's time is up or the client's
   * buffer is full (then it goes on when uWS reports it drained), then what was queued
   * behind it. The client is subscribed in the same synchronous turn as the last message,
   * so nothing falls between the two and nothing arrives out of order.
   */
  continue(ws: WsSocket): void {
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
              this.part(topic, reading, snapshot.since, snapshot.began, snapshot.matched, snapshot.removals === this.changes.removals);
            if (typeof part === 'string') put(part);
            // Its value is known: `part` leaves out the unknown.
            else if (part !== undefined && batch) batch.value(part.address, part.value as Value);
            else if (part !== undefined) put(messageOf(prefixOf(part.address), part.value as Value));
          }
        } else if (snapshot.next < snapshot.queue.length) {
          put(snapshot.queue[snapshot.next++] as string);
        } else break;
        if (count % SLICE_CHECK_EVERY === 0) {
          full = ws.getBufferedAmount() > this.lagLimit;
          if (full || performance.now() - started > SLICE_MS) break;
        }
      }
      sendBatch();
      snapshot.bytes += bytes;
      this.sending.count(messages, bytes);
      if (snapshot.done && snapshot.next === snapshot.queue.length) {
        // The turn's waiting messages were queued behind this snapshot: they go to the others first.
        this.sending.flush(topic);
        ws.subscribe(topic.name);
      }
    });
    if (!snapshot.done || snapshot.next < snapshot.queue.length) {
      // A full buffer waits for uWS to report it drained; otherwise the next turn goes on.
      if (!full) afterTurn(() => client.snapshot === snapshot && this.continue(ws));
      return;
    }
    this.end(client);
    topic.listening.add(ws);
    client.snapshotBytes = snapshot.bytes;
    client.lagging = false;
  }

  /**
   * A message the client's topic sends while its snapshot is under way. A queue that grows
   * past the lag limit means the client cannot keep up: it is taken off as a lagging client
   * would be, and sent what it missed once it has drained.
   */
  queueBehind(client: WsClient, message: string): void {
    const snapshot = client.snapshot;
    if (!snapshot) return;
    snapshot.queue.push(message);
    snapshot.queuedBytes += message.length;
    if (snapshot.queuedBytes <= this.lagLimit) return;
    this.end(client);
    client.lagging = true;
    // What went is as of its start; with parameters still to go, they all go again. A
    // resumable topic's client missed what follows the last queued message it was sent.
    client.missedSince =
      client.topic?.replay && snapshot.next > 0
        ? seqOf(snapshot.queue[snapshot.next - 1] as string)
        : snapshot.done
          ? snapshot.began
          : snapshot.since;
    this.lagged(snapshot.ws);
  }

  /** The client's snapshot is over (sent, cut off, or the client left). */
  end(client: WsClient): void {
    client.topic?.snapshots.delete(client);
    client.snapshot = undefined;
  }

  /**
   * What a snapshot sends of a parameter, when the topic sends it and it has not changed
   * after `until` (then the change follows the snapshot): the message of its last change,
   * or the parameter itself when it has not changed since the hub started (its message is
   * made as it is sent, not kept for each of a million). `matched`: it comes from the
   * topic's `matched`, which passes the filters; `live`: it is in the graph (false when a
   * parameter was removed since the snapshot began: it may be this one).
   */
  private part(
    topic: Topic,
    parameter: Reading,
    since: number,
    until: number,
    matched: boolean,
    live: boolean,
  ): string | Reading | undefined {
    const part = this.value(topic, parameter, since, until, matched, live);
    if (!topic.origins || part === undefined) return part;
    const message = typeof part === 'string' ? part : messageOf(prefixOf(part.address), part.value as Value);
    return withOrigin(message, parameter.lastChange);
  }

  /** `part` without who changed it. */
  private value(
    topic: Topic,
    parameter: Reading,
    since: number,
    until: number,
    matched: boolean,
    live: boolean,
  ): string | Reading | undefined {
    const address = parameter.address;
    const entry = this.changes.at(address);
    if (entry !== undefined && entry.parameter === parameter) {
      if (entry.changedAt <= since || entry.changedAt > until || entry.prefix === '') return undefined;
      return matched || topic.matches(address) ? entry.message : undefined;
    }
    if (since >= 0 || parameter.value === undefined) return undefined;
    if (matched ? !live && this.graph.current(parameter) !== parameter : !this.topics.passes(topic, address)) return undefined;
    return parameter;
  }
}
