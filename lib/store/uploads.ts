/**
 * Devices added from the console (R-ST2): a Companion module's `.tgz` (as Companion's module
 * store and `companion-module-build` give it) kept in the flow's `modules` folder, and a
 * patchbay package's `.tgz` (as `npm pack` makes it) kept in its `packages` folder and
 * installed beside the flow with npm. Either is code the hub will run, so it is taken only on
 * a hub that takes machine edits (`--allow-machine-edits`), as a package added to `plugins`
 * is. Each is checked before it is kept — a module as a start checks it (a readable archive,
 * no path out of it, no link, bounded) with a manifest of a base the hub speaks; a package
 * with a package.json that declares patchbay types — written beside its place and linked into
 * it, so a folder never holds half an archive, and one of the same name is never replaced. A
 * module runs only once a connection names it; a package is installed with its install
 * scripts off, and its types load only once the flow's `plugins` lists it. A package may also be
 * named from the registry the machine reaches: its manifest is read there first, and only a
 * patchbay package is installed.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { link, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MODULES_FOLDER } from '../config/machine-edits.ts';
import { HubError, reasonOf } from '../core/errors.ts';
import type { CatalogueEntry } from '../core/flow-shapes.ts';
import { jsonInArchive, type ModuleType, moduleEntry } from './catalogue.ts';

/** Where packages added from the console are kept beside the flow file, for `npm install` to find them again. */
export const PACKAGES_FOLDER = 'packages';
/** How long npm may take to install a package (its dependencies come from the registry the machine reaches). */
const INSTALL_MS = 5 * 60_000;
/** What of npm's output is kept to say why an install failed. */
const MOST_OUTPUT = 64 * 1024;

/**
 * A package of the registry, with a version, a range or a tag after `@` when wanted: nothing
 * npm would take for a folder, an archive, a URL, a git repository or an option.
 */
const REGISTRY_SPEC = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]{0,213}(?:@[A-Za-z0-9.^~<>=*| +-]{1,64})?$/;

/** An archive's file name: a name of its own, and `.tgz` or `.tar.gz`. */
const ARCHIVE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}\.(tgz|tar\.gz)$/;

/**
 * Keeps `bytes` as the module `name` in the modules folder beside `flowPath`, checked as
 * `moduleType` says; its catalogue entry. Throws a HubError: machine edits refused, a bad
 * name, one there already, an archive that is unsafe, has no manifest or is of a runtime the
 * hub does not run.
 */
export async function addModule(
  flowPath: string,
  name: string,
  bytes: Uint8Array,
  machineEdits: boolean,
  { type, archives }: ModuleType,
): Promise<CatalogueEntry> {
  return keep(flowPath, MODULES_FOLDER, name, bytes, machineEdits, 'a module', async (partial) => {
    await archives.check(partial, name).catch((error: unknown) => {
      throw new HubError('PB_BAD_REQUEST', reasonOf(error));
    });
    const found = await moduleEntry(partial, name, type);
    if (!found)
      throw new HubError('PB_BAD_REQUEST', `the module archive ${name} holds no companion/manifest.json (at its top or in its one folder)`);
    const base = found.entry.api ?? '';
    if (!archives.speaks(found.runtimeApi, base))
      throw new HubError(
        'PB_BAD_REQUEST',
        `the module ${name} is built for ${found.runtimeApi || 'no API'} ${base || '(no version)'}; this hub speaks ${archives.spoken}`,
      );
    return found.entry;
  });
}

/**
 * Keeps `bytes` as the package `name` in the packages folder beside `flowPath` and installs
 * it there with npm (`npm install --ignore-scripts ./packages/<name>`: the flow folder's
 * package.json names it, so a later `npm install` brings it back); the package's name.
 * Throws a HubError: machine edits refused, a bad name, one there already, no patchbay
 * package, or npm's failure with what it said.
 */
