import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

/**
 * The layers of lib/, as folder arrows. A folder is a top-level folder of lib/ (its
 * subfolders belong to it), except that each connection type's folder below
 * lib/connections/ is a folder of its own; `.` is the files at the top (hub, cli).
 * `connections/*` stands for every type's folder.
 */
const allowed: Readonly<Record<string, readonly string[]>> = {
  core: [],
  rules: ['core'],
  http: ['core'],
  'connections/*': ['core', 'connections'],
  connections: ['core', 'http'],
  state: ['core'],
  config: ['core', 'connections', 'connections/*', 'rules'],
  '.': ['core', 'config', 'connections', 'rules', 'state'],
};

/** Files that may import a folder beyond their own folder's arrows: the one place each seam is crossed. */
const onlyImportedBy: Readonly<Record<string, readonly string[]>> = {
  // uWS glue serves one connection type.
  http: ['connections/rest-api.ts'],
  // Type folders are reached through the list of types alone.
  'connections/*': ['config/connection-types.ts'],
};

const lib = resolve(dirname(fileURLToPath(import.meta.url)), '../lib');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The folder a file of lib/ belongs to, as the table names it. */
function folderOf(file: string): string {
  const parts = relative(lib, file).split('/');
  if (parts.length === 1) return '.';
  if (parts[0] === 'connections' && parts.length > 2) return `connections/${parts[1]}`;
  return parts[0] as string;
}

/** The table's name for a folder: every type folder answers to `connections/*`. */
const ruleOf = (folder: string) => (folder.startsWith('connections/') ? 'connections/*' : folder);

interface Import {
  readonly from: string;
  readonly to: string;
}

const importRe =
  /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(importRe)].map((match) => ({
    from: file,
    to: resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string),
  }));
}

const imports = sources(lib).flatMap(importsOf);
const name = (file: string) => relative(lib, file);

test('every import between lib/ folders runs along an allowed arrow', (t) => {
  const wrong = imports.flatMap(({ from, to }) => {
    const source = folderOf(from);
    const target = folderOf(to);
    if (source === target) return [];
    const arrows = allowed[ruleOf(source)];
    if (arrows === undefined) return [`${name(from)}: folder ${source} is not in the table`];
    if (!arrows.includes(ruleOf(target))) return [`${name(from)} → ${name(to)} (${source} may import ${arrows.join(', ') || 'nothing'})`];
    const gate = onlyImportedBy[ruleOf(target)];
    if (gate && !gate.includes(name(from))) return [`${name(from)} → ${name(to)} (only ${gate.join(', ')} may import ${ruleOf(target)})`];
    return [];
  });
  t.deepEqual(wrong, []);
});

test('no lib/ folder imports a folder that imports it back, however far round', (t) => {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const [source, target] = [folderOf(from), folderOf(to)];
    if (source !== target) edges.set(source, (edges.get(source) ?? new Set()).add(target));
  }
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (folder: string, chain: string[]) => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'visiting') return void cycles.push([...chain.slice(chain.indexOf(folder)), folder].join(' → '));
    state.set(folder, 'visiting');
    for (const next of edges.get(folder) ?? []) visit(next, [...chain, folder]);
    state.set(folder, 'done');
  };
  for (const folder of edges.keys()) visit(folder, []);
  t.deepEqual(cycles, []);
});

test('the spec reads imports of every kind, and every folder of lib/ is in the table', (t) => {
  t.true(imports.length > 100, 'imports were found');
  t.true(
    imports.some(({ from, to }) => name(from) === 'connections/rest-api.ts' && name(to).startsWith('http/')),
    'rest-api reaches the http layer',
  );
  const folders = new Set(sources(lib).map((file) => ruleOf(folderOf(file))));
  t.deepEqual(
    [...folders].filter((folder) => !(folder in allowed)),
    [],
  );
});

test('a connection type folder holds no code another type imports', (t) => {
  const crossing = imports.filter(({ from, to }) => {
    const [source, target] = [folderOf(from), folderOf(to)];
    return target.startsWith('connections/') && source.startsWith('connections/') && source !== target;
  });
  t.deepEqual(
    crossing.map(({ from, to }) => `${name(from)} → ${name(to)}`),
    [],
  );
});
