import { fail, ok, reasonOf, type Result } from './errors.ts';

/**
 * The one way a user's regular expression (`wsFilters`, `?filter=`, the `matches` step)
 * becomes something the hub runs. Fails with PB_BAD_FILTER and the reason when it is not
 * an expression the hub accepts.
 */
export function compileRegex(source: string): Result<RegExp> {
  try {
    return ok(new RegExp(source));
  } catch (error) {
    return fail('PB_BAD_FILTER', `not a regular expression: ${reasonOf(error)}`);
  }
}
