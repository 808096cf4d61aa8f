/**
 * A package type's settings schema carried from the thread that loaded its module to the
 * hub (R-PK1). TypeBox marks a schema with registered symbols (`Symbol.for('TypeBox.Kind')`,
 * `…Optional`, `…Hint`), which the structured clone drops like JSON does: without them the
 * hub could neither check settings nor build the flow file's schema, its forms and reference
 * pages. So each such key travels as a text key and is made a symbol again here. Functions
 * (a Transform's decode) do not travel: the hub never runs a package's code.
 */

/** The text a registered symbol key travels as: a NUL, so no schema's own key can be mistaken for one. */
const SYMBOL_KEY = '\u0000symbol:';
/** How deep a schema may nest, and how many nodes it may have: a bound on what the hub decodes. */
const MOST_DEPTH = 64;
const MOST_NODES = 100_000;

/** A schema as it travels: plain data, its registered symbol keys as text. */
export function encodeSchema(schema: unknown): unknown {
  let nodes = 0;
  const encode = (value: unknown, depth: number): unknown => {
    if (++nodes > MOST_NODES || depth > MOST_DEPTH)
      throw new Error(`its settings schema is larger than ${MOST_NODES} nodes or deeper than ${MOST_DEPTH}`);
    if (typeof value === 'function' || typeof value === 'symbol') return undefined;
    if (value === null || typeof value !== 'object' || value instanceof RegExp) return value;
    if (Array.isArray(value)) return value.map((item) => encode(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const encoded = encode((value as Record<string, unknown>)[key], depth + 1);
      if (encoded !== undefined) out[key] = encoded;
    }
    for (const key of Object.getOwnPropertySymbols(value)) {
      const name = Symbol.keyFor(key);
      const encoded = encode((value as Record<symbol, unknown>)[key], depth + 1);
      if (name !== undefined && encoded !== undefined) out[`${SYMBOL_KEY}${name}`] = encoded;
    }
    return out;
  };
  return encode(schema, 0);
}

/** A schema as the hub uses it, from what travelled; undefined when it is no object schema or exceeds the bounds. */
export function decodeSchema(wire: unknown): Record<string | symbol, unknown> | undefined {
  let nodes = 0;
  const decode = (value: unknown, depth: number): unknown => {
    if (++nodes > MOST_NODES || depth > MOST_DEPTH) throw new Error('too large');
    if (value === null || typeof value !== 'object' || value instanceof RegExp) return value;
    if (Array.isArray(value)) return value.map((item) => decode(item, depth + 1));
    const out: Record<string | symbol, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // A key that is no plain property (`__proto__`) is dropped rather than set on the prototype.
      if (key === '__proto__') continue;
      const decoded = decode(item, depth + 1);
      if (key.startsWith(SYMBOL_KEY)) out[Symbol.for(key.slice(SYMBOL_KEY.length))] = decoded;
      else out[key] = decoded;
    }
    return out;
  };
  let schema: unknown;
  try {
    schema = decode(wire, 0);
  } catch {
    return undefined;
  }
  const object = schema as Record<string | symbol, unknown> | null;
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  if (object[Symbol.for('TypeBox.Kind')] !== 'Object' || typeof object['properties'] !== 'object') return undefined;
  return object;
}
