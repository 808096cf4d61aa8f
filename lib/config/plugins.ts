/**
 * Connection types from packages (R-PK1, R-PK3): the flow file's `plugins` list, each a
 * package name (looked up in the `node_modules` folders from the flow file's folder up, as
 * Node finds a package) or a path relative to the flow file. A package declares its types in
 * its package.json, `"patchbay": { "apiVersion": 1, "types": { "<type>": "<module>" } }`;
 * each module exports the type as its default (`defineConnectionType`). Nothing is guessed:
 * no folder is scanned, and a package that cannot be used is refused with a code and the
 * reason, its connections fail, and the hub runs the rest.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type TObject, Type } from '@sinclair/typebox';
import { declareCodes, type ErrorCode, HubError, reasonOf } from '../core/errors.ts';
import type { ConnectionPlan, ConnectionType, TypeOrigin } from '../connections/connection.ts';
import { apiVersion } from '../sdk/type.ts';
import { packageTypeOf } from './package-type.ts';
import { decodeSchema } from './schema-wire.ts';
import { retireTypeHosts, type TypeHost, typeHostFor } from './type-host.ts';

/** A package of the flow's `plugins` that was used. */
export interface PluginPackage {
  readonly name: string;
  readonly version: string;
  readonly folder: string;
  readonly types: readonly string[];
}

/** A package of the flow's `plugins` that was refused, and why. */
export interface RefusedPlugin {
  /** Its position in `plugins`. */
  readonly index: number;
  readonly entry: string;
  readonly error: HubError;
  /** The type names it declares, when its package.json could be read: their connections fail with its error. */
  readonly types: readonly string[];
  /** Its name and version, when its package.json could be read: `/connections` shows them beside a refused connection. */
  readonly package?: { readonly name: string; readonly version: string };
  /** Set when the entry names a package an earlier entry already loaded (its position): that one's types run. */
  readonly repeats?: number;
}

export interface Plugins {
  /** The types of the packages in use. */
  readonly types: readonly ConnectionType[];
  readonly packages: readonly PluginPackage[];
  readonly refused: readonly RefusedPlugin[];
}

export const noPlugins: Plugins = { types: [], packages: [], refused: [] };

/** The versions of the connection API this hub speaks. */
export const spokenApiVersions: readonly number[] = [apiVersion];

/**
 * Loads the packages a flow file's `plugins` names. `taken` are the types already there
 * (the built-in ones). Entries that are not strings are the schema's to report.
 */
export async function loadPlugins(entries: unknown, baseDir: string, taken: readonly ConnectionType[]): Promise<Plugins> {
  if (!Array.isArray(entries)) return noPlugins;
  const owners = new Map<string, string>(taken.map((type) => [type.type, 'patchbay (built in)']));
  const types: ConnectionType[] = [];
  const packages: PluginPackage[] = [];
  const refused: RefusedPlugin[] = [];
  /** The position of the entry that loaded each package folder. */
  const loadedFrom = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    if (typeof entry !== 'string' || entry === '') continue;
    const loaded = await loadPackage(entry, baseDir);
    if (!loaded.ok) {
      refused.push({ index, entry, error: loaded.error, types: loaded.types, ...(loaded.package ? { package: loaded.package } : {}) });
      continue;
    }
    const { name, version, folder, modules } = loaded;
    const label = `package "${name}" ${version}`;
    const first = loadedFrom.get(folder);
    if (first !== undefined) {
      const error = new HubError(
        'PB_TYPE_TAKEN',
        `${label} is listed twice: plugins[${first}] already brings its types, which run from there; remove this entry`,
      );
      refused.push({ index, entry, error, types: [], package: { name, version }, repeats: first });
      continue;
    }
    const clashes = modules.map(([type]) => type).filter((type) => owners.has(type));
    if (clashes.length > 0) {
      const taken = clashes.map((type) => `"${type}", which ${owners.get(type)} has already`);
      const error = new HubError(
        'PB_TYPE_TAKEN',
        `${label} declares the connection type${clashes.length > 1 ? 's' : ''} ${taken.join('; and ')}`,
      );
      const types = modules.map(([type]) => type).filter((type) => !owners.has(type));
      refused.push({ index, entry, error, types, package: { name, version } });
      continue;
    }
    const made: ConnectionType[] = [];
    let failure: HubError | undefined;
    // Read in a thread of its own: nothing of the package runs in the hub's (type-host.ts).
    const stamps = new Map(modules.map(([, modulePath]) => [modulePath, installedStamp(folder, resolve(folder, modulePath))]));
    const host = typeHostFor(folder, `${version} ${[...stamps.values()].join(' ')}`);
    for (const [typeName, modulePath] of modules) {
      const module = resolve(folder, modulePath);
      const origin = { package: name, version, module, folder, stamp: stamps.get(modulePath) as string };
      const described = await describeType(host, module, typeName, label, origin);
      if (!described.ok) {
        failure = described.error;
        break;
      }
      made.push(described.value);
    }
    if (failure) {
      refused.push({ index, entry, error: failure, types: modules.map(([type]) => type), package: { name, version } });
      continue;
    }
    for (const type of made) owners.set(type.type, `${label}`);
    loadedFrom.set(folder, index);
    types.push(...made);
    packages.push({ name, version, folder, types: made.map((type) => type.type) });
  }
  retireTypeHosts(new Set(packages.map((used) => used.folder)));
  return { types, packages, refused };
}

