/**
 * The tree an ember-provider serves (R-E1): each `/` of an exposed address is a node, the
 * parameter itself a leaf. Every element has a number among its siblings, kept in the
 * connection's records: the same address has the same numbered path across reloads and
 * restarts, and a number once given is never given to another address, so a consumer's
 * stored paths keep working. A parameter that goes stays in the tree offline, so that it
 * finds its number again when it comes back. Matrices the provider declares are elements of
 * the tree too, numbered the same way.
 */
import type { Parameter, Records } from '../../sdk/index.ts';
import type { ServedMatrix } from './served-matrix.ts';
export interface TreeNode {
    readonly kind: 'node';
    readonly number: number;
    readonly identifier: string;
    /** Numbers from the root, joined by `.`; empty for the root. */
    readonly path: string;
    /** Children by `n:<identifier>` (nodes), `p:<identifier>` (parameters) and `m:<identifier>` (matrices). */
    readonly children: Map<string, Entry>;
}
export interface Leaf {
    readonly kind: 'leaf';
    readonly number: number;
    readonly identifier: string;
    readonly path: string;
    parameter: Parameter;
    /** False once the parameter went; it keeps its place for when it comes back. */
    online: boolean;
}
export interface MatrixEntry {
    readonly kind: 'matrix';
    readonly number: number;
    readonly identifier: string;
    readonly path: string;
    readonly matrix: ServedMatrix;
}
export type Entry = TreeNode | Leaf | MatrixEntry;
export declare class ExposedTree {
    private readonly records;
    readonly root: TreeNode;
    private readonly byPath;
    private readonly byAddress;
    private readonly matrices;
    constructor(records: Records);
    /** The element at a numbered path (`1.3.2`); the root for ''. */
    at(path: string): Entry | undefined;
    /** The matrix at `address`, once added. */
    atMatrix(address: string): MatrixEntry | undefined;
    leafOf(address: string): Leaf | undefined;
    /**
     * Puts a parameter in the tree, with the nodes above it. Returns what consumers have not
     * seen yet, parents first: nodes made now, and the leaf (new, or online again).
     */
    add(parameter: Parameter): Entry[];
    /** Puts a matrix at `address`, with the nodes above it; returns what is new, parents first. */
    addMatrix(address: string, matrix: ServedMatrix): Entry[];
    /** The node at `segments`, made with those above it where missing. */
    private nodesFor;
    /** Takes a parameter offline; returns its leaf when it was online. */
    remove(address: string): Leaf | undefined;
    /** The number of `address` under `parent`: kept, or the parent's next one (kept too). */
    private numberOf;
}