export async function addPackage(flowPath: string, name: string, bytes: Uint8Array, machineEdits: boolean): Promise<string> {
  const folder = dirname(flowPath);
  const packageName = await keep(flowPath, PACKAGES_FOLDER, name, bytes, machineEdits, 'a package', async (partial) => {
    const manifest = await jsonInArchive(partial, /^package\/package\.json$/);
    if (!manifest) throw new HubError('PB_BAD_REQUEST', `${name} is not a package as npm packs one: it holds no package/package.json`);
    const declared = manifest['patchbay'] as Record<string, unknown> | undefined;
    if (typeof manifest['name'] !== 'string' || typeof declared?.['types'] !== 'object' || declared['types'] === null)
      throw new HubError('PB_BAD_REQUEST', `${name} is not a patchbay package: its package.json declares no \`patchbay.types\``);
    return manifest['name'];
  });
  try {
    // What the package depends on comes from npm's cache when it is there (the hub's own
    // install brought the boxed packages' libraries): a studio whose network is slow or away
    // installs what it already has.
    await npm(
      folder,
      ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--save', `./${PACKAGES_FOLDER}/${name}`],
      'install',
    );
  } catch (error) {
    await rm(join(folder, PACKAGES_FOLDER, name), { force: true });
    throw error;
  }
  return packageName;
}

/**
 * Installs the package `spec` names in the registry the machine reaches (`patchbay-videohub`,
 * `patchbay-videohub@^1`) beside `flowPath` with npm, once the registry's manifest of the
 * version it would install declares patchbay types; the package's name. Throws a HubError:
 * machine edits refused, not a registry name, not found, no patchbay package, or npm's failure.
 */
export async function addRegistryPackage(flowPath: string, spec: string, machineEdits: boolean): Promise<string> {
  refuseWithout(machineEdits, 'a package', PACKAGES_FOLDER);
  if (!REGISTRY_SPEC.test(spec))
    throw new HubError(
      'PB_BAD_REQUEST',
      `"${spec}" is no package of the registry: a name (lower case, @scope/ allowed), then @ and a version, range or tag if wanted; an archive is uploaded instead`,
    );
  const folder = dirname(flowPath);
  const viewed = JSON.parse(
    (await npm(folder, ['view', spec, 'name', 'version', 'patchbay', '--json'], 'find').catch((error: HubError) => {
      throw inWords(error, spec);
    })) || 'null',
  ) as unknown;
  // A range that several versions meet gives them all, oldest first: npm installs the newest.
  const manifest = (Array.isArray(viewed) ? viewed.at(-1) : viewed) as Record<string, unknown> | null;
  if (typeof manifest?.['name'] !== 'string' || typeof manifest['version'] !== 'string')
    throw new HubError('PB_BAD_REQUEST', `the registry has no version of ${spec}`);
  const declared = manifest['patchbay'] as Record<string, unknown> | undefined;
  if (typeof declared?.['types'] !== 'object' || declared['types'] === null)
    throw new HubError(
      'PB_BAD_REQUEST',
      `${manifest['name']} ${manifest['version']} is not a patchbay package: its package.json declares no \`patchbay.types\``,
    );
  const exact = `${manifest['name']}@${manifest['version']}`;
  await checkPacked(folder, exact);
  // The version whose manifest and archive were read, not whatever the name means a moment later.
  await npm(folder, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--save', exact], 'install');
  return manifest['name'];
}

/**
 * Fetches the archive of `exact` (`name@version`) and reads its own package.json, which is
 * what npm installs and links, whatever the registry's manifest said: it must be that
 * version, declare `patchbay.types`, and name no program (`bin`): a registry that lied
 * installed a package whose `bin` took the place of `npx patchbay` in the studio folder.
 */
async function checkPacked(folder: string, exact: string): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'patchbay-registry-'));
  try {
    const file = (await npm(folder, ['pack', exact, '--silent', '--pack-destination', scratch], 'fetch')).split('\n').at(-1) ?? '';
    const inside = await jsonInArchive(join(scratch, file), /^package\/package\.json$/);
    const declared = inside?.['patchbay'] as Record<string, unknown> | undefined;
    const why =
      `${inside?.['name']}@${inside?.['version']}` !== exact
        ? `it holds ${String(inside?.['name'])} ${String(inside?.['version'])}`
        : typeof declared?.['types'] !== 'object' || declared['types'] === null
          ? 'its package.json declares no `patchbay.types`'
          : inside?.['bin'] !== undefined || (inside?.['directories'] as Record<string, unknown> | undefined)?.['bin'] !== undefined
            ? 'it names a program (`bin`), which a patchbay package has no need of'
            : undefined;
    if (why)
      throw new HubError(
        'PB_BAD_REQUEST',
        `the archive of ${exact} is not the patchbay package the registry described: ${why}; nothing installed`,
      );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function refuseWithout(machineEdits: boolean, what: string, into: string): void {
  const refused = uploadRefusal(machineEdits, what, into);
  if (refused) throw refused;
}

/** Why `what` may not be added over HTTP on a hub that does not take machine edits; undefined when it may. */
export function uploadRefusal(machineEdits: boolean, what: string, into: string): HubError | undefined {
  if (machineEdits) return undefined;
  return new HubError(
    'PB_FLOW_PROTECTED',
    `${what} is code the hub runs: it is added over HTTP only on a hub started with --allow-machine-edits; otherwise put it in the flow's ${into} folder on the machine`,
  );
}

/**
 * Writes `bytes` beside `<flow folder>/<into>/<name>`, has `check` look at it there, and links
 * it into its place; what `check` said of it. Nothing stays when anything refuses it.
 */
async function keep<T>(
  flowPath: string,
  into: string,
  name: string,
  bytes: Uint8Array,
  machineEdits: boolean,
  what: string,
  check: (partial: string) => Promise<T>,
): Promise<T> {
  refuseWithout(machineEdits, what, into);
  if (!ARCHIVE_NAME.test(name) || name.includes('..'))
    throw new HubError('PB_BAD_REQUEST', `"${name}" is no archive's name: letters, digits, . _ + -, ending in .tgz or .tar.gz`);
  const folder = join(dirname(flowPath), into);
  const target = join(folder, name);
  const taken = () =>
    new HubError('PB_BAD_REQUEST', `the ${into} folder has ${name} already: remove it on the machine, or give the new one another name`);
  if (
    await stat(target).then(
      () => true,
      () => false,
    )
  )
    throw taken();
  await mkdir(folder, { recursive: true });
  const partial = join(folder, `.upload-${randomBytes(6).toString('hex')}.tgz`);
  try {
    await writeFile(partial, bytes, { mode: 0o644, flag: 'wx' });
    const checked = await check(partial);
    // Not over one that came meanwhile: a link fails where the name is taken.
    await link(partial, target).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? taken() : error;
    });
    return checked;
  } finally {
    await rm(partial, { force: true });
  }
}

