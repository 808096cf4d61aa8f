/**
 * JSON Pointers (RFC 6901): `""` is the whole document, `/a/0/b~1c` is member `a`, its
 * element 0, its member `b/c` (`~1` stands for `/`, `~0` for `~`).
 */
import { type Result } from './errors.ts';
/** The pointer's reference tokens, or why it is not a pointer. */
export declare function parsePointer(pointer: string): Result<readonly string[]>;
/** What `tokens` point at in `document`, or undefined when nothing is there. */
export declare function resolvePointer(document: unknown, tokens: readonly string[]): unknown;
