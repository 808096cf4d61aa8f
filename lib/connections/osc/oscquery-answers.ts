/**
 * The HTTP side of OSCQuery: a node of the namespace and everything below it, one of its
 * attributes, or HOST_INFO. Each answer costs its own subtree, found in the index (never a
 * walk through the graph); one of more than `AT_ONCE` nodes is streamed in slices across
 * turns (lib/http/stream.ts), at most `STREAMING` of them at once and `WAITING` more in
 * line, so a client that asks for a namespace of 200,000 parameters in a loop gets it,
 * and the hub answers everyone else meanwhile (issue 60, 6).
 */
import { type Logger, reasonOf } from '../../sdk/index.ts';
import { type CodedError, JSON_TYPE, sendEmpty, sendError, sendOk } from '../../http/respond.ts';
import { stream } from '../../http/stream.ts';
import type { HttpResponse } from '../../http/uws.ts';
import type { IndexNode, NamespaceIndex } from './namespace-index.ts';
import { type Attributes, NamespaceText } from './namespace-text.ts';

/** Nodes an answer may have and still be written in one go. */
export const AT_ONCE = 1000;
/** Nodes in one streamed piece: the piece is then sent, and the next one waits its turn if this one took long. */
const PIECE = 250;
/** Large answers streamed at once; the others wait for one to end. */
const STREAMING = 2;
/** Large answers waiting; past it, a request is answered 503 at once. */
const WAITING = 16;

const BUSY: CodedError = {
  code: 'PB_OVER_LIMIT',
  message: `OSCQuery is streaming ${STREAMING} large namespaces and ${WAITING} more wait: ask again shortly, or ask for a smaller part`,
};

export class NamespaceAnswers {
  private streaming = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly index: NamespaceIndex,
    private readonly describe: (node: IndexNode) => Attributes | undefined,
    private readonly hostInfo: () => Attributes,
    private readonly log: Logger,
  ) {}

  /** Answers a GET of `path` (decoded) with `query` (an attribute, HOST_INFO or nothing). */
  answer(res: HttpResponse, path: string, query: string): void {
    if (query === 'HOST_INFO') return sendOk(res, JSON_TYPE, JSON.stringify(this.hostInfo()));
    const node = this.index.at(path === '' ? '/' : path);
    if (!node) return sendError(res, { code: 'PB_NOT_FOUND', message: `nothing at ${path.slice(0, 200)}` }, true);
    const fullPath = path === '' ? '/' : path;
    if (query === '') return this.write(res, new NamespaceText(node, fullPath, this.describe), node.count);
    const attribute = query.split('&')[0] ?? '';
    if (attribute === 'CONTENTS' && (node.children?.size ?? 0) > 0)
      return this.write(res, new NamespaceText(node, fullPath, this.describe, true), node.count);
    const value = attribute === 'FULL_PATH' ? fullPath : this.describe(node)?.[attribute];
    if (value === undefined) return sendEmpty(res, 204, []);
    sendOk(res, JSON_TYPE, JSON.stringify({ [attribute]: value }));
  }

  /** Drops the answers that wait: the server stops. Those streaming end as their clients go. */
  stop(): void {
    this.waiting.length = 0;
  }

  private write(res: HttpResponse, text: NamespaceText, count: number): void {
    if (count <= AT_ONCE) return sendOk(res, JSON_TYPE, text.next(Number.POSITIVE_INFINITY));
    if (this.streaming >= STREAMING && this.waiting.length >= WAITING)
      return sendError(res, BUSY, true, { headers: [['Retry-After', '1']] });
    const start = () => {
      this.streaming++;
      stream(
        res,
        JSON_TYPE,
        () => (text.done ? undefined : text.next(PIECE)),
        this.log,
        () => this.ended(),
      );
    };
    if (this.streaming < STREAMING) return start();
    let aborted = false;
    // Required of an answer that is not sent before the handler returns; `stream` sets its own once it starts.
    res.onAborted(() => void (aborted = true));
    this.waiting.push(() => (aborted ? this.ended(false) : start()));
  }

  private ended(streamed = true): void {
    if (streamed) this.streaming--;
    try {
      this.waiting.shift()?.();
    } catch (error) {
      // Called from the end of another answer's stream: a throw here would be unhandled.
      this.log.warn(`an OSCQuery answer could not start: ${reasonOf(error)}`);
    }
  }
}
