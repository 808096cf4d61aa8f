import test from 'ava';
import { latestEnd, latestStart, resultsFileName, withLatest, withRun } from '../../bench/lib/results.ts';

const run = '### 2026-11-24 · 2 cores · commit abc1234\n\n| scenario | metric |\n|---|---|\n| 1 GET | 1.00× |\n';

test('a run is kept in a file named after its day and commit, and a second run of that day and commit follows the first', (t) => {
  t.is(resultsFileName('2026-11-24', 'abc1234'), '2026-11-24-abc1234.md');
  const first = withRun(undefined, '2026-11-24', 'abc1234', '## first run\n\ntable one\n');
  t.is(first, '# Bench runs of 2026-11-24 at commit abc1234\n\n## first run\n\ntable one\n');
  t.is(withRun(first, '2026-11-24', 'abc1234', '## second run\n\ntable two'), `${first}\n## second run\n\ntable two\n`);
});

test('a full run replaces the latest table of the bench README and leaves the rest as it was', (t) => {
  const readme = `# Benchmarks\n\nThe method.\n\n## Latest full run\n\n${latestStart}\nold table\n${latestEnd}\n\n## After\n`;
  const next = withLatest(readme, run, '2026-11-24-abc1234.md');
  t.true(next.startsWith('# Benchmarks\n\nThe method.\n\n## Latest full run\n\n'));
  t.true(next.endsWith(`${latestEnd}\n\n## After\n`));
  t.false(next.includes('old table'));
  t.true(next.includes('[`results/2026-11-24-abc1234.md`](results/2026-11-24-abc1234.md)'));
  t.true(next.includes('| 1 GET | 1.00× |'));
  t.is(withLatest(next, run, '2026-11-24-abc1234.md'), next, 'the same run twice gives the same README');
  t.throws(() => withLatest('# Benchmarks\n', run, 'x.md'), { message: /no <!-- latest-full-run:start/ });
});
