import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Settings cut down to what matches their schema, and how to find a place of it in the original. */
export interface Pruned {
  readonly settings: Record<string, unknown>;
  /** The path in the original settings of a path in the pruned ones (list entries may have moved up). */
  readonly original: (path: readonly (string | number)[]) => (string | number)[];
  /**
   * Takes out, in place, the part a mistake at `path` (of the pruned settings) is in: the
   * object in a list that holds it, or else the setting. False when nothing was left to take.
   */
  readonly drop: (path: readonly (string | number)[]) => boolean;
  /** True while nothing has been taken out: the settings are the original ones. */
  readonly whole: () => boolean;
}

/**
 * Takes the faulty parts out of a connection's settings (a copy), so that what is right in
 * them can still be parsed and checked in the same pass as the schema mistakes. A faulty
 * setting goes; a faulty object in a list goes on its own (the others keep their places
 * for messages); a missing required key takes its object with it. Undefined when nothing
 * checkable is left (the settings themselves are not an object, or miss a required key).
 * The mistakes themselves are reported by the schema, not here.
 */
export function pruneToSchema(schema: TSchema, settings: Record<string, unknown>): Pruned | undefined {
  const copy = copyTree(settings);
  const positions = new WeakMap<unknown[], number[]>();
  let removed = 0;
  const remove = (parent: unknown, key: string): void => {
    removed++;
    if (Array.isArray(parent)) {
      const at = Number(key);
      let indices = positions.get(parent);
      if (!indices) positions.set(parent, (indices = parent.map((_, i) => i)));
      parent.splice(at, 1);
      indices.splice(at, 1);
    } else if (isObject(parent)) {
      delete parent[key];
    }
  };
  const drop = (path: readonly (string | number)[]): boolean => {
    const keys = path.map(String);
    for (let depth = keys.length; depth >= 2; depth--) {
      const parent = valueAt(copy, keys.slice(0, depth - 1));
      if (Array.isArray(parent) && isObject(valueAt(copy, keys.slice(0, depth)))) {
        remove(parent, keys[depth - 1] as string);
        return true;
      }
    }
    if (keys.length === 0 || !((keys[0] as string) in copy)) return false;
    remove(copy, keys[0] as string);
    return true;
  };
  // Every round removes at least one value, so this ends; the bound guards against a schema surprise.
  for (let round = 0; round < 10_000; round++) {
    const error = Value.Errors(schema, copy).First();
    if (!error) return { settings: copy, original: (path) => originalPath(copy, positions, path), drop, whole: () => removed === 0 };
    let path = error.path
      .split('/')
      .slice(1)
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (valueAt(copy, path) === undefined) path = path.slice(0, -1);
    // A faulty text or number in a list would shift the line numbers that messages give: the list goes.
    if (path.length > 1 && Array.isArray(valueAt(copy, path.slice(0, -1))) && !isObject(valueAt(copy, path))) path = path.slice(0, -1);
    if (path.length === 0) return undefined;
    const parent = valueAt(copy, path.slice(0, -1));
    if (!Array.isArray(parent) && !isObject(parent)) return undefined;
    remove(parent, path[path.length - 1] as string);
  }
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of the lists and objects of JSON settings, sharing their texts, which cannot
 * change: a dummy's million lines are not copied one by one (structuredClone would).
 */
function copyTree<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyTree) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyTree(item)])) as T;
  return value;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

function originalPath(root: unknown, positions: WeakMap<unknown[], number[]>, path: readonly (string | number)[]): (string | number)[] {
  let node = root;
  return path.map((key) => {
    const here = node;
    node = Array.isArray(here) ? here[Number(key)] : isObject(here) ? here[String(key)] : undefined;
    return Array.isArray(here) && typeof key === 'number' ? (positions.get(here)?.[key] ?? key) : key;
  });
}
