import { readFile } from 'node:fs/promises';
import test from 'ava';
import { connectionTypes } from '../../lib/config/connection-types.ts';

test('the README has a section per connection type, in the same order, opening with its summary', async (t) => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Connection types'), readme.indexOf('\n## ', readme.indexOf('## Connection types') + 1));
  const documented = [...section.matchAll(/^### `([a-z-]+)` — [^\n]*\n\n([^\n]+)\n/gm)].map(([, type, first]) => ({
    type,
    summary: first,
  }));
  t.deepEqual(
    documented,
    connectionTypes.map(({ type, summary }) => ({ type, summary })),
  );
});

test('every type has a summary that reads as one sentence', (t) => {
  for (const { type, summary } of connectionTypes) t.regex(summary, /^[A-Z].{10,120}\.$/, type);
});
