import type { Parameter, Value } from '../../sdk/index.ts';
import { type EmberElement } from '../../protocols/ember-plus.ts';
import type { Entry, Leaf, MatrixEntry } from './exposed-tree.ts';
/** The element at `entry` as consumers see it; `mayWrite` tells what a consumer may change. */
export declare function elementContents(entry: Entry, mayWrite: (parameter: Parameter) => boolean): EmberElement;
/** The parameter at `leaf` with `value`, and nothing else of it. */
export declare function valueMessage(leaf: Leaf, value: Value | undefined): Buffer;
/** The matrix at `entry` with what the targets given hold now. */
export declare function connectionsMessage(entry: MatrixEntry, targets: readonly number[], children?: ReadonlyMap<number, EmberElement>): Buffer;
