/**
 * Handing a topic's messages to uWS: at the end of the turn (a batch topic's as one array),
 * on a rate-limited topic's ticks (R-W2), and to clients whose snapshot is under way behind
 * it. Counts what goes, for `/metrics`.
 */
import { after, type Scheduler } from '../../core/scheduler.ts';
import type { Entry, Topic, WsClient } from './state.ts';

/**
 * More messages than this in one turn (a batch of writes, a rate-limited topic's tick) go to
 * each client in one corked write rather than through `publish`, which uWS writes to a
 * socket at most 32 at a time: ticks of 100 messages to 1,000 clients took about half the
 * server CPU this way (`npm run bench:ticks`). Fewer messages are cheaper published, one
 * call for all clients.
 */
const PUBLISH_AT_MOST = 32;

export class Sending {
  /** Messages and their bytes handed to uWS for clients, snapshots included (for `/metrics`). */
  messages = 0;
  bytes = 0;
  /** Topics with messages waiting for the end of the turn. */
  private readonly waiting = new Set<Topic>();

  constructor(
    private readonly publish: (topic: string, message: string) => void,
    private readonly scheduler: Scheduler,
    /** Runs work once the turn's I/O is done (`afterTurn`); specs pass their virtual clock's. */
    private readonly whenTurnEnds: (work: () => void) => void,
    /** A message for a client whose snapshot is under way: it follows the snapshot. */
    private readonly behindSnapshot: (client: WsClient, message: string) => void,
  ) {}

  /**
   * A message for a topic's clients, sent with the turn's others when the turn ends. Not at
   * once: changes come from inside uWS's handlers (a client's WebSocket message, an HTTP
   * write), where uWS holds its one cork buffer for that client, and publishing there wrote
   * every message to every other client with a system call of its own — a batch of 100
   * writes to 200 clients took 20,000 sends instead of 800.
   */
  send(topic: Topic, message: string): void {
    if (topic.snapshots.size > 0) for (const client of topic.snapshots) this.behindSnapshot(client, message);
    if (topic.pending.length === 0) this.sendWhenTurnEnds(topic);
    topic.pending.push(message);
  }

  /**
   * R-W2: a rate-limited topic sends on ticks at least its interval apart, each with the
   * latest message of every parameter that changed since the one before (one per parameter,
   * so memory stays bounded and the last value always arrives). A change after a quiet
   * interval goes out at once (with whatever else changes before the next timer turn).
   * Ticking per topic rather than per parameter is what makes the limit cheap: however many
   * parameters change, a client is written to at most n times a second (see `sendEach`).
   */
  hold(topic: Topic, entry: Entry, message: string): void {
    // A resumable topic's tick goes in the order of last changes, so its `seq`s only grow.
    if (topic.replay) topic.held.delete(entry);
    topic.held.set(entry, message);
    if (topic.nextTick) return;
    const wait = Math.max(0, topic.lastTick + topic.interval - this.scheduler.now());
    topic.nextTick = after(this.scheduler, wait, () => this.tick(topic));
  }

  /**
   * Sends a topic's waiting messages now: a batch topic's as one array (serialised once,
   * handed to uWS once), many at once to each client in one write, a few through `publish`.
   */
  flush(topic: Topic): void {
    const messages = topic.pending;
    if (messages.length === 0) return;
    topic.pending = [];
    if (topic.batch) this.publishTo(topic, `[${messages.join(',')}]`);
    else if (messages.length > PUBLISH_AT_MOST) this.sendEach(topic, messages);
    else for (const message of messages) this.publishTo(topic, message);
  }

  /** Messages sent to one client outside its topic (a snapshot's), counted with the rest. */
  count(messages: number, bytes: number): void {
    this.messages += messages;
    this.bytes += bytes;
  }

  private tick(topic: Topic): void {
    topic.nextTick = undefined;
    topic.lastTick = this.scheduler.now();
    for (const message of topic.held.values()) this.send(topic, message);
    topic.held.clear();
  }

  /** Hands one message to uWS for every client of the topic. */
  private publishTo(topic: Topic, message: string): void {
    this.publish(topic.name, message);
    this.count(topic.listening.size, topic.listening.size * message.length);
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
    this.count(topic.listening.size * messages.length, topic.listening.size * bytes);
  }

  private sendWhenTurnEnds(topic: Topic): void {
    if (this.waiting.size === 0) this.whenTurnEnds(() => this.flushAll());
    this.waiting.add(topic);
  }

  private flushAll(): void {
    for (const topic of this.waiting) this.flush(topic);
    this.waiting.clear();
  }
}
