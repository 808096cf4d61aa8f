/**
 * Snapshots: the current value of every parameter a client's topic sends, or what a
 * resumable topic sent since the client's last `seq` (R-W3), sent in slices of a few
 * milliseconds and followed by what the topic sent meanwhile; the client joins the stream
 * in the turn its last message goes, so nothing falls between and nothing arrives out of
 * order. A client whose queue behind its snapshot outgrows the lag limit is cut off and
 * said so on `cutOff$`.
 */
import { type Observable, Subject } from 'rxjs';
import type { Graph, Reading } from '../../core/graph.ts';
import { afterTurn } from '../../core/scheduler.ts';
import type { Value } from '../../core/value.ts';
import { SLICE_MS } from '../stream.ts';
import { BatchWriter } from './batch-writer.ts';
import type { Changes } from './changes.ts';
import { greeting, messageOf, prefixOf, resync, seqMark, withOrigin } from './messages.ts';
import type { Outbox } from './outbox.ts';
import { seqOf } from './resume.ts';
import { type Member, SLICE_CHECK_EVERY, type Snapshot, type Topic } from './state.ts';
import type { Topics } from './topics.ts';

/** The parameters a replay goes through: none, its messages are all in the queue. */
const NO_READINGS: Iterator<Reading> = { next: () => ({ done: true, value: undefined }) };

/** What snapshots keep of a client between its join and its leaving. */
interface Feed {
  /** The snapshot being sent to it, while it is sent in slices; it joins the stream at its end. */
  snapshot: Snapshot | undefined;
  /** Bytes of the last snapshot sent: a client is not lagging just because a large snapshot is in flight. */
  lastBytes: number;
  /** A resume client that was sent a snapshot already, or came back and could not resume: its next snapshot follows `{"event":"resync"}`. */
  resynced: boolean;
}

/** A client cut off from its snapshot, and the point it missed what followed from (a change count, or a resumable topic's `seq`). */
export interface CutOff {
  readonly member: Member;
  readonly missedSince: number;
}

export class Snapshots {
  /** Where a slice of a batch snapshot is written: one buffer for every client, one slice at a time. */
  private readonly batchWriter = new BatchWriter();
  private readonly feeds = new Map<Member, Feed>();
  private readonly cuts = new Subject<CutOff>();
  /** Clients whose queue behind their snapshot outgrew the lag limit: taken off, to be caught up once drained. */
  readonly cutOff$: Observable<CutOff> = this.cuts.asObservable();
  private messages = 0;
  private bytes = 0;

  constructor(
    private readonly graph: Graph,
    private readonly topics: Topics,
    private readonly changes: Changes,
    private readonly outbox: Outbox,
    /** A client whose send buffer holds more than this (beyond its snapshot) stops getting changes. */
    private readonly lagLimit: number,
  ) {}

  /** Messages and their bytes sent to clients in snapshots since the start. */
  sent(): { messages: number; bytes: number } {
    return { messages: this.messages, bytes: this.bytes };
  }

  /** Whether a snapshot is being sent to the client. */
  underWay(member: Member): boolean {
    return this.feeds.get(member)?.snapshot !== undefined;
  }

  /** Bytes of the last snapshot the client was sent in full. */
  lastBytes(member: Member): number {
    return this.feeds.get(member)?.lastBytes ?? 0;
  }

