import { type Result } from '../core/errors.ts';
import { type Pattern } from '../core/regex.ts';
/**
 * The `?filter=` expressions of a request (`/parameters`, the `/ws` upgrade), compiled once
 * per request; one that is not a regular expression refuses the request with its code.
 */
export declare function compileFilters(sources: readonly string[]): Result<Pattern[]>;
