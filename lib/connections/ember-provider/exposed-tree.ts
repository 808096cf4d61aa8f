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

export class ExposedTree {
  readonly root: TreeNode = { kind: 'node', number: 0, identifier: '', path: '', children: new Map() };
  private readonly byPath = new Map<string, Entry>();
  private readonly byAddress = new Map<string, Leaf>();
  private readonly matrices = new Map<string, MatrixEntry>();

  constructor(private readonly records: Records) {}

  /** The element at a numbered path (`1.3.2`); the root for ''. */
  at(path: string): Entry | undefined {
    return path === '' ? this.root : this.byPath.get(path);
  }

  /** The matrix at `address`, once added. */
  atMatrix(address: string): MatrixEntry | undefined {
    return this.matrices.get(address);
  }

  leafOf(address: string): Leaf | undefined {
    return this.byAddress.get(address);
  }

  /**
   * Puts a parameter in the tree, with the nodes above it. Returns what consumers have not
   * seen yet, parents first: nodes made now, and the leaf (new, or online again).
   */
  add(parameter: Parameter): Entry[] {
    const known = this.byAddress.get(parameter.address);
    if (known) {
      if (known.online && known.parameter === parameter) return [];
      known.parameter = parameter;
      known.online = true;
      return [known];
    }
    const segments = parameter.address.split('/');
    const { node, made } = this.nodesFor(segments.slice(0, -1));
    const identifier = segments.at(-1) as string;
    const number = this.numberOf('p', parameter.address, node);
    const leaf: Leaf = { kind: 'leaf', number, identifier, path: childPath(node, number), parameter, online: true };
    node.children.set(`p:${identifier}`, leaf);
    this.byPath.set(leaf.path, leaf);
    this.byAddress.set(parameter.address, leaf);
    made.push(leaf);
    return made;
  }

  /** Puts a matrix at `address`, with the nodes above it; returns what is new, parents first. */
  addMatrix(address: string, matrix: ServedMatrix): Entry[] {
    if (this.matrices.has(address)) return [];
    const segments = address.split('/');
    const { node, made } = this.nodesFor(segments.slice(0, -1));
    const identifier = segments.at(-1) as string;
    const number = this.numberOf('m', address, node);
    const entry: MatrixEntry = { kind: 'matrix', number, identifier, path: childPath(node, number), matrix };
    node.children.set(`m:${identifier}`, entry);
    this.byPath.set(entry.path, entry);
    this.matrices.set(address, entry);
    made.push(entry);
    return made;
  }

  /** The node at `segments`, made with those above it where missing. */
  private nodesFor(segments: readonly string[]): { node: TreeNode; made: Entry[] } {
    const made: Entry[] = [];
    let node = this.root;
    let prefix = '';
    for (const segment of segments) {
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      let next = node.children.get(`n:${segment}`);
      if (next === undefined) {
        const number = this.numberOf('n', prefix, node);
        next = { kind: 'node', number, identifier: segment, path: childPath(node, number), children: new Map() };
        node.children.set(`n:${segment}`, next);
        this.byPath.set(next.path, next);
        made.push(next);
      }
      node = next as TreeNode;
    }
    return { node, made };
  }

  /** Takes a parameter offline; returns its leaf when it was online. */
  remove(address: string): Leaf | undefined {
    const leaf = this.byAddress.get(address);
    if (!leaf?.online) return undefined;
    leaf.online = false;
    return leaf;
  }

  /** The number of `address` under `parent`: kept, or the parent's next one (kept too). */
  private numberOf(kind: 'n' | 'p' | 'm', address: string, parent: TreeNode): number {
    const key = `number:${kind}:${address}`;
    const kept = this.records.get(key);
    if (typeof kept === 'number') return kept;
    const nextKey = `next:${parent.path}`;
    const next = this.records.get(nextKey);
    const number = typeof next === 'number' ? next : 1;
    this.records.set(nextKey, number + 1);
    this.records.set(key, number);
    return number;
  }
}

function childPath(parent: TreeNode, number: number): string {
  return parent.path === '' ? String(number) : `${parent.path}.${number}`;
}
