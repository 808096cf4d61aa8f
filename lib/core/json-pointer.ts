/**
 * JSON Pointers (RFC 6901): `""` is the whole document, `/a/0/b~1c` is member `a`, its
 * element 0, its member `b/c` (`~1` stands for `/`, `~0` for `~`).
 */
import { fail, ok, type Result } from './errors.ts';

/** The pointer's reference tokens, or why it is not a pointer. */
export function parsePointer(pointer: string): Result<readonly string[]> {
  if (pointer === '') return ok([]);
  if (!pointer.startsWith('/'))
    return fail('PB_BAD_REQUEST', `"${pointer}" is not a JSON Pointer: it starts with "/" (or is "" for the whole document)`);
  if (/~[^01]|~$/.test(pointer))
    return fail('PB_BAD_REQUEST', `"${pointer}" is not a JSON Pointer: "~" is written ~0, and "/" inside a name ~1`);
  return ok(
    pointer
      .slice(1)
      .split('/')
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~')),
  );
}

/** What `tokens` point at in `document`, or undefined when nothing is there. */
export function resolvePointer(document: unknown, tokens: readonly string[]): unknown {
  let at: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      at = at[Number(token)];
    } else if (typeof at === 'object' && at !== null && Object.hasOwn(at, token)) {
      at = (at as Record<string, unknown>)[token];
    } else return undefined;
    if (at === undefined) return undefined;
  }
  return at;
}