  /**
   * Sends the current value of every parameter of the client's topic changed after `since`,
   * then subscribes it: at once when that fits in one slice, else slice by slice. With
   * `replay` (R-W3), those messages instead of values: what a resumable topic sent after
   * `since`. A full snapshot to a resumable topic's client begins with its greeting.
   */
  send(member: Member, since: number, replay?: string[]): void {
    const { ws, topic } = member;
    const feed = this.feedOf(member);
    const matched = topic.matched !== undefined;
    const rest = replay ? NO_READINGS : topic.matched ? topic.matched.values() : this.graph.readings();
    const mark = topic.replay !== undefined && !replay;
    if (mark && since < 0) {
      ws.cork(() => {
        if (feed.resynced) ws.send(resync);
        ws.send(greeting(topic.token, this.changes.count));
      });
      feed.resynced = true;
    }
    const snapshot: Snapshot = {
      member,
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
    feed.snapshot = snapshot;
    topic.snapshots.add(snapshot);
    this.continue(member);
  }

  /**
   * One slice of a client's snapshot: values until the slice's time is up or the client's
   * buffer is full (then it goes on when uWS reports it drained), then what was queued
   * behind it. The client is subscribed in the same synchronous turn as the last message,
   * so nothing falls between the two and nothing arrives out of order.
   */
  continue(member: Member): void {
    const feed = this.feeds.get(member);
    const snapshot = feed?.snapshot;
    if (!feed || !snapshot) return;
    const { ws, topic } = member;
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
      this.messages += messages;
      this.bytes += bytes;
      if (snapshot.done && snapshot.next === snapshot.queue.length) {
        // The turn's waiting messages were queued behind this snapshot: they go to the others first.
        this.outbox.flush(topic);
        this.outbox.listen(topic, ws);
      }
    });
    if (!snapshot.done || snapshot.next < snapshot.queue.length) {
      // A full buffer waits for uWS to report it drained; otherwise the next turn goes on.
      if (!full) afterTurn(() => feed.snapshot === snapshot && this.continue(member));
      return;
    }
    this.end(feed);
    feed.lastBytes = snapshot.bytes;
  }

  /**
   * A message the topic sends, queued behind each of its snapshots under way. A queue that
   * grows past the lag limit means its client cannot keep up: it is cut off as a lagging
   * client would be (`cutOff$`), and sent what it missed once it has drained.
   */
  queueBehind(topic: Topic, message: string): void {
    if (topic.snapshots.size === 0) return;
    for (const snapshot of topic.snapshots) {
      snapshot.queue.push(message);
      snapshot.queuedBytes += message.length;
      if (snapshot.queuedBytes > this.lagLimit) this.cut(snapshot);
    }
  }

  /** The client has gone: its snapshot, if one was under way, ends, and nothing is kept of it. */
  left(member: Member): void {
    const feed = this.feeds.get(member);
    if (feed) this.end(feed);
    this.feeds.delete(member);
  }

  private feedOf(member: Member): Feed {
    let feed = this.feeds.get(member);
    if (feed === undefined) {
      // A client that came back with a token was sent something before: its first snapshot is a resync.
      feed = { snapshot: undefined, lastBytes: 0, resynced: member.client.resume?.token !== undefined };
      this.feeds.set(member, feed);
    }
    return feed;
  }

  private cut(snapshot: Snapshot): void {
    const { member } = snapshot;
    this.end(this.feedOf(member));
    // What went is as of its start; with parameters still to go, they all go again. A
    // resumable topic's client missed what follows the last queued message it was sent.
    const missedSince =
      member.topic.replay && snapshot.next > 0
        ? seqOf(snapshot.queue[snapshot.next - 1] as string)
        : snapshot.done
          ? snapshot.began
          : snapshot.since;
    this.cuts.next({ member, missedSince });
  }

  /** The client's snapshot is over (sent, cut off, or the client left). */
  private end(feed: Feed): void {
    if (feed.snapshot) feed.snapshot.member.topic.snapshots.delete(feed.snapshot);
    feed.snapshot = undefined;
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
    if ((!topic.origins && !topic.meta) || part === undefined) return part;
    const message = typeof part === 'string' ? part : messageOf(prefixOf(part.address), part.value as Value);
    const told = topic.origins ? withOrigin(message, parameter.lastChange) : message;
    return topic.meta && parameter.meta !== undefined ? `${told.slice(0, -1)},"meta":${JSON.stringify(parameter.meta)}}` : told;
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
