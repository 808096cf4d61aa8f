/**
 * What a studio can add, as one list the console searches (R-ST2): the connection types
 * built in, the packages installed beside the flow (a `node_modules` package whose
 * package.json has a `patchbay` field; each of its types an entry), and the Companion
 * modules in the flow's `modules` folder (folders, and `.tgz` as Companion's module build
 * and module store make them), each with what it says of itself — manufacturer, products,
 * description. Reading it runs nothing: package.json and manifests are read as data, a
 * `.tgz`'s manifest from its table of contents. Bounded: a folder of thousands of modules
 * is listed in part, and said so.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { list } from 'tar';
import { MODULES_FOLDER } from '../config/machine-edits.ts';
import type { ConnectionType, ModuleArchives } from '../connections/connection.ts';
import type { CatalogueEntry } from '../core/flow-shapes.ts';
import { boxedEntries } from './boxed.ts';

/** The most packages and modules each read for one listing. */
const MOST_READ = 2000;
/** The largest manifest or package.json read. */
const MOST_BYTES = 256 * 1024;
/**
 * How much of an archive is read at a time. The tar library reads 16 MiB at once and inflates
 * it in one turn of the hub's loop: a small archive that inflates to a gigabyte held the loop
 * for most of a second (bench/README.md, issue 73 item 6). In chunks this size a turn stays in
 * milliseconds, as it does where the module type unpacks its own.
 */
const READ_BYTES = 16 * 1024;

/** The type Companion modules run as, and how their archives are checked. */
export interface ModuleType {
  readonly type: string;
  readonly archives: ModuleArchives;
}

/** The type of `types` that runs Companion modules: the one that says how their archives are checked; undefined when none does. */
export function moduleTypeIn(types: readonly ConnectionType[]): ModuleType | undefined {
  const found = types.find((type) => type.moduleArchives);
  return found?.moduleArchives && { type: found.type, archives: found.moduleArchives };
}

type Json = Readonly<Record<string, unknown>>;

const text = (value: unknown, most = 2000): string => (typeof value === 'string' ? value.slice(0, most) : '');
const texts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value
        .filter((item): item is string => typeof item === 'string')
        .slice(0, 50)
        .map((item) => item.slice(0, 200))
    : [];

/**
 * Every entry for the flow at `flowPath`, given the types the hub knows, the packages its
 * `plugins` lists and the modules folders of Companion installations on the machine.
 */
export async function catalogueOf(
  flowPath: string,
  types: readonly ConnectionType[],
  listed: ReadonlySet<string>,
  installations: readonly string[] = [],
): Promise<{ entries: CatalogueEntry[]; partial: boolean }> {
  const folder = dirname(flowPath);
  const builtIn = types
    .filter((type) => !type.origin)
    .map(
      (type): CatalogueEntry => ({
        kind: 'built-in',
        name: type.type,
        description: type.summary,
        connection: { type: type.type },
      }),
    );
  const packages = packagesIn(folder, listed);
  const inTheBox = boxedEntries(new Set(packages.entries.flatMap((entry) => (entry.package ? [entry.package] : []))));
  const moduleType = moduleTypeIn(types)?.type;
  const modules = moduleType ? await modulesIn(folder, moduleType) : { entries: [], partial: false };
  const installed = moduleType ? installations.map((root) => installedModulesIn(root, moduleType)) : [];
  return {
    entries: [...modules.entries, ...installed.flatMap((found) => found.entries), ...packages.entries, ...inTheBox, ...builtIn],
    partial: packages.partial || modules.partial || installed.some((found) => found.partial),
  };
}

/**
 * The modules a Companion installation keeps in `root` (companion-installation.ts): each
 * folder with a manifest, named where it is, so a connection runs it from there.
 */
function installedModulesIn(root: string, moduleType: string): { entries: CatalogueEntry[]; partial: boolean } {
  const names = namesIn(root);
  const entries = names.slice(0, MOST_READ).flatMap((name) => {
    const manifest = jsonAt(join(root, name, 'companion', 'manifest.json'));
    return manifest
      ? [{ ...moduleEntryOf(manifest, name, { type: moduleType, module: join(root, name) }), installation: root } satisfies CatalogueEntry]
      : [];
  });
  return { entries, partial: names.length > MOST_READ };
}