type Loaded =
  | {
      readonly ok: true;
      readonly name: string;
      readonly version: string;
      readonly folder: string;
      readonly modules: readonly [string, string][];
    }
  | {
      readonly ok: false;
      readonly error: HubError;
      readonly types: readonly string[];
      readonly package?: { readonly name: string; readonly version: string };
    };

const refusal = (
  code: ErrorCode,
  message: string,
  types: readonly string[] = [],
  known?: { readonly name: string; readonly version: string },
): Loaded => ({ ok: false, error: new HubError(code, message), types, ...(known ? { package: known } : {}) });

/** Finds a package and reads what its package.json declares. */
async function loadPackage(entry: string, baseDir: string): Promise<Loaded> {
  const folder = packageFolder(entry, baseDir);
  if (folder === undefined && (entry.startsWith('.') || isAbsolute(entry))) {
    return refusal('PB_PLUGIN_LOAD', `package folder "${entry}" (${resolve(baseDir, entry)}) holds no package.json`);
  }
  if (folder === undefined) {
    return refusal(
      'PB_PLUGIN_LOAD',
      `package "${entry}" is not installed where ${baseDir} finds it (in a node_modules folder of it or above); run npm install ${entry} there`,
    );
  }
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    return refusal('PB_PLUGIN_LOAD', `package "${entry}" (${folder}): its package.json cannot be read: ${reasonOf(error)}`);
  }
  const name = typeof manifest['name'] === 'string' ? manifest['name'] : entry;
  const version = typeof manifest['version'] === 'string' ? manifest['version'] : '(no version)';
  const label = `package "${name}" ${version}`;
  const declared = manifest['patchbay'];
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) {
    return refusal('PB_PLUGIN_LOAD', `${label} (${folder}) declares no connection types: its package.json has no "patchbay" object`);
  }
  const { apiVersion: wanted, types } = declared as Record<string, unknown>;
  const modules =
    typeof types === 'object' && types !== null && !Array.isArray(types)
      ? Object.entries(types).filter((pair): pair is [string, string] => typeof pair[1] === 'string')
      : [];
  const names = modules.map(([type]) => type);
  if (!spokenApiVersions.includes(wanted as number)) {
    return refusal(
      'PB_PLUGIN_INCOMPATIBLE',
      `${label} is written for connection API ${JSON.stringify(wanted ?? null)} ("patchbay.apiVersion" in its package.json); this hub speaks ${spokenApiVersions.join(', ')}`,
      names,
      { name, version },
    );
  }
  const badName = names.find((type) => !/^[a-z][a-z0-9-]{0,63}$/.test(type));
  if (modules.length === 0 || badName !== undefined) {
    return refusal(
      'PB_PLUGIN_LOAD',
      badName === undefined
        ? `${label} declares no connection types: "patchbay.types" maps type names to modules, as { "my-device": "./dist/my-device.js" }`
        : `${label} declares the type name ${JSON.stringify(badName)}: a type name is 1–64 characters of a-z, 0-9 and -, starting with a letter`,
      names,
      { name, version },
    );
  }
  return { ok: true, name, version, folder, modules };
}

/**
 * A type of a package as it is installed now: its package.json and its module, read whole.
 * A process of its own loads the module from disk at each start, so a package installed
 * again while the hub runs would run new code under the settings schema and version the hub
 * loaded; the stamp tells it (R-PK9). A change only in a file the module imports is not seen.
 */
