// What a save or a restore would change in the flow file, as `git diff` shows it: the lines
// removed and added, with a few unchanged ones around each change.

/** @typedef {{ kind: ' ' | '-' | '+' | '…', text: string }} DiffLine */

/** Unchanged lines shown around each change. */
const CONTEXT = 2;
/** The longest diff worked out line by line (lines removed and added); past it, the changed stretch is shown whole. */
const MOST_CHANGES = 2000;

/**
 * The lines of `after` against `before`, as `git diff` shows them: the fewest lines removed
 * and added (Myers' algorithm, between what both share at the start and the end), with
 * `CONTEXT` unchanged lines around each change and a `…` row for those left out.
 * @param {string} before @param {string} after @returns {DiffLine[]}
 */
export function lineDiff(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const middleA = a.slice(start, a.length - end);
  const middleB = b.slice(start, b.length - end);
  /** @type {DiffLine[]} */
  const lines = [
    ...a.slice(0, start).map((text) => /** @type {DiffLine} */ ({ kind: ' ', text })),
    ...(fewestChanges(middleA, middleB) ?? [
      ...middleA.map((text) => /** @type {DiffLine} */ ({ kind: '-', text })),
      ...middleB.map((text) => /** @type {DiffLine} */ ({ kind: '+', text })),
    ]),
    ...a.slice(a.length - end).map((text) => /** @type {DiffLine} */ ({ kind: ' ', text })),
  ];
  const near = lines.map((line) => line.kind !== ' ');
  /** @type {DiffLine[]} */
  const shown = [];
  lines.forEach((line, index) => {
    const close = near.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some(Boolean);
    if (close) shown.push(line);
    else if (shown.at(-1)?.kind !== '…') shown.push({ kind: '…', text: '' });
  });
  while (shown[0]?.kind === '…') shown.shift();
  while (shown.at(-1)?.kind === '…') shown.pop();
  return shown.some((line) => line.kind !== ' ' && line.kind !== '…') ? shown : [];
}

/**
 * The fewest removals and additions that make `b` of `a`, with the lines they keep (Myers,
 * "An O(ND) Difference Algorithm"); undefined past `MOST_CHANGES`.
 * @param {string[]} a @param {string[]} b @returns {DiffLine[] | undefined}
 */
function fewestChanges(a, b) {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  /** @type {Int32Array[]} */
  const trace = [];
  let found = -1;
  for (let d = 0; d <= Math.min(n + m, MOST_CHANGES) && found < 0; d++) {
    trace.push(v.slice());
    const at = (/** @type {number} */ k) => v[offset + k] ?? 0;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  /** @type {DiffLine[]} */
  const lines = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const before = /** @type {Int32Array} */ (trace[d]);
    const at = (/** @type {number} */ k) => before[offset + k] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousX = at(down ? k + 1 : k - 1);
    const previousY = previousX - (down ? k + 1 : k - 1);
    while (x > previousX && y > previousY) {
      lines.push({ kind: ' ', text: /** @type {string} */ (a[--x]) });
      y--;
    }
    if (down) lines.push({ kind: '+', text: /** @type {string} */ (b[--y]) });
    else lines.push({ kind: '-', text: /** @type {string} */ (a[--x]) });
  }
  while (x > 0 && y > 0) {
    lines.push({ kind: ' ', text: /** @type {string} */ (a[--x]) });
    y--;
  }
  return lines.reverse();
}
