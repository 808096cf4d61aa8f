import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { Type } from '@sinclair/typebox';
import { connectionTypes } from '../../lib/config/connection-types.ts';
import {
  allowedOf,
  cell,
  checkoutPackageTypes,
  connectionReference,
  generatedEnd,
  generatedOf,
  generatedStart,
  readmeFromReference,
  referenceFolder,
  settingRows,
  withGenerated,
} from '../../lib/config/reference.ts';
import { sharedSettings } from '../../lib/config/schema.ts';

// The types of the packages in packages/ too: their pages and the README's list are generated alike.
const pages = connectionReference(connectionTypes, sharedSettings, await checkoutPackageTypes());

test('every page of docs/reference/connections/ holds what the schema makes of it (run npm run docs)', async (t) => {
  for (const page of pages) {
    const file = join(referenceFolder, page.file);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    t.not(text, undefined, `docs/reference/connections/${page.file} is missing: run npm run docs`);
    t.is(generatedOf(text ?? ''), page.generated, `docs/reference/connections/${page.file} is stale: run npm run docs`);
  }
});

test('the reference has a page for every registered type and none for a type that is not', async (t) => {
  const files = (await readdir(referenceFolder)).filter((file) => file.endsWith('.md')).sort();
  t.deepEqual(
    files,
    pages
      .map((page) => page.file)
      .filter((file) => file !== readmeFromReference)
      .sort(),
  );
});

test('every setting of every type, and every common setting, says what it is for', (t) => {
  for (const type of connectionTypes) {
    for (const row of settingRows(type.settings.properties, type.settings.required))
      t.not(row.description, '', `${type.type}: ${row.name}`);
  }
  for (const row of settingRows(sharedSettings)) t.not(row.description, '', row.name);
});

test('a settings row gives the type, the default or that it is required, and what values are allowed', (t) => {
  const rows = settingRows(
    Type.Object({
      port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, default: 17011, description: 'TCP port.' })),
      mode: Type.Union([Type.Literal('fire'), Type.Literal('skip')], { description: 'What to do.' }),
      lines: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { default: '' })),
      timers: Type.Optional(Type.Array(Type.Object({ duration: Type.Integer({ minimum: 1 }) }), { maxItems: 16, default: [] })),
    }).properties,
    ['mode'],
  );
  t.deepEqual(rows, [
    { name: 'port', type: 'integer', default: '`17011`', allowed: '0–65535', description: 'TCP port.' },
    { name: 'mode', type: 'string', default: 'required', allowed: '`"fire"`, `"skip"`', description: 'What to do.' },
    { name: 'lines', type: 'string or list of strings', default: '`""`', allowed: '', description: '' },
    { name: 'timers', type: 'list of objects', default: '`[]`', allowed: 'at most 16 entries', description: '' },
    { name: 'timers[].duration', type: 'integer', default: 'required', allowed: '≥ 1', description: '' },
  ]);
  t.is(allowedOf(Type.String({ pattern: '^[a-z]+$' })), 'matches `^[a-z]+$`');
  t.is(allowedOf(Type.String({ pattern: '^[a-z]+$', expected: 'lower-case letters' })), 'lower-case letters');
});

test('table cells keep pipes and <placeholders> as text, outside code spans and in them', (t) => {
  t.is(cell('val|set under <prefix>/`<id>`'), 'val\\|set under &lt;prefix&gt;/`<id>`');
});

test('the generated part is replaced between its markers and the prose around it is kept', (t) => {
  const part = { file: 'x.md', title: '`x`', generated: 'new table' };
  const page = `# \`x\` — a thing\n\n${generatedStart}\nold table\n${generatedEnd}\n\nProse.\n`;
  t.is(withGenerated(page, part), `# \`x\` — a thing\n\n${generatedStart}\nnew table\n${generatedEnd}\n\nProse.\n`);
  t.is(generatedOf(withGenerated(page, part)), 'new table');
  t.is(withGenerated(undefined, part), `# \`x\`\n\n${generatedStart}\nnew table\n${generatedEnd}\n`);
  t.throws(() => withGenerated('# a page without markers\n', part));
});