/**
 * What npm's failure to find `spec` means, in words (npm says `E404` and a URL): not on the
 * registry this machine reaches, or no registry reached at all; anything else as npm said it.
 */
function inWords(error: HubError, spec: string): HubError {
  const said = `${String(error.cause ?? '')}\n${error.message}`;
  const asked = /GET (\S+)/.exec(said)?.[1];
  if (/\bE404\b|404 Not Found|npm error 404/.test(said))
    return new HubError(
      'PB_BAD_REQUEST',
      `${spec} is not on the registry this machine reaches${asked ? ` (${asked} answered 404)` : ''}: check its name as the package's page spells it (patchbay's own are patchbay-…); a package of your own is uploaded as its .tgz instead`,
    );
  if (/\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET)\b/.test(said))
    return new HubError(
      'PB_BAD_REQUEST',
      `this machine cannot reach the registry npm is set to${asked ? ` (${asked})` : ''}: is it online, or is npm's registry setting right? A package can be uploaded as its .tgz instead`,
    );
  return error;
}

/**
 * npm with `args` in `folder`, as it runs this hub (`npm start`, `npx patchbay`) or else the one
 * on the PATH; what it printed. Rejects with a HubError holding the end of what npm said,
 * saying it could not `what` it.
 */
/** Packs the package folder `folder` into `into` as `npm pack` does (its `files`, no scripts run); the archive's file name. */
export async function packFolder(folder: string, into: string): Promise<string> {
  const said = await npm(into, ['pack', folder, '--ignore-scripts', '--silent', '--pack-destination', into], 'pack');
  return said.split('\n').at(-1)?.trim() ?? '';
}

function npm(folder: string, args: readonly string[], what: string): Promise<string> {
  const viaNode = process.env['npm_execpath']?.endsWith('npm-cli.js');
  const [command, ...first] = viaNode ? [process.execPath, process.env['npm_execpath'] as string] : ['npm'];
  return new Promise((resolve, reject) => {
    execFile(command, [...first, ...args], { cwd: folder, timeout: INSTALL_MS, maxBuffer: MOST_OUTPUT * 4 }, (error, stdout, stderr) => {
      if (!error) return resolve(String(stdout).trim());
      const said = String(stderr).trim().split('\n').slice(-6).join(' ').slice(-MOST_OUTPUT);
      // All that npm said goes with it (its code and URL come before the end kept here).
      reject(new HubError('PB_BAD_REQUEST', `npm could not ${what} it: ${said || reasonOf(error)}`, { cause: String(stderr) }));
    });
  });
}
