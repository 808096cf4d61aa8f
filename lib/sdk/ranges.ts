/**
 * Ranges in a declaration: `out/{0..39}` stands for out/0 … out/39, so a device of forty
 * outputs is one line, not forty (R-D1, R-N2). A range is `{<first>..<last>}` in digits,
 * counting up; as in a shell, a bound written with a leading zero (`{00..39}`) pads every
 * number to the wider bound's width (00 … 39). Several ranges in one text make every
 * combination, the last range counting fastest. Braces are no part of an id, so a text
 * without them is taken as it is.
 */
/**
 * The most names the ranges of one connection make (R-G4's `maxParameters` default): a
 * range of a million is a mistake in the flow file, not a million parameters.
 */
export const MAX_RANGE_NAMES = 100_000;

/** One name a text's ranges make, and the number each range put in it (`$1`, `$2` in a frame). */
export interface RangeName {
  readonly text: string;
  readonly numbers: readonly string[];
}

const RANGE = /\{(\d+)\.\.(\d+)\}/g;

/** True when `text` holds a brace, and so a range or a mistake in writing one. */
export function hasRange(text: string): boolean {
  return text.includes('{') || text.includes('}');
}

/**
 * The names `text` stands for, at most `limit` of them (a text without ranges is its own one
 * name), or what is wrong with its ranges. Counts before making any, so no range costs
 * memory to refuse.
 */
export function expandRanges(text: string, limit: number): readonly RangeName[] | string {
  const parts: string[] = [];
  const ranges: string[][] = [];
  let last = 0;
  let count = 1;
  for (const found of text.matchAll(RANGE)) {
    const [written, first = '', end = ''] = found;
    if (Number(first) > Number(end)) return `${written} counts down: write the lower number first ({${end}..${first}})`;
    count *= Number(end) - Number(first) + 1;
    parts.push(text.slice(last, found.index));
    last = found.index + written.length;
    ranges.push([first, end]);
  }
  parts.push(text.slice(last));
  if (hasRange(parts.join('')))
    return `"${text}" holds a brace that is not a range: a range is {<first>..<last>} in digits, as in out/{0..39}`;
  if (count > limit)
    return `"${text}" makes ${count.toLocaleString('en')} names, more than the ${MAX_RANGE_NAMES.toLocaleString('en')} the ranges of one connection may make in all (R-G4): declare fewer, or split the device into connections`;
  let names: RangeName[] = [{ text: parts[0] as string, numbers: [] }];
  ranges.forEach(([first = '', end = ''], index) => {
    const numbers = numbersOf(first, end);
    const after = parts[index + 1] as string;
    names = names.flatMap((name) => numbers.map((number) => ({ text: name.text + number + after, numbers: [...name.numbers, number] })));
  });
  return names;
}

/** The numbers of one range as written: padded with zeros when a bound is written with one. */
function numbersOf(first: string, end: string): string[] {
  const padded = /^0\d/.test(first) || /^0\d/.test(end);
  const width = padded ? Math.max(first.length, end.length) : 0;
  const numbers: string[] = [];
  for (let n = Number(first); n <= Number(end); n++) numbers.push(String(n).padStart(width, '0'));
  return numbers;
}

const REFERENCE = /\$(\$|\d+)/g;

/**
 * Puts a name's range numbers into a frame: `$1` is the first range's number, `$2` the
 * second's. `$$` stays as it is, for the frame's own reading (a dollar sign), and so does a
 * reference to a range the name does not have (see `unknownRangeReference`).
 */
export function fillRangeNumbers(frame: string, numbers: readonly string[]): string {
  return frame.replace(REFERENCE, (written, what: string) => (what === '$' ? written : (numbers[Number(what) - 1] ?? written)));
}

/** The first `$<n>` in `frame` past the `count` ranges of its parameter (`$0` included), if any. */
export function unknownRangeReference(frame: string, count: number): string | undefined {
  for (const [written, what] of frame.matchAll(REFERENCE)) if (what !== '$' && (Number(what) < 1 || Number(what) > count)) return written;
  return undefined;
}
