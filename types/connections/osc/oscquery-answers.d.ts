/**
 * The HTTP side of OSCQuery: a node of the namespace and everything below it, one of its
 * attributes, or HOST_INFO. Each answer costs its own subtree, found in the index (never a
 * walk through the graph); one of more than `AT_ONCE` nodes is streamed in slices across
 * turns (lib/http/stream.ts), at most `STREAMING` of them at once and `WAITING` more in
 * line, so a client that asks for a namespace of 200,000 parameters in a loop gets it,
 * and the hub answers everyone else meanwhile (issue 60, 6).
 */
import { type Logger } from '../../sdk/index.ts';
import type { HttpResponse } from '../../http/uws.ts';
import type { IndexNode, NamespaceIndex } from './namespace-index.ts';
import { type Attributes } from './namespace-text.ts';
/** Nodes an answer may have and still be written in one go. */
export declare const AT_ONCE = 1000;
export declare class NamespaceAnswers {
    private readonly index;
    private readonly describe;
    private readonly hostInfo;
    private readonly log;
    private streaming;
    private readonly waiting;
    constructor(index: NamespaceIndex, describe: (node: IndexNode) => Attributes | undefined, hostInfo: () => Attributes, log: Logger);
    /** Answers a GET of `path` (decoded) with `query` (an attribute, HOST_INFO or nothing). */
    answer(res: HttpResponse, path: string, query: string): void;
    /** Drops the answers that wait: the server stops. Those streaming end as their clients go. */
    stop(): void;
    private write;
    private ended;
}
