import { RE2JS } from 're2js';
import { fail, ok, reasonOf, type Result } from './errors.ts';

/** A compiled user expression: tested unanchored, like `RegExp.prototype.test`. */
export interface Pattern {
  /** The expression as the user wrote it. */
  readonly source: string;
  test(text: string): boolean;
}

/** A compiled expression that also says what its named groups matched. */
export interface GroupPattern extends Pattern {
  /** Its named groups, in the order `groups` gives their text. */
  readonly names: readonly string[];
  /** The text of each named group in the first match in `text` ("" for one that took no part), or undefined when none. */
  groups(text: string): readonly string[] | undefined;
  /** The text of each named group in every match in `text`, in order, matches not overlapping (as `String.matchAll`). */
  everyGroups(text: string): (readonly string[])[];
}

/**
 * Bounds that keep the cost of one test small. Matching is linear in the text, but the
 * factor is the size of the compiled program: `[\s\S]{1000}` repeated thirty times tested
 * against 100 KiB took 20 s. Expressions people write for addresses and values compile to
 * a few dozen instructions.
 */
export const regexLimits = {
  /** Characters in an expression. */
  maxLength: 512,
  /** Instructions of the compiled program. */
  maxProgram: 1000,
} as const;

/**
 * The one way a user's regular expression (`wsFilters`, `?filter=`, the `matches` step)
 * becomes something the hub runs (R-H9). The engine is RE2 (re2js), which runs in time
 * linear in the text: no expression can hold the event loop with backtracking. What RE2
 * cannot run (backreferences, lookaround) or what is beyond `regexLimits` fails with
 * PB_BAD_FILTER and the reason.
 */
export function compileRegex(source: string): Result<GroupPattern> {
  // The same expression compiles once: 10,000 dashboards with one filter held 10,000 programs
  // (about 7 KB each) before. Bounded, oldest first out, so distinct expressions cannot grow it.
  const known = compiledBySource.get(source);
  if (known) return known;
  const compiled = compileOnce(source);
  if (compiledBySource.size >= COMPILED_KEPT) compiledBySource.delete(compiledBySource.keys().next().value!);
  compiledBySource.set(source, compiled);
  return compiled;
}

/** Expressions kept compiled: a compiled program is immutable, so clients and rules share one. */
const COMPILED_KEPT = 256;
const compiledBySource = new Map<string, Result<GroupPattern>>();

function compileOnce(source: string): Result<GroupPattern> {
  if (source.length > regexLimits.maxLength) {
    return fail('PB_BAD_FILTER', `expression of ${source.length} characters, longer than the ${regexLimits.maxLength} the hub takes`);
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    return fail(
      'PB_BAD_FILTER',
      `not a regular expression the hub accepts (RE2 syntax): ${reasonOf(error).replace(/^error parsing regexp: /, '')}`,
    );
  }
  const size = programSize(compiled);
  if (size > regexLimits.maxProgram) {
    return fail(
      'PB_BAD_FILTER',
      `expression too large: ${size} instructions compiled, at most ${regexLimits.maxProgram} (lower the repeat counts)`,
    );
  }
  const named = compiled.namedGroups() as Record<string, number>;
  const names = Object.keys(named);
  const numbers = names.map((name) => named[name] as number);
  return ok({
    source,
    names,
    test: (text) => compiled.test(text),
    groups(text) {
      const matcher = compiled.matcher(text);
      if (!matcher.find()) return undefined;
      return numbers.map((number) => matcher.group(number) ?? '');
    },
    everyGroups(text) {
      const matcher = compiled.matcher(text);
      const found: (readonly string[])[] = [];
      // find() goes on after the previous match, and past an empty one, so this ends within the text.
      while (matcher.find()) found.push(numbers.map((number) => matcher.group(number) ?? ''));
      return found;
    },
  });
}

/** The compiled program's instruction count; re2js exposes it only on its internals. */
function programSize(compiled: RE2JS): number {
  const internals = compiled as unknown as { re2Input?: { prog?: { numInst?: () => number } } };
  return internals.re2Input?.prog?.numInst?.() ?? 0;
}
