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

interface Frame {
  readonly children: Iterator<[string, IndexNode]>;
  readonly path: string;
  /** Whether this node opened a CONTENTS object, which its close must close too. */
  readonly contents: boolean;
  first: boolean;
}

export class NamespaceText {
  private readonly stack: Frame[] = [];
  private started = false;

  /**
   * @param contentsOnly the answer to `?CONTENTS`: `{"CONTENTS": …}` of the node, without its own attributes.
   */
  constructor(
    private readonly node: IndexNode,
    private readonly path: string,
    private readonly describe: (node: IndexNode) => Attributes | undefined,
    private readonly contentsOnly = false,
  ) {}

  get done(): boolean {
    return this.started && this.stack.length === 0;
  }

  /** The next piece of the answer, with at most `budget` nodes in it; "" once done. */
  next(budget: number): string {
    const parts: string[] = [];
    if (!this.started) {
      this.started = true;
      parts.push(this.contentsOnly ? this.openContents(this.node, this.path) : this.open(this.node, this.path));
      budget--;
    }
    // Closing what is open costs nothing, but the budget is checked first all the same: a
    // child taken from an iterator would have to be written now.
    while (this.stack.length > 0 && budget > 0) {
      const top = this.stack[this.stack.length - 1] as Frame;
      const step = top.children.next();
      if (step.done) {
        parts.push(top.contents ? '}}' : '}');
        this.stack.pop();
        continue;
      }
      const [segment, child] = step.value;
      parts.push(top.first ? '' : ',', JSON.stringify(segment), ':', this.open(child, `${top.path === '/' ? '' : top.path}/${segment}`));
      top.first = false;
      budget--;
    }
    return parts.join('');
  }

  /** A node's opening: its FULL_PATH and attributes, and the start of its CONTENTS when it has children. */
  private open(node: IndexNode, path: string): string {
    const attributes = this.describe(node);
    const contents = (node.children?.size ?? 0) > 0;
    const own = attributes ? JSON.stringify(attributes).slice(1, -1) : '';
    this.stack.push({ children: entriesOf(node), path, contents, first: true });
    return `{"FULL_PATH":${JSON.stringify(path)}${own ? `,${own}` : ''}${contents ? ',"CONTENTS":{' : ''}`;
  }

  private openContents(node: IndexNode, path: string): string {
    this.stack.push({ children: entriesOf(node), path, contents: true, first: true });
    return '{"CONTENTS":{';
  }
}

const none: readonly [string, IndexNode][] = [];

/** A node's children as the live iterator of its Map: one added while the answer is written is met. */
function entriesOf(node: IndexNode): Iterator<[string, IndexNode]> {
  return node.children?.entries() ?? none[Symbol.iterator]();
}
