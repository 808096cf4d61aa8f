import { readdir, readFile } from 'node:fs/promises';
import test from 'ava';

test('lib/http imports nothing from lib/connections: connections use the server, not the other way', async (t) => {
  const folder = new URL('../../lib/http/', import.meta.url);
  for (const name of await readdir(folder)) {
    const source = await readFile(new URL(name, folder), 'utf8');
    const imports = [...source.matchAll(/^(?:import|export)\b[^;]*?from\s+'([^']+)'/gms)].map(([, from]) => from);
    t.false(imports.some((from) => from?.startsWith('../connections/')), `${name} imports ${imports.join(', ')}`);
  }
});
