/**
 * Snapshots: the current value of every parameter a client's topic sends, or what a
 * resumable topic sent since the client's last `seq` (R-W3), sent in slices of a few
 * milliseconds and followed by what the topic sent meanwhile; the client joins the stream
 * in the turn its last message goes, so nothing falls between and nothing arrives out of
 * order.
 */
import type { Graph } from '../../core/graph.ts';
import type { Changes } from './changes.ts';
import type { Sending } from './sending.ts';
import { type WsClient, type WsSocket } from './state.ts';
import type { Topics } from './topics.ts';
export declare class Snapshots {
    private readonly graph;
    private readonly topics;
    private readonly changes;
    private readonly sending;
    /** A client whose send buffer holds more than this (beyond its snapshot) stops getting changes. */
    private readonly lagLimit;
    /** A client whose queue behind its snapshot outgrew `lagLimit`: it is lagging now, and catches up once drained. */
    private readonly lagged;
    /** Where a slice of a batch snapshot is written: one buffer for every client, one slice at a time. */
    private readonly batchWriter;
    constructor(graph: Graph, topics: Topics, changes: Changes, sending: Sending, 
    /** A client whose send buffer holds more than this (beyond its snapshot) stops getting changes. */
    lagLimit: number, 
    /** A client whose queue behind its snapshot outgrew `lagLimit`: it is lagging now, and catches up once drained. */
    lagged: (ws: WsSocket) => void);
    /**
     * Sends the current value of every parameter of the client's topic changed after `since`,
     * then subscribes it: at once when that fits in one slice, else slice by slice. With
     * `replay` (R-W3), those messages instead of values: what a resumable topic sent after
     * `since`. A full snapshot to a resumable topic's client begins with its greeting.
     */
    send(ws: WsSocket, since: number, replay?: string[]): void;
    /**
     * One slice of a client's snapshot: values until the slice's time is up or the client's
     * buffer is full (then it goes on when uWS reports it drained), then what was queued
     * behind it. The client is subscribed in the same synchronous turn as the last message,
     * so nothing falls between the two and nothing arrives out of order.
     */
    continue(ws: WsSocket): void;
    /**
     * A message the client's topic sends while its snapshot is under way. A queue that grows
     * past the lag limit means the client cannot keep up: it is taken off as a lagging client
     * would be, and sent what it missed once it has drained.
     */
    queueBehind(client: WsClient, message: string): void;
    /** The client's snapshot is over (sent, cut off, or the client left). */
    end(client: WsClient): void;
    /**
     * What a snapshot sends of a parameter, when the topic sends it and it has not changed
     * after `until` (then the change follows the snapshot): the message of its last change,
     * or the parameter itself when it has not changed since the hub started (its message is
     * made as it is sent, not kept for each of a million). `matched`: it comes from the
     * topic's `matched`, which passes the filters; `live`: it is in the graph (false when a
     * parameter was removed since the snapshot began: it may be this one).
     */
    private part;
    /** `part` without who changed it. */
    private value;
}
