/**
 * A topic's messages on their way to uWS: held until the turn ends (a batch topic's as one
 * array), then handed to the clients listening on the topic, published once or, when many,
 * written to each client in one corked write. Counts what goes, for `/metrics`.
 */
import type { Topic, WsSocket } from './state.ts';

/**
 * More messages than this in one turn (a batch of writes, a rate-limited topic's tick) go to
 * each client in one corked write rather than through `publish`, which uWS writes to a
 * socket at most 32 at a time: ticks of 100 messages to 1,000 clients took about half the
 * server CPU this way (`npm run bench:ticks`). Fewer messages are cheaper published, one
 * call for all clients.
 */
const PUBLISH_AT_MOST = 32;

export class Outbox {
  private messages = 0;
  private bytes = 0;
  /** Topics with messages waiting for the end of the turn. */
  private readonly waiting = new Set<Topic>();

  constructor(
    private readonly publish: (topic: string, message: string) => void,
    /** Runs work once the turn's I/O is done (`afterTurn`); specs pass their virtual clock's. */
    private readonly whenTurnEnds: (work: () => void) => void,
  ) {}

  /** Messages and their bytes handed to uWS for the topics' clients since the start. */
  sent(): { messages: number; bytes: number } {
    return { messages: this.messages, bytes: this.bytes };
  }

  /**
   * A message for a topic's clients, sent with the turn's others when the turn ends. Not at
   * once: changes come from inside uWS's handlers (a client's WebSocket message, an HTTP
   * write), where uWS holds its one cork buffer for that client, and publishing there wrote
   * every message to every other client with a system call of its own — a batch of 100
   * writes to 200 clients took 20,000 sends instead of 800.
   */
  add(topic: Topic, message: string): void {
    if (topic.pending.length === 0) this.sendWhenTurnEnds(topic);
    topic.pending.push(message);
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

  /** The client is sent what the topic sends from now on. */
  listen(topic: Topic, ws: WsSocket): void {
    ws.subscribe(topic.name);
    topic.listening.add(ws);
  }

  /** The client is sent nothing more of the topic (it lags). */
  unlisten(topic: Topic, ws: WsSocket): void {
    ws.unsubscribe(topic.name);
    topic.listening.delete(ws);
  }

  /** The client has gone: uWS has let go of its subscriptions already. */
  left(topic: Topic, ws: WsSocket): void {
    topic.listening.delete(ws);
  }

  /** Hands one message to uWS for every client of the topic. */
  private publishTo(topic: Topic, message: string): void {
    this.publish(topic.name, message);
    this.messages += topic.listening.size;
    this.bytes += topic.listening.size * message.length;
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
    this.messages += topic.listening.size * messages.length;
    this.bytes += topic.listening.size * bytes;
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
