/**
 * The parameters that changed while the hub ran, as the fan-out keeps them (`Entry`): each
 * one's message prefix made once, its current message, the topics that send it, and the
 * hub's change count at its last change — what lets a snapshot or a client that caught up
 * be sent only what it does not have. Counts every change and every removal.
 */
import type { Graph } from '../../core/graph.ts';
import type { Parameter } from '../../core/parameter.ts';
import type { Entry, Topic } from './state.ts';
import type { Topics } from './topics.ts';
export declare class Changes {
    private readonly graph;
    private readonly topics;
    private readonly entries;
    /** Every change counted, so that a client that caught up can be sent only what it missed. */
    count: number;
    /** Parameters removed from the graph so far: a topic's `matched` found before a removal may hold it. */
    removals: number;
    constructor(graph: Graph, topics: Topics);
    /** The parameter's entry, made at its first change; undefined for one no longer in the graph. */
    entryOf(parameter: Parameter): Entry | undefined;
    /** The entry at `address`, when its parameter changed. */
    at(address: string): Entry | undefined;
    /** The topics that send the entry's parameter, found again when topics came or went since the last look. */
    topicsOf(entry: Entry): readonly Topic[];
    /** The parameter's value is unknown again: a client that joins now gets none for it in its snapshot. */
    forget(address: string): void;
    /** Parameters removed: no longer kept, nor held for a tick. */
    removed(parameters: Iterable<Parameter>): void;
    clear(): void;
}
