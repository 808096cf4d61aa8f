/**
 * The parameters a topic's filters pass (`Topic.matched`), found once per filter set rather
 * than per client: a topic's first snapshot waits for them, found in slices of a few
 * milliseconds, and parameters defined later are added as they come; a removal has them
 * found anew. Past `MATCHED_AT_MOST` a topic is `wide` and keeps none.
 */
import type { Graph, Reading } from '../../core/graph.ts';
import { afterTurn } from '../../core/scheduler.ts';
import { SLICE_MS } from '../stream.ts';
import type { Changes } from './changes.ts';
import type { Outbox } from './outbox.ts';
import type { Snapshots } from './snapshots.ts';
import { type Member, SLICE_CHECK_EVERY, type Topic } from './state.ts';
import type { Topics } from './topics.ts';

/**
 * The most parameters a topic keeps as the ones its filters pass (`matched`). A filter set
 * that passes more is wide: each snapshot goes through the graph's readings and tests the
 * filters as it goes, as `GET /parameters` does, rather than holding a list as long as the
 * graph (a million rows held as a list cost about as much as the rows themselves).
 */
const MATCHED_AT_MOST = 10_000;

export class Matching {
  constructor(
    private readonly graph: Graph,
    private readonly topics: Topics,
    private readonly changes: Changes,
    private readonly outbox: Outbox,
    private readonly snapshots: Snapshots,
  ) {}

  /** Whether a client of the topic can be sent its snapshot now, its parameters known (or never looked for). */
  ready(topic: Topic): boolean {
    return topic.matched !== undefined || topic.wide || this.topics.passesAll(topic);
  }

  /** A client whose snapshot waits for its topic's parameters: they are looked for, once for all such clients. */
  await(member: Member): void {
    const topic = member.topic;
    topic.waiting.push(member);
    if (topic.finding) return;
    topic.finding = { rest: this.graph.readings(), found: [], removals: this.changes.removals };
    this.find(topic);
  }

  /** A parameter that came: kept by every topic that keeps its own and passes it. */
  added(reading: Reading): void {
    for (const topic of this.topics.values()) if (topic.matched && this.topics.passes(topic, reading.address)) this.keep(topic, reading);
  }

  /** A client that left: its snapshot no longer waits. */
  left(member: Member): void {
    const waiting = member.topic.waiting.indexOf(member);
    if (waiting >= 0) member.topic.waiting.splice(waiting, 1);
  }

  /** A parameter went: every topic's are found anew at its next client. */
  forget(): void {
    for (const topic of this.topics.values()) {
      topic.matched = undefined;
      topic.wide = false;
    }
  }

  /** One more parameter a topic's filters pass; past `MATCHED_AT_MOST` the topic is wide and keeps none. */
  private keep(topic: Topic, reading: Reading): void {
    if (!topic.matched) return;
    if (topic.matched.length < MATCHED_AT_MOST) topic.matched.push(reading);
    else {
      topic.matched = undefined;
      topic.wide = true;
    }
  }

  /**
   * Finds the parameters a topic's filters pass, in slices of a few milliseconds (each
   * parameter tested once, however many clients share the filters), then starts the
   * snapshots of the clients waiting for them. It reads, as a listing does: no row of a
   * table is made. Past `MATCHED_AT_MOST` it stops: the topic is wide.
   */
  private find(topic: Topic): void {
    const finding = topic.finding;
    if (!finding || !this.topics.has(topic)) return;
    const started = performance.now();
    let wide = false;
    for (let count = 1; ; count++) {
      const next = finding.rest.next();
      if (next.done) break;
      if (this.topics.passes(topic, next.value.address)) {
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
      : finding.removals === this.changes.removals
        ? finding.found
        : finding.found.filter((reading) => this.graph.current(reading) !== undefined);
    topic.wide = wide;
    topic.finding = undefined;
    // The topic knows its parameters: the clients it held back get their snapshots, after
    // what this turn changed went to the members (it is in the snapshots).
    const waiting = topic.waiting.splice(0);
    this.outbox.flush(topic);
    for (const member of waiting) this.snapshots.send(member, -1);
  }
}