export function installedStamp(folder: string, module: string): string {
  const hash = createHash('sha256');
  for (const file of [join(folder, 'package.json'), module]) {
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update('(unreadable)');
    }
    hash.update('\0');
  }
  return hash.digest('base64url');
}

/**
 * The version of a package installed now, when it is no longer what the hub loaded (R-PK9,
 * R-PK10): its package.json or its module changed on disk since. Undefined while what was
 * loaded is what is installed.
 */
export function installedVersion(origin: TypeOrigin): string | undefined {
  const { folder, module, stamp } = origin;
  if (folder === undefined || module === undefined || stamp === undefined || installedStamp(folder, module) === stamp) return undefined;
  try {
    return String((JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: unknown }).version);
  } catch {
    return '(unreadable)';
  }
}

/**
 * Why a type of a package may not start a process now: its package was installed again
 * since the hub loaded it (R-PK9). It runs again once the flow is reloaded or the hub
 * restarted, which load the package afresh, or once what was loaded is back.
 */
export function installedAnew(origin: TypeOrigin): string | undefined {
  const version = installedVersion(origin);
  if (version === undefined) return undefined;
  const which = version === origin.version ? `version ${version} installed anew` : `version ${version} installed`;
  return `${which}, restart to load: package "${origin.package}" ${origin.version} was loaded, and its code on disk is no longer that (reload the flow or restart the hub)`;
}

/** The folder of a package as Node would find it from `baseDir`, or of a path written relative to the flow file. */
function packageFolder(entry: string, baseDir: string): string | undefined {
  if (entry.startsWith('.') || isAbsolute(entry)) {
    const folder = resolve(baseDir, entry);
    return existsSync(join(folder, 'package.json')) ? folder : undefined;
  }
  for (let dir = resolve(baseDir); ; dir = dirname(dir)) {
    const folder = join(dir, 'node_modules', entry);
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * A type of a package, as the thread that loads its module describes it: its default export
 * must be a connection type of the name its package declares, its settings a TypeBox schema.
 */
async function describeType(
  host: TypeHost,
  module: string,
  typeName: string,
  label: string,
  origin: TypeOrigin & { readonly module: string },
): Promise<{ ok: true; value: ConnectionType } | { ok: false; error: HubError }> {
  const described = await host.describe(module, typeName);
  const refused = (reason: string) => ({
    ok: false as const,
    error: new HubError('PB_PLUGIN_LOAD', `${label}: the module of type "${typeName}" (${module}) ${reason}`),
  });
  if (!described.ok) return refused(described.reason);
  const settings = decodeSchema(described.description.settings);
  if (!settings) return refused('has settings that are no object schema the hub can read (Type.Object({ … }))');
  const wrongCode = declareCodes(typeName, described.description.errors);
  if (wrongCode !== undefined) {
    const prefix = `${typeName.toUpperCase().replaceAll('-', '_')}_`;
    return refused(
      `declares the error code ${JSON.stringify(wrongCode)}: a type's own code is ${prefix}<NAME>, in capitals, digits and _ (R-PK8)`,
    );
  }
  return { ok: true, value: packageTypeOf(described.description, settings as unknown as TObject, host, origin, label) };
}

/**
 * What a connection of a refused package's type is: a type that takes any settings and
 * fails at start with the package's error, so the hub runs everything else (R-PK3).
 */
export function refusedType(type: string, { error, package: known }: Pick<RefusedPlugin, 'error' | 'package'>): ConnectionType {
  const origin = known ? { origin: { package: known.name, version: known.version, module: undefined } } : {};
  const plan: Omit<ConnectionPlan, 'type'> = {
    ...origin,
    refused: error,
    fingerprint: error.message,
    written: {},
    links: [],
    claims: [],
    pathsAsWritten: [],
    discovers: { parameters: false, connections: false },
    diagnostics: [],
    warnings: [],
    declared: undefined,
    servesHub: false,
    runsOnStandby: false,
    redundancyGroup: undefined,
    create: () => ({
      start() {
        throw error;
      },
      stop() {},
    }),
  };
  return {
    type,
    summary: `A type of a package that was refused: ${error.message}.`,
    ...origin,
    settings: Type.Object({}),
    metrics: [],
    servesHub: false,
    refused: error,
    prepare: () => ({ ok: true, value: { type, ...plan } }),
  };
}
