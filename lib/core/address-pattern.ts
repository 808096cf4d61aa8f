import { fail, ok, type Result } from './errors.ts';

/**
 * A set of addresses written as MQTT topic filters (R-A1): levels split at `/`, `+` stands
 * for exactly one level, a final `#` for any number of levels (none included), anything
 * else for itself. `studio/#` is every parameter of `studio`; `+/onair` the `onair` of every
 * connection; `#` everything.
 */
export class AddressPatterns {
  private readonly patterns: readonly (readonly string[])[];

  private constructor(patterns: readonly string[]) {
    this.patterns = patterns.map((pattern) => pattern.split('/'));
  }

  /** Checks every pattern; the failure names the first that is not a topic filter. */
  static compile(patterns: readonly string[]): Result<AddressPatterns> {
    for (const pattern of patterns) {
      const levels = pattern.split('/');
      const bad = levels.findIndex(
        (level, i) =>
          level === '' || (level.includes('#') && (level !== '#' || i !== levels.length - 1)) || (level.includes('+') && level !== '+'),
      );
      if (bad >= 0)
        return fail(
          'PB_BAD_REQUEST',
          `"${pattern}" is not an address pattern: levels are separated by single "/", "+" stands alone for one level, "#" only last for the rest`,
        );
    }
    return ok(new AddressPatterns(patterns));
  }

  /** True when any pattern matches the whole address. */
  matches(address: string): boolean {
    const levels = address.split('/');
    return this.patterns.some((pattern) => matchLevels(pattern, levels));
  }

  /** True when some address of this connection could match: the connection's first level matches. */
  reachesConnection(connectionId: string): boolean {
    return this.patterns.some((pattern) => pattern[0] === '#' || pattern[0] === '+' || pattern[0] === connectionId);
  }
}

function matchLevels(pattern: readonly string[], levels: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const level = pattern[i];
    if (level === '#') return true;
    if (i >= levels.length) return false;
    if (level !== '+' && level !== levels[i]) return false;
  }
  return pattern.length === levels.length;
}
