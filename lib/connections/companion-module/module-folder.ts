/**
 * A Companion module on disk (R-CM1): the folder that holds `companion/manifest.json`, what
 * the manifest says of the module (its id, version, the base API it was built against) and
 * its entry point, checked before anything of it runs. A module built against an API the hub
 * does not speak is refused with PB_MODULE_INCOMPATIBLE naming both; an entry point outside
 * the folder is refused whatever the manifest says.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { HubError, type Issue, reasonOf } from '../../sdk/index.ts';
import { isArchive } from './module-archive.ts';

/** The protocol families of `@companion-module/base` the hub speaks, by major version. */
export const SPOKEN = '@companion-module/base 1.2 to 1.x (over Node IPC) and 2.x (under its host entry point)';

/** The runtime API a manifest names (`runtime.api`) for a module the hub runs. */
const RUNTIME_API = 'nodejs-ipc';

export interface ModuleFolder {
  /** The folder, real path. */
  readonly folder: string;
  readonly manifestPath: string;
  /** The entry point, real path, inside `folder`. */
  readonly entry: string;
  /** The manifest's `id`, `name` and `version`. */
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** The base API version it speaks: `runtime.apiVersion`, or the installed base's own for a module in development (`0.0.0`). */
  readonly apiVersion: string;
  /** The base's major version: 1 runs its own entry point, 2 is loaded by the hub's host entry point (base-2/host.ts). */
  readonly family: 1 | 2;
}

interface Manifest {
  readonly id?: unknown;
  readonly name?: unknown;
  readonly version?: unknown;
  readonly runtime?: { readonly api?: unknown; readonly apiVersion?: unknown; readonly entrypoint?: unknown };
}

/**
 * Reads and checks the module in the folder `written` (resolved against `baseDir`), or in
 * `unpacked` when `written` names an archive; throws a HubError saying what is wrong.
 */
export function readModuleFolder(written: string, baseDir: string, unpacked?: string): ModuleFolder {
  const path = written;
  const folder = realFolder(unpacked ?? resolve(baseDir, written), written);
  const manifestPath = join(folder, 'companion', 'manifest.json');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch (error) {
    throw new HubError('PB_START_FAILED', `the module ${path} has no readable companion/manifest.json: ${reasonOf(error)}`);
  }
  const runtime = manifest.runtime ?? {};
  if (runtime.api !== RUNTIME_API)
    throw new HubError('PB_MODULE_INCOMPATIBLE', `the module ${path} speaks the API "${String(runtime.api)}"; this hub speaks ${SPOKEN}`);
  const apiVersion = runtime.apiVersion === '0.0.0' ? installedBase(folder) : String(runtime.apiVersion ?? '');
  if (!speaks(apiVersion))
    throw new HubError(
      'PB_MODULE_INCOMPATIBLE',
      `the module ${path} is built against @companion-module/base ${apiVersion || '(no version)'}; this hub speaks ${SPOKEN}`,
    );
  if (typeof runtime.entrypoint !== 'string' || runtime.entrypoint === '')
    throw new HubError('PB_START_FAILED', `the module ${path} names no entry point (runtime.entrypoint in companion/manifest.json)`);
  const entry = realFile(resolve(folder, 'companion', runtime.entrypoint), runtime.entrypoint, path);
  const inside = relative(folder, entry);
  if (inside.startsWith('..') || isAbsolute(inside))
    throw new HubError(
      'PB_START_FAILED',
      `the module ${path} names an entry point outside its folder (${runtime.entrypoint}); it is not run`,
    );
  return {
    folder,
    manifestPath,
    entry,
    id: String(manifest.id ?? ''),
    name: String(manifest.name ?? manifest.id ?? ''),
    version: String(manifest.version ?? ''),
    apiVersion,
    family: apiVersion.startsWith('2.') ? 2 : 1,
  };
}

/**
 * True for a base version of the 1.x line from 1.2 on (the IPC protocol the hub's host side
 * answers) or of the 2.x line (the context base-2/host.ts gives; a later 2.x minor's new
 * asks are said in the log, not fatal).
 */
export function speaks(apiVersion: string): boolean {
  const match = /^(\d+)\.(\d+)\.\d+/.exec(apiVersion);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return (major === 1 && minor >= 2) || major === 2;
}

/** True for a manifest's runtime the hub runs: its API (`runtime.api`), of a base version it speaks. */
export const runs = (api: string, apiVersion: string): boolean => api === RUNTIME_API && speaks(apiVersion);

/** The version of the base a module in development has installed (its manifest says `0.0.0`). */
function installedBase(folder: string): string {
  try {
    const base = JSON.parse(readFileSync(join(folder, 'node_modules', '@companion-module', 'base', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return String(base.version ?? '');
  } catch {
    return '';
  }
}

function realFolder(path: string, written: string): string {
  try {
    const real = realpathSync(path);
    if (statSync(real).isDirectory()) return real;
  } catch {}
  throw new HubError('PB_START_FAILED', `the module ${written} is not a folder the hub can read`);
}

function realFile(path: string, written: string, module: string): string {
  try {
    return realpathSync(path);
  } catch {
    throw new HubError('PB_START_FAILED', `the module ${module} names an entry point that is not there (${written})`);
  }
}

/** What keeps the module a connection names from running, as its start would find it; an archive is looked into when it starts. */
export function moduleMistake(written: string, baseDir: string): Issue | undefined {
  try {
    if (isArchive(written)) {
      if (!statSync(resolve(baseDir, written)).isFile()) throw new Error('not a file');
    } else readModuleFolder(written, baseDir);
    return undefined;
  } catch (error) {
    const message = error instanceof HubError ? error.message : `the module archive ${written} is not there (${reasonOf(error)})`;
    return { path: ['module'], message };
  }
}