/** The packages with connection types installed in the flow folder's `node_modules`. */
function packagesIn(folder: string, listed: ReadonlySet<string>): { entries: CatalogueEntry[]; partial: boolean } {
  const root = join(folder, 'node_modules');
  const names = namesIn(root).flatMap((name) =>
    name.startsWith('@') ? namesIn(join(root, name)).map((inner) => `${name}/${inner}`) : [name],
  );
  const entries: CatalogueEntry[] = [];
  for (const name of names.slice(0, MOST_READ)) {
    const manifest = jsonAt(join(root, name, 'package.json'));
    const declared = manifest?.['patchbay'] as Json | undefined;
    const types = declared && typeof declared['types'] === 'object' && declared['types'] !== null ? Object.keys(declared['types']) : [];
    for (const type of types.slice(0, 50))
      entries.push({
        kind: 'package',
        name: types.length > 1 ? `${name}: ${type}` : name,
        description: text(manifest?.['description']),
        keywords: texts(manifest?.['keywords']),
        version: text(manifest?.['version'], 64),
        package: name,
        listed: listed.has(name),
        connection: { type },
      });
  }
  return { entries, partial: names.length > MOST_READ };
}

/** The Companion modules of the flow's `modules` folder, run as `moduleType`: each folder with a manifest, each `.tgz` with one inside. */
async function modulesIn(folder: string, moduleType: string): Promise<{ entries: CatalogueEntry[]; partial: boolean }> {
  const root = join(folder, MODULES_FOLDER);
  const names = namesIn(root);
  const entries: CatalogueEntry[] = [];
  for (const name of names.slice(0, MOST_READ)) {
    const found = await moduleEntry(join(root, name), name, moduleType);
    if (found) entries.push(found.entry);
  }
  return { entries, partial: names.length > MOST_READ };
}

/**
 * The entry of the module at `path` (a folder or a `.tgz`, named `name` in the modules
 * folder, run as `moduleType`) from its manifest, and the host API the manifest names;
 * undefined without one.
 */
export async function moduleEntry(
  path: string,
  name: string,
  moduleType: string,
): Promise<{ entry: CatalogueEntry; runtimeApi: string } | undefined> {
  const manifest = /\.(tgz|tar\.gz)$/i.test(name)
    ? await jsonInArchive(path, /^(?:[^/]+\/)?companion\/manifest\.json$/)
    : jsonAt(join(path, 'companion', 'manifest.json'));
  if (!manifest) return undefined;
  const runtime = (manifest['runtime'] ?? {}) as Json;
  const entry = moduleEntryOf(manifest, name, { type: moduleType, module: `./${MODULES_FOLDER}/${name}` });
  return { entry, runtimeApi: text(runtime['api'], 64) };
}

/** A module's entry from its manifest: what it says of itself, and what its connection starts with. */
function moduleEntryOf(manifest: Json, name: string, connection: CatalogueEntry['connection']): CatalogueEntry {
  const runtime = (manifest['runtime'] ?? {}) as Json;
  return {
    kind: 'module',
    name: text(manifest['name'], 200) || name,
    description: text(manifest['description']) || text(manifest['shortname']),
    manufacturer: text(manifest['manufacturer'], 200),
    products: texts(manifest['products']),
    keywords: texts(manifest['keywords']),
    version: text(manifest['version'], 64),
    api: text(runtime['apiVersion'], 64),
    connection,
  };
}

/** The names in a folder, sorted; none when it is not there. */
function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => !name.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

/** A JSON file's object, or undefined (missing, too large, not JSON). */
function jsonAt(path: string): Json | undefined {
  try {
    if (statSync(path).size > MOST_BYTES) return undefined;
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first JSON object in a `.tgz` at a path `at` matches, read from the archive as it
 * streams: a module's manifest (`companion/manifest.json`, at its top or one folder down, as
 * `pkg/`), a package's package.json (`package/package.json`, as npm packs it).
 */
export async function jsonInArchive(path: string, at: RegExp): Promise<Json | undefined> {
  let found: Json | undefined;
  try {
    await list({
      file: path,
      maxReadSize: READ_BYTES,
      filter: (entry) => at.test(entry.replace(/^\.\//, '')),
      onReadEntry: (entry) => {
        if (entry.size > MOST_BYTES) return entry.resume();
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => {
          try {
            const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) found ??= parsed as Json;
          } catch {}
        });
      },
    });
  } catch {
    return undefined;
  }
  return found;
}
