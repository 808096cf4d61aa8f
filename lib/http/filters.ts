import { fail, ok, type Result } from '../core/errors.ts';
import { compileRegex, type Pattern } from '../core/regex.ts';

/**
 * The `?filter=` expressions of a request (`/parameters`, the `/ws` upgrade), compiled once
 * per request; one that is not a regular expression refuses the request with its code.
 */
export function compileFilters(sources: readonly string[]): Result<Pattern[]> {
  const filters: Pattern[] = [];
  for (const source of sources) {
    const compiled = compileRegex(source);
    if (!compiled.ok) return fail('PB_BAD_FILTER', `filter ${JSON.stringify(source)}: ${compiled.error.message}`);
    filters.push(compiled.value);
  }
  return ok(filters);
}
