/**
 * The OSCQuery namespace as a tree of address segments, kept from the graph's added,
 * removed and table events: a request finds its node by its path and costs its subtree,
 * never a walk through every parameter of the hub (issue 60, 6). A node holds the reading
 * at its address (a parameter, or a table's row not made yet) and how many parameters are
 * at or below it, so a request knows its size before it writes a byte.
 */
import type { Subscription } from 'rxjs';
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

const newNode = (): IndexNode => ({ children: undefined, reading: undefined, count: 0 });

export class NamespaceIndex {
  readonly root: IndexNode = newNode();
  private readonly watching: Subscription;

  /** Lists the exposed parameters once, then follows the graph: no change falls between the two. */
  constructor(
    private readonly graph: Graph,
    private readonly expose: AddressPatterns,
  ) {
    for (const reading of graph.readings()) this.add(reading);
    this.watching = graph.added$.subscribe((parameter) => this.add(parameter));
    this.watching.add(graph.removed$.subscribe((parameter) => this.remove(parameter.address)));
    this.watching.add(
      graph.tables$.subscribe((table) => {
        if (table.added) for (const reading of table.readings()) this.add(reading);
        else this.removeWhere(table.connectionId, (id) => table.has(id));
      }),
    );
  }

  stop(): void {
    this.watching.unsubscribe();
  }

  /** The node at an OSC path (`/`, `/studio`, `/studio/level`), or undefined. */
  at(path: string): IndexNode | undefined {
    let node: IndexNode | undefined = this.root;
    if (path === '/' || path === '') return node;
    for (const segment of path.slice(1).split('/')) {
      node = node.children?.get(segment);
      if (!node) return undefined;
    }
    return node;
  }

  /**
   * The reading as it is now: a row read when the namespace learnt of it may have been made
   * since (a write, a lookup), and is then that parameter. Undefined once it is gone.
   */
  current(node: IndexNode): Reading | undefined {
    const kept = node.reading;
    if (!kept) return undefined;
    const now = this.graph.current(kept);
    if (now !== kept) node.reading = now;
    return now;
  }

  private add(reading: Reading): void {
    if (!this.expose.matches(reading.address)) return;
    const path: IndexNode[] = [this.root];
    let node = this.root;
    for (const segment of reading.address.split('/')) {
      let child = node.children?.get(segment);
      if (!child) {
        child = newNode();
        node.children ??= new Map();
        node.children.set(segment, child);
      }
      node = child;
      path.push(node);
    }
    const fresh = node.reading === undefined;
    node.reading = reading;
    if (fresh) for (const on of path) on.count++;
  }

  private remove(address: string): void {
    const path: [IndexNode, string][] = [];
    let node = this.root;
    for (const segment of address.split('/')) {
      const child = node.children?.get(segment);
      if (!child) return;
      path.push([node, segment]);
      node = child;
    }
    if (node.reading === undefined) return;
    node.reading = undefined;
    this.root.count--;
    for (const [parent, segment] of path) {
      const child = parent.children?.get(segment);
      if (!child) return;
      child.count--;
      // Nothing left below: the container goes with its last parameter.
      if (child.count === 0) parent.children?.delete(segment);
    }
  }

  /** Removes a whole table's rows (made or not) under `connectionId`: what goes when a table goes. */
  private removeWhere(connectionId: string, ofTable: (id: string) => boolean): void {
    const top = this.root.children?.get(connectionId);
    if (!top) return;
    const gone: string[] = [];
    const walk = (node: IndexNode, id: string): void => {
      if (node.reading && ofTable(id)) gone.push(`${connectionId}/${id}`);
      for (const [segment, child] of node.children ?? []) walk(child, id === '' ? segment : `${id}/${segment}`);
    };
    walk(top, '');
    for (const address of gone) this.remove(address);
  }
}
