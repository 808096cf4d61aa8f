import type { AddressPatterns } from '../../sdk/index.ts';
import type { Graph, Reading } from '../serving.ts';
/** One node of the namespace: a container, a parameter, or both. */
export interface IndexNode {
    /** Children by segment, in the order they came; none on a leaf (a Map each would triple the index's memory). */
    children: Map<string, IndexNode> | undefined;
    /** The parameter at this address, when one is. */
    reading: Reading | undefined;
    /** Parameters at and below this node. */
    count: number;
}
export declare class NamespaceIndex {
    private readonly graph;
    private readonly expose;
    readonly root: IndexNode;
    private readonly watching;
    /** Lists the exposed parameters once, then follows the graph: no change falls between the two. */
    constructor(graph: Graph, expose: AddressPatterns);
    stop(): void;
    /** The node at an OSC path (`/`, `/studio`, `/studio/level`), or undefined. */
    at(path: string): IndexNode | undefined;
    /**
     * The reading as it is now: a row read when the namespace learnt of it may have been made
     * since (a write, a lookup), and is then that parameter. Undefined once it is gone.
     */
    current(node: IndexNode): Reading | undefined;
    private add;
    private remove;
    /** Removes a whole table's rows (made or not) under `connectionId`: what goes when a table goes. */
    private removeWhere;
}
