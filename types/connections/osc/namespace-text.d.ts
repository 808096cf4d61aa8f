/**
 * An OSCQuery answer (a node of the namespace and everything below it) written as JSON in
 * pieces of a bounded number of nodes, so that a large namespace is answered across turns
 * of the event loop and the hub serves everything else in between (issue 60, 6). Values are
 * read as each node is written: an answer is never older than the piece that holds it.
 * The tree may change between pieces: a child removed meanwhile is not met, one added is,
 * and the text stays well-formed either way, since each piece closes only what it opened.
 */
import type { IndexNode } from './namespace-index.ts';
/** A node's attributes besides FULL_PATH and CONTENTS: what `describe` makes of its parameter. */
export type Attributes = Readonly<Record<string, unknown>>;
export declare class NamespaceText {
    private readonly node;
    private readonly path;
    private readonly describe;
    private readonly contentsOnly;
    private readonly stack;
    private started;
    /**
     * @param contentsOnly the answer to `?CONTENTS`: `{"CONTENTS": …}` of the node, without its own attributes.
     */
    constructor(node: IndexNode, path: string, describe: (node: IndexNode) => Attributes | undefined, contentsOnly?: boolean);
    get done(): boolean;
    /** The next piece of the answer, with at most `budget` nodes in it; "" once done. */
    next(budget: number): string;
    /** A node's opening: its FULL_PATH and attributes, and the start of its CONTENTS when it has children. */
    private open;
    private openContents;
}
