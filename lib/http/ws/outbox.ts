/**
 * A topic's messages on their way to uWS: held until the turn ends (a batch topic's as one
 * array), then handed to the topic's listening clients a slice at a time, each slice
 * published once or, when many messages, written to each of its clients in one corked
 * write. Counts what goes, for `/metrics`.
 */
import type { Slice, Topic, WsSocket } from './state.ts';

/**
 * More messages than this at once (a batch of writes, a rate-limited topic's tick) go to
 * each client in one corked write rather than through `publish`, which uWS writes to a
 * socket at most 32 at a time: ticks of 100 messages to 1,000 clients took about half the
 * server CPU this way (`npm run bench:ticks`). Fewer messages are cheaper published, one
 * call for all clients.
 */
const PUBLISH_AT_MOST = 32;

/**
 * Clients a slice holds at most. When a turn ends its messages go to one slice of each
 * topic, and to the next after the event loop has read what came meanwhile: a key press or
 * a device's answer waits for one slice's sends (each a system call), not for every
 * dashboard's. Two hubs each sending 1,000 changes a second to 500 dashboards took a press
 * across them in 8–9 ms at the median, 2.2–3.1 ms sent by slices (bench/README, "A press to the
 * device's wire"). A slice that waits its turn gathers the messages of the turns meanwhile
 * and sends them together.
 */
const SLICE_CLIENTS = 64;

/** The uWS topic of one slice of a topic. */
const sliceName = (topic: Topic, slice: Slice): string => `${topic.name}/${slice.index}`;

export class Outbox {
  private messages = 0;
  private bytes = 0;
  /** Topics with messages waiting for the end of the turn. */
  private readonly waiting = new Set<Topic>();
  /** Topics with slices that wait for ended turns' messages. */
  private readonly sliced = new Set<Topic>();
  /** A next slice is due after the event loop has read its I/O. */
  private stepDue = false;
  private stopped = false;

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
   * Hands uWS now everything the topic has for its clients, this turn's messages and what
   * slices still wait for, to every slice: what must reach them before what follows (a
   * newcomer's snapshot, an answer to a client's write).
   */
  flush(topic: Topic): void {
    this.queue(topic);
    this.drain(topic);
  }

  /** The client is sent what the topic sends from now on (not what ended turns left waiting). */
  listen(topic: Topic, ws: WsSocket): void {
    this.drain(topic);
    let slice = topic.slices.find((candidate) => candidate.members.size < SLICE_CLIENTS);
    if (slice === undefined) {
      slice = { index: topic.slices.length, members: new Set(), sentTurns: 0 };
      topic.slices.push(slice);
    }
    // What ended turns sent went to the members before it.
    if (slice.members.size === 0) slice.sentTurns = topic.unsentFrom + topic.unsent.length;
    slice.members.add(ws);
    topic.sliceOf.set(ws, slice);
    topic.listening.add(ws);
    ws.subscribe(sliceName(topic, slice));
  }

  /** The client is sent nothing more of the topic (it lags), once it has what ended turns sent. */
  unlisten(topic: Topic, ws: WsSocket): void {
    this.drain(topic);
    const slice = topic.sliceOf.get(ws);
    if (slice !== undefined) ws.unsubscribe(sliceName(topic, slice));
    this.forget(topic, ws);
  }

  /** The client has gone: uWS has let go of its subscriptions already. */
  left(topic: Topic, ws: WsSocket): void {
    this.forget(topic, ws);
  }

  /** Nothing more goes to uWS: the hub is stopping. */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    this.sliced.clear();
  }

  private forget(topic: Topic, ws: WsSocket): void {
    topic.sliceOf.get(ws)?.members.delete(ws);
    topic.sliceOf.delete(ws);
    topic.listening.delete(ws);
  }

  /** This turn's messages wait for every slice, a batch topic's as one array, serialised once. */
  private queue(topic: Topic): void {
    const pending = topic.pending;
    if (pending.length === 0) return;
    topic.pending = [];
    if (topic.listening.size === 0) return;
    topic.unsent.push({ messages: topic.batch ? [`[${pending.join(',')}]`] : pending });
  }

  /** Every slice of the topic is handed what waits for it. */
  private drain(topic: Topic): void {
    for (const slice of topic.slices) this.sendSlice(topic, slice);
    this.forgetSent(topic);
    this.sliced.delete(topic);
  }

  /** Whether an ended turn's messages wait for the slice. */
  private waitsFor(topic: Topic, slice: Slice): boolean {
    return slice.members.size > 0 && slice.sentTurns < topic.unsentFrom + topic.unsent.length;
  }

  /** Hands uWS what waits for a slice: many at once to each client in one write, a few through `publish`. */
  private sendSlice(topic: Topic, slice: Slice): void {
    if (!this.waitsFor(topic, slice)) return;
    const turns = topic.unsent.slice(slice.sentTurns - topic.unsentFrom);
    slice.sentTurns = topic.unsentFrom + topic.unsent.length;
    const clients = slice.members.size;
    const count = turns.reduce((sum, turn) => sum + turn.messages.length, 0);
    if (count > PUBLISH_AT_MOST) {
      const encoded = turns.flatMap((turn) => (turn.encoded ??= turn.messages.map((message) => Buffer.from(message))));
      for (const ws of slice.members) {
        ws.cork(() => {
          for (const message of encoded) ws.send(message);
        });
      }
      this.bytes += clients * encoded.reduce((sum, message) => sum + message.length, 0);
    } else {
      const name = sliceName(topic, slice);
      for (const turn of turns)
        for (const message of turn.messages) {
          this.publish(name, message);
          this.bytes += clients * message.length;
        }
    }
    this.messages += clients * count;
  }

  /** Lets go of the turns every slice with members has been sent (all, when none has members). */
  private forgetSent(topic: Topic): void {
    const end = topic.unsentFrom + topic.unsent.length;
    let oldest = end;
    for (const slice of topic.slices) if (slice.members.size > 0 && slice.sentTurns < oldest) oldest = slice.sentTurns;
    if (oldest === topic.unsentFrom) return;
    topic.unsent.splice(0, oldest - topic.unsentFrom);
    topic.unsentFrom = oldest;
  }

  private sendWhenTurnEnds(topic: Topic): void {
    if (this.waiting.size === 0) this.whenTurnEnds(() => this.turnEnded());
    this.waiting.add(topic);
  }

  private turnEnded(): void {
    if (this.stopped) return;
    for (const topic of this.waiting) {
      this.queue(topic);
      this.sliced.add(topic);
    }
    this.waiting.clear();
    // A step already due sends these too, in its order.
    if (!this.stepDue) this.step();
  }

  /** One slice of each topic with slices waiting is handed its messages; the next ones after the loop's I/O. */
  private step(): void {
    this.stepDue = false;
    if (this.stopped) return;
    for (const topic of this.sliced) {
      const { slices } = topic;
      const at = slices.findIndex((_, k) => this.waitsFor(topic, slices[(topic.nextSlice + k) % slices.length]!));
      if (at < 0) {
        this.forgetSent(topic);
        this.sliced.delete(topic);
        continue;
      }
      const index = (topic.nextSlice + at) % slices.length;
      this.sendSlice(topic, slices[index]!);
      this.forgetSent(topic);
      topic.nextSlice = (index + 1) % slices.length;
      if (topic.unsent.length === 0) this.sliced.delete(topic);
    }
    if (this.sliced.size > 0) {
      this.stepDue = true;
      this.whenTurnEnds(() => this.step());
    }
  }
}
