/**
 * Where a bench run's table goes. Every run is kept in `bench/results/<date>-<commit>.md`
 * (runs of one day at one commit share the file, in the order they ran); a full run also
 * replaces the latest full table in `bench/README.md`, between `latestStart` and
 * `latestEnd`, so the README holds the method and one table rather than a history.
 */

export const latestStart = '<!-- latest-full-run:start (npm run bench replaces this part) -->';
export const latestEnd = '<!-- latest-full-run:end -->';

/** The file name of a run: `2026-11-23-4fadaaa.md`. */
export const resultsFileName = (date: string, commit: string) => `${date}-${commit}.md`;

/** A results file with one more run: a new file gets a title, an existing one keeps its runs and gets this one after them. */
export function withRun(existing: string | undefined, date: string, commit: string, run: string): string {
  const body = `${run.trim()}\n`;
  if (existing === undefined) return `# Bench runs of ${date} at commit ${commit}\n\n${body}`;
  return `${existing.trimEnd()}\n\n${body}`;
}

/** The bench README with its latest full table replaced by this run's; throws when the README has no such part. */
export function withLatest(readme: string, run: string, resultsFile: string): string {
  const start = readme.indexOf(latestStart);
  const end = readme.indexOf(latestEnd);
  if (start < 0 || end < start) throw new Error(`bench/README.md has no ${latestStart} … ${latestEnd} part to replace`);
  const block = `${latestStart}\n\nKept in [\`results/${resultsFile}\`](results/${resultsFile}).\n\n${run.trim()}\n\n${latestEnd}`;
  return `${readme.slice(0, start)}${block}${readme.slice(end + latestEnd.length)}`;
}
