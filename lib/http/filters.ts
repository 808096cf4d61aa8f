import { fail, ok, type Result } from '../core/errors.ts';

/**
 * The `?filter=` expressions of a request (`/parameters`, the `/ws` upgrade), compiled once
 * per request; one that is not a regular expression refuses the request with its code.
 */
export function compileFilters(sources: readonly string[]): Result<RegExp[]> {
  const filters: RegExp[] = [];
  for (const source of sources) {
    try {
      filters.push(new RegExp(source));
    } catch {
      return fail('PB_BAD_FILTER', `filter ${JSON.stringify(source)} is not a regular expression`);
    }
  }
  return ok(filters);
}
