import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import ts from 'typescript';
import { connectionTypes } from '../lib/config/connection-types.ts';
import { readModule } from './helpers/module-syntax.ts';

/**
 * The layers of lib/, as folder arrows. A folder is a top-level folder of lib/ (its
 * subfolders belong to it), except that each connection type's folder below
 * lib/connections/ is a folder of its own; `.` is the files at the top (cli).
 * `connections/*` stands for every type's folder.
 */
const allowed: Readonly<Record<string, readonly string[]>> = {
  core: [],
  // The public face of connection types (`patchbay-hub/connection`) and the device kit behind it.
  sdk: ['core'],
  // Wire codecs that more than one type speaks (Ember+), and no part of the public face; their decoding off the loop is the process kit's.
  protocols: ['sdk'],
  rules: ['core'],
  http: ['core'],
  'connections/*': ['core', 'sdk', 'protocols', 'connections', 'http', 'broker', 'site'],
  // The serving contract includes what the site needs of the hub, which the site writes (site/hub-port.ts).
  connections: ['core', 'sdk', 'site'],
  state: ['core'],
  // One MQTT link to a broker, signed with the site key when hubs share it (R-M4, R-AV3).
  broker: ['core', 'sdk'],
  // Hubs sharing a broker: the share, the redundancy group and its vote (R-M5, R-B1–B5, R-AV1–AV3), over the link.
  site: ['core', 'sdk', 'broker'],
  config: ['core', 'sdk', 'connections', 'connections/*', 'rules'],
  // What a studio can add beside the flow file (R-ST2): where the flow keeps modules is config's, how an archive is checked its type's (`ModuleArchives`).
  store: ['core', 'connections', 'config'],
  hub: ['core', 'sdk', 'config', 'connections', 'rules', 'state'],
  // `patchbay-hub/testing`: a type of a package run in a real hub, for its author's specs.
  testing: ['core', 'sdk', 'config', 'hub'],
  '.': ['core', 'config', 'hub', 'rules', 'state', 'broker', 'site', 'store'],
};

/** Files that may import a folder beyond their own folder's arrows: the one place each seam is crossed. */
const onlyImportedBy: Readonly<Record<string, readonly string[]>> = {
  // uWS glue serves the rest-api, and its loader, answers, streams and Host/Origin checks the OSCQuery server of the osc type (R-DS2).
  http: [
    'connections/rest-api/rest-api.ts',
    'connections/osc/oscquery.ts',
    'connections/osc/oscquery-answers.ts',
    'connections/osc/oscquery-gate.ts',
    'connections/nmos/node-server.ts',
  ],
  // Type folders are reached through the list of types alone.
  'connections/*': ['config/connection-types.ts'],
  // The site is carried by the mqtt type, its port to the hub is part of the serving contract, and its witness run by the command.
  site: [
    'connections/serving.ts',
    'connections/mqtt/mqtt.ts',
    'connections/mqtt/bridge.ts',
    'connections/mqtt/settings.ts',
    'witness-command.ts',
  ],
};

/**
 * What a type's folder may import of lib/ (R-PK2): the public face, the value helpers of
 * core, and shared wire codecs — what a type from a package gets (less the codecs, which it
 * brings itself). The types that serve the hub also reach its plumbing and the HTTP layer.
 */
const publicFace = ['sdk/index.ts'];
const servingTypes: Readonly<Record<string, readonly string[]>> = {
  'connections/rest-api': ['connections/serving.ts', 'connections/connection.ts', 'http/'],
  'connections/mqtt': [
    'connections/serving.ts',
    'broker/',
    'site/site.ts',
    'site/publishing.ts',
    'site/settings.ts',
    'site/group/timing.ts',
  ],
  'connections/osc': ['connections/serving.ts', 'http/uws.ts', 'http/respond.ts', 'http/stream.ts', 'http/hosts.ts', 'http/origins.ts'],
  // An NMOS node serves its Node and Events APIs on a uWS listener of its own (R-NM1, R-NM2).
  'connections/nmos': ['connections/serving.ts', 'http/uws.ts'],
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

/** One cycle per tangle of a graph, each as `a → b → a`: a depth-first walk that meets a node it is still inside. */
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: string, chain: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') return void cycles.push([...chain.slice(chain.indexOf(node)), node].join(' → '));
    state.set(node, 'visiting');
    for (const next of edges.get(node) ?? []) visit(next, [...chain, node]);
    state.set(node, 'done');
  };
  for (const node of edges.keys()) visit(node, []);
  return cycles;
}

