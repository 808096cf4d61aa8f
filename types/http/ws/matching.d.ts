/**
 * The parameters a topic's filters pass (`Topic.matched`), found once per filter set rather
 * than per client: a topic's first snapshot waits for them, found in slices of a few
 * milliseconds, and parameters defined later are added as they come. Past `MATCHED_AT_MOST`
 * a topic is `wide` and keeps none.
 */
import type { Graph, Reading } from '../../core/graph.ts';
import type { Changes } from './changes.ts';
import { type Topic, type WsSocket } from './state.ts';
import type { Topics } from './topics.ts';
export declare class Matching {
    private readonly graph;
    private readonly topics;
    private readonly changes;
    /** The topic knows its parameters: the clients it held back get their snapshots. */
    private readonly found;
    constructor(graph: Graph, topics: Topics, changes: Changes, 
    /** The topic knows its parameters: the clients it held back get their snapshots. */
    found: (topic: Topic, waiting: readonly WsSocket[]) => void);
    /** Whether a client of the topic can be sent its snapshot now, its parameters known (or never looked for). */
    ready(topic: Topic): boolean;
    /** A client whose snapshot waits for the topic's parameters: they are looked for, once for all such clients. */
    await(topic: Topic, ws: WsSocket): void;
    /** A parameter that came: kept by every topic that keeps its own and passes it. */
    added(reading: Reading): void;
    /** One more parameter a topic's filters pass; past `MATCHED_AT_MOST` the topic is wide and keeps none. */
    private keep;
    /**
     * Finds the parameters a topic's filters pass, in slices of a few milliseconds (each
     * parameter tested once, however many clients share the filters), then starts the
     * snapshots of the clients waiting for them. It reads, as a listing does: no row of a
     * table is made. Past `MATCHED_AT_MOST` it stops: the topic is wide.
     */
    private find;
}
