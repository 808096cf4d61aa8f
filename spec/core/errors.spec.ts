import { readFile } from 'node:fs/promises';
import test from 'ava';
import { errorCodes } from '../../lib/core/errors.ts';

test('the README documents every error code with the same text, and no others', async (t) => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Error codes'));
  const rows = [...section.matchAll(/^\| `(PB_[A-Z_]+)` \| (.+) \|$/gm)].map(([, code, text]) => [code, text]);
  t.deepEqual(Object.fromEntries(rows), { ...errorCodes });
});

test('codes are stable identifiers: upper case with the PB_ prefix', (t) => {
  for (const code of Object.keys(errorCodes)) t.regex(code, /^PB_[A-Z]+(_[A-Z]+)*$/);
});