test('no lib/ folder imports a folder that imports it back, however far round', (t) => {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const [source, target] = [folderOf(from), folderOf(to)];
    if (source !== target) edges.set(source, (edges.get(source) ?? new Set()).add(target));
  }
  t.deepEqual(cyclesOf(edges), []);
});

test('the spec reads imports of every kind, and every folder of lib/ is in the table', (t) => {
  t.true(imports.length > 100, 'imports were found');
  t.true(
    imports.some(({ from, to }) => name(from) === 'connections/rest-api/rest-api.ts' && name(to).startsWith('http/')),
    'rest-api reaches the http layer',
  );
  const folders = new Set(sources(lib).map((file) => ruleOf(folderOf(file))));
  t.deepEqual(
    [...folders].filter((folder) => !(folder in allowed)),
    [],
  );
});

test('a connection type imports only the public face and codecs, as a package does; the types that serve the hub their plumbing too', (t) => {
  const wrong = imports.flatMap(({ from, to }) => {
    const source = folderOf(from);
    const target = name(to);
    if (!source.startsWith('connections/') || folderOf(to) === source) return [];
    const allowedHere = [...publicFace, 'protocols/', ...(servingTypes[source] ?? [])];
    return allowedHere.some((path) => target === path || (path.endsWith('/') && target.startsWith(path)))
      ? []
      : [`${name(from)} → ${target}`];
  });
  t.deepEqual(wrong, []);
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

/*
 * The checks below parse each file (spec/helpers/module-syntax.ts) instead of matching
 * text: they need to tell type-only imports from the rest, to see require() and import()
 * calls, and to skip comments.
 */
const modules = new Map(sources(lib).map((file) => [file, readModule(file)]));

test('no lib/ file imports a file that imports it back, however far round, types included', (t) => {
  // In a cycle of imports that stay in the JavaScript, one of the files runs before the
  // other has finished loading and meets its exports uninitialised. A cycle through
  // `import type` alone is harmless at run time, but two files that need each other's
  // types are one job in two places: the shared type goes where both can import it.
  // import() and require() calls are left out: they load their module when the code runs.
  const edges = new Map<string, Set<string>>();
  for (const [file, { references }] of modules) {
    for (const { specifier, kind } of references) {
      if (kind === 'dynamic' || !specifier.startsWith('.')) continue;
      edges.set(name(file), (edges.get(name(file)) ?? new Set()).add(name(resolve(dirname(file), specifier))));
    }
  }
  t.deepEqual(cyclesOf(edges), []);
});

/**
 * Packages that only some files of lib/ may import, by any kind of import (a type-only one
 * too: it ties the file to the package's API all the same), as paths below lib/ where a path
 * ending in `/` is a folder. One line per package.
 */
const packageHomes: Readonly<Record<string, readonly string[]>> = {
  // Loaded in one place, which also tells the native binary from the slow fallback shim.
  'uWebSockets.js': ['http/uws.ts'],
  lmdb: ['state/'],
  mqtt: ['broker/', 'site/', 'connections/mqtt/'],
  'node-osc': ['connections/osc/packets.ts', 'connections/companion-module/host-services.ts'],
  // DNS-SD for the NMOS node's registries (R-NM1): one file asks and reads.
  'multicast-dns': ['connections/nmos/registry-discovery.ts'],
  // The NMOS receivers' WebSocket client to IS-07 senders (R-NM3): one file connects.
  ws: ['connections/nmos/event-socket.ts'],
  // metrics.ts builds the registry; route.ts only names its type, which the routes serve.
  'prom-client': ['http/metrics.ts', 'http/route.ts'],
};

/** The package a bare specifier names (`pkg` of `pkg/sub`, `@scope/pkg` of `@scope/pkg/sub`), or undefined for a path or `node:` module. */
function packageOf(specifier: string): string | undefined {
  if (/^[./]|^[a-z]+:/.test(specifier)) return undefined;
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

test('each guarded package is imported only where the table lets it in', (t) => {
  const wrong = [...modules].flatMap(([file, { references }]) =>
    references.flatMap(({ specifier, line }) => {
      const homes = packageHomes[packageOf(specifier) ?? ''];
      if (homes === undefined || homes.some((home) => name(file).startsWith(home))) return [];
      return [`${name(file)}:${line} imports ${specifier} (only ${homes.join(', ')} may)`];
    }),
  );
  t.deepEqual(wrong, []);
});

/** Where a program is started in a process or thread of its own that the hub keeps: the process kit (sdk/process/) alone. */
const programStarters = ['sdk/process/'];

test('only the process kit starts a program the hub keeps running: a fourth supervisor is refused', (t) => {
  // A value import of what starts one (a type import starts nothing).
  const starts = /import\s*\{[^}]*(?<!type )\b(fork|spawn|Worker)\b[^}]*\}\s*from\s*'node:(child_process|worker_threads)'/;
  const wrong = sources(lib)
    .filter((file) => starts.test(readFileSync(file, 'utf8')))
    .map(name)
    .filter((file) => !programStarters.some((home) => file.startsWith(home)));
  t.deepEqual(wrong, []);
  t.true(starts.test("import { type ChildProcess, fork } from 'node:child_process'"), 'the check sees a fork');
  t.false(starts.test("import { type Worker } from 'node:worker_threads'"), 'and not a type');
});

test('every lib/ file that reads the real clock is in docs/architecture.md with why, and every file there reads it', (t) => {
  const clock = /(setTimeout|setInterval)\(|Date\.now\(\)|performance\.now\(\)/;
  const reading = sources(lib)
    .filter((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .some((line) => clock.test(line) && !/^\s*(\*|\/\/)/.test(line)),
    )
    .map(name)
    .sort();
  const table = readFileSync(resolve(lib, '../docs/architecture.md'), 'utf8');
  const section = table.slice(table.indexOf('| file | why the real clock |'));
  const rows = section.slice(0, section.indexOf('\n\n'));
  const listed = [...rows.matchAll(/`([\w/.-]+\.ts)`/g)].map(([, file]) => file as string).sort();
  t.deepEqual(reading, listed);
});

/** The places where a connection type may spell its own name: its folder or file below lib/connections/, and the list of types. */
const namePlaces = (type: string) => [`connections/${type}/`, `connections/${type}.ts`, 'config/connection-types.ts'];
const typeNames = connectionTypes.map(({ type }) => type);
/** Words of a type's own settings that happen to be another type's name, by the folder that uses them. */
const ownWords: Readonly<Record<string, readonly string[]>> = {
  // An osc or tsl-umd connection's `transport` is "udp" or "tcp" (R-Q1, R-SU1): its own word, not the udp type.
  'connections/osc/': ['udp'],
  'connections/tsl-umd/': ['udp'],
};
const ownWord = (file: string, text: string) =>
  Object.entries(ownWords).some(([folder, words]) => file.startsWith(folder) && words.includes(text));

test('no lib/ file spells a connection type name outside the folder of that type', (t) => {
  // Code elsewhere that picks out a type by its name (`c.type === 'mqtt'`) is a second list
  // of types the registry does not know about; the type should offer what it needs instead.
  // Only a string literal exactly equal to a name counts, so words such as `timer/1` or
  // `mqtts`, comments and the names of imported modules (the package `mqtt`) do not.
  const wrong = [...modules].flatMap(([file, { strings }]) =>
    strings
      .filter(
        ({ text }) =>
          typeNames.includes(text) && !namePlaces(text).some((place) => name(file).startsWith(place)) && !ownWord(name(file), text),
      )
      .map(
        ({ text, line }) =>
          `${name(file)}:${line} spells the type name "${text}" (only connections/${text}/ or connections/${text}.ts may)`,
      ),
  );
  t.deepEqual(wrong, []);
});

test('the parsed checks see type-only imports, require() calls and each type name in its own folder', (t) => {
  const references = (file: string) => modules.get(join(lib, file))?.references ?? [];
  t.true(
    references('http/route.ts').some(({ specifier, kind }) => specifier === 'prom-client' && kind === 'type'),
    'route.ts imports the prom-client types alone',
  );
  t.true(
    references('http/uws.ts').some(({ specifier, kind }) => specifier === 'uWebSockets.js' && kind === 'dynamic'),
    'uws.ts loads uWebSockets.js by require()',
  );
  t.true(
    [...modules.values()].flatMap(({ references }) => references).filter(({ kind }) => kind === 'static').length > 100,
    'imports that load were found',
  );
  // Each type spells its name in its own place (`type: 'mqtt'`), so the name check reads
  // strings, and it is the places that keep those quiet.
  const spelt = (type: string) =>
    [...modules].some(
      ([file, { strings }]) => namePlaces(type).some((place) => name(file).startsWith(place)) && strings.some(({ text }) => text === type),
    );
  t.true(typeNames.length > 0, 'types are registered');
  t.deepEqual(
    typeNames.filter((type) => !spelt(type)),
    [],
  );
});

test('docs/architecture.md shows every folder of lib/ and of the checkout in its layout', (t) => {
  const page = readFileSync(join(lib, '../docs/architecture.md'), 'utf8');
  const layout = page.slice(page.indexOf('## Project layout')).split('```')[1] ?? '';
  const folders = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))]);
  // A folder is named by its path from the root (`lib/hub/`) or, in its parent's entry, by
  // its own name (`isolation/`).
  const shown = (path: string) => layout.includes(`${path}/`) || new RegExp(`(^|[\\s(])${path.split('/').at(-1)}/`).test(layout);
  const root = join(lib, '..');
  const checkout = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !['node_modules', 'dist'].includes(entry.name))
    .map((entry) => entry.name);
  const missing = [...folders(lib).map((folder) => relative(root, folder)), ...checkout].filter((folder) => !shown(folder));
  t.deepEqual(missing, []);
});

