import { readdir, readFile } from 'node:fs/promises';
import test from 'ava';
import { connectionTypes } from '../../lib/config/connection-types.ts';
import { checkoutPackageTypes } from '../../lib/config/reference.ts';

const page = (type: string) => new URL(`../../docs/reference/connections/${type}.md`, import.meta.url);

test('the README lists every connection type with a link to its reference page, in the order of the registry, then the types of packages/', async (t) => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Connection types'), readme.indexOf('\n## ', readme.indexOf('## Connection types') + 1));
  const listed = [...section.matchAll(/^\| \[`([a-z-]+)`\]\(docs\/reference\/connections\/([a-z-]+)\.md\) \|/gm)].map(([, type, file]) => ({
    type,
    file,
  }));
  t.deepEqual(
    listed,
    [...connectionTypes, ...(await checkoutPackageTypes())].map(({ type }) => ({ type, file: type })),
  );
});

test('each type has a reference page titled with its type', async (t) => {
  for (const { type } of connectionTypes) {
    const text = await readFile(page(type), 'utf8');
    t.true(text.startsWith(`# \`${type}\` — `), `docs/reference/connections/${type}.md opens with "# \`${type}\` — …"`);
  }
});

test('every type has a summary that reads as one sentence', (t) => {
  for (const { type, summary } of connectionTypes) t.regex(summary, /^[A-Z].{10,120}\.$/, type);
});

test('a connection type is a folder of lib/connections/ named after it, holding <type>.ts, and one entry of the list of types', async (t) => {
  const folder = new URL('../../lib/connections/', import.meta.url);
  const folders = (await readdir(folder, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  t.deepEqual(folders.sort(), connectionTypes.map(({ type }) => type).sort(), 'every folder is a type, every type a folder');
  for (const { type } of connectionTypes) {
    const source = await readFile(new URL(`${type}/${type}.ts`, folder), 'utf8');
    t.true(source.includes(`type: '${type}'`), `lib/connections/${type}/${type}.ts defines the type "${type}"`);
  }
});
