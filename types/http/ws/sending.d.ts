/**
 * Handing a topic's messages to uWS: at the end of the turn (a batch topic's as one array),
 * on a rate-limited topic's ticks (R-W2), and to clients whose snapshot is under way behind
 * it. Counts what goes, for `/metrics`.
 */
import { type Scheduler } from '../../core/scheduler.ts';
import type { Entry, Topic, WsClient } from './state.ts';
export declare class Sending {
    private readonly publish;
    private readonly scheduler;
    /** Runs work once the turn's I/O is done (`afterTurn`); specs pass their virtual clock's. */
    private readonly whenTurnEnds;
    /** A message for a client whose snapshot is under way: it follows the snapshot. */
    private readonly behindSnapshot;
    /** Messages and their bytes handed to uWS for clients, snapshots included (for `/metrics`). */
    messages: number;
    bytes: number;
    /** Topics with messages waiting for the end of the turn. */
    private readonly waiting;
    constructor(publish: (topic: string, message: string) => void, scheduler: Scheduler, 
    /** Runs work once the turn's I/O is done (`afterTurn`); specs pass their virtual clock's. */
    whenTurnEnds: (work: () => void) => void, 
    /** A message for a client whose snapshot is under way: it follows the snapshot. */
    behindSnapshot: (client: WsClient, message: string) => void);
    /**
     * A message for a topic's clients, sent with the turn's others when the turn ends. Not at
     * once: changes come from inside uWS's handlers (a client's WebSocket message, an HTTP
     * write), where uWS holds its one cork buffer for that client, and publishing there wrote
     * every message to every other client with a system call of its own — a batch of 100
     * writes to 200 clients took 20,000 sends instead of 800.
     */
    send(topic: Topic, message: string): void;
    /**
     * R-W2: a rate-limited topic sends on ticks at least its interval apart, each with the
     * latest message of every parameter that changed since the one before (one per parameter,
     * so memory stays bounded and the last value always arrives). A change after a quiet
     * interval goes out at once (with whatever else changes before the next timer turn).
     * Ticking per topic rather than per parameter is what makes the limit cheap: however many
     * parameters change, a client is written to at most n times a second (see `sendEach`).
     */
    hold(topic: Topic, entry: Entry, message: string): void;
    /**
     * Sends a topic's waiting messages now: a batch topic's as one array (serialised once,
     * handed to uWS once), many at once to each client in one write, a few through `publish`.
     */
    flush(topic: Topic): void;
    /** Messages sent to one client outside its topic (a snapshot's), counted with the rest. */
    count(messages: number, bytes: number): void;
    private tick;
    /** Hands one message to uWS for every client of the topic. */
    private publishTo;
    /**
     * Many single messages at once to a topic's clients: each client gets them in one corked
     * write, each message encoded once for all. (Through `publish`, uWS would write them 32
     * at a time: 4 sends a client for a tick of 100.)
     */
    private sendEach;
    private sendWhenTurnEnds;
    private flushAll;
}