/**
 * The most parts a file of lib/ may hold: its top-level functions, classes and constants,
 * and each class's fields and methods (a name counted once; types, which do not do
 * anything, are not parts). A job has few parts: RxJS's largest file by this count,
 * `Subject.ts`, holds 26. Lines were counted before (at most 400), and files crowded under
 * the bound, long for their comments or several jobs squeezed in; parts are what a job is
 * made of, and a file under the bound by trimming words is not under it by a part.
 */
const PARTS_AT_MOST = 40;

/** The parts of a file, as `PARTS_AT_MOST` counts them. */
function partsOf(file: string): number {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  let parts = 0;
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.body) parts++;
    else if (ts.isVariableStatement(statement)) parts += statement.declarationList.declarations.length;
    else if (ts.isClassDeclaration(statement)) {
      const members = new Set<string>();
      for (const member of statement.members) {
        if (ts.isConstructorDeclaration(member)) {
          for (const parameter of member.parameters) if (ts.getModifiers(parameter)?.length) members.add(parameter.name.getText(source));
        } else if (member.name) members.add(member.name.getText(source));
      }
      parts += 1 + members.size;
    }
  }
  return parts;
}

test(`each lib/ file holds one job: at most ${PARTS_AT_MOST} parts (functions, classes, constants, a class's fields and methods)`, (t) => {
  const counts = new Map(sources(lib).map((file) => [relative(lib, file), partsOf(file)]));
  const over = [...counts].filter(([, parts]) => parts > PARTS_AT_MOST).map(([file, parts]) => `${file}: ${parts}`);
  t.deepEqual(over, [], 'split by job');
});

test('the count of parts sees functions, constants, classes with their fields and methods, and not types', (t) => {
  const file = join(lib, '../spec/fixtures/parts-sample.ts');
  t.is(partsOf(file), 7);
});
