/**
 * A Companion module added from the console (R-ST2): its `.tgz` (as Companion's module store
 * and `companion-module-build` give it) put into the flow's `modules` folder, where the
 * catalogue lists it and a connection may name it. A module is code the hub will run, so it
 * is taken only on a hub that takes machine edits (`--allow-machine-edits`), as a package
 * added to `plugins` is. Before it is kept it is checked as a start checks it — a readable
 * archive, no path out of it, no link, bounded — and must hold a manifest of a base the hub
 * speaks; it is written beside its place and renamed into it, so the folder never holds half
 * a module, and an archive of the same name is never replaced. Nothing of it runs here.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HubError, reasonOf } from '../core/errors.ts';
import type { CatalogueEntry } from '../core/flow-shapes.ts';
import { moduleEntry } from './catalogue.ts';
import { checkModuleArchive, speaksModuleBase, spokenBases } from './connection-types.ts';
import { MODULES_FOLDER } from './machine-edits.ts';

/** A module archive's file name: a name of its own, and `.tgz` or `.tar.gz`. */
const ARCHIVE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}\.(tgz|tar\.gz)$/;

/**
 * Keeps `bytes` as the module `name` in the modules folder beside `flowPath`; its catalogue
 * entry. Throws a HubError: machine edits refused, a bad name, one there already, an archive
 * that is unsafe, has no manifest or is of a base the hub does not speak.
 */
export async function addModule(flowPath: string, name: string, bytes: Uint8Array, machineEdits: boolean): Promise<CatalogueEntry> {
  if (!machineEdits)
    throw new HubError(
      'PB_FLOW_PROTECTED',
      "a module is code the hub runs: it is added over HTTP only on a hub started with --allow-machine-edits; otherwise put it in the flow's modules folder on the machine",
    );
  if (!ARCHIVE_NAME.test(name) || name.includes('..'))
    throw new HubError('PB_BAD_REQUEST', `"${name}" is no module archive's name: letters, digits, . _ + -, ending in .tgz or .tar.gz`);
  const folder = join(dirname(flowPath), MODULES_FOLDER);
  const target = join(folder, name);
  if (
    await stat(target).then(
      () => true,
      () => false,
    )
  )
    throw new HubError(
      'PB_BAD_REQUEST',
      `the modules folder has ${name} already: remove it on the machine, or give the new one another name`,
    );
  await mkdir(folder, { recursive: true });
  const partial = join(folder, `.upload-${randomBytes(6).toString('hex')}.tgz`);
  try {
    await writeFile(partial, bytes, { mode: 0o644, flag: 'wx' });
    await checkModuleArchive(partial, name).catch((error: unknown) => {
      throw new HubError('PB_BAD_REQUEST', reasonOf(error));
    });
    const found = await moduleEntry(partial, name);
    if (!found)
      throw new HubError('PB_BAD_REQUEST', `the module archive ${name} holds no companion/manifest.json (at its top or in its one folder)`);
    const base = found.entry.api ?? '';
    if (found.runtimeApi !== 'nodejs-ipc' || !speaksModuleBase(base))
      throw new HubError(
        'PB_BAD_REQUEST',
        `the module ${name} is built for ${found.runtimeApi || 'no API'} ${base || '(no version)'}; this hub speaks ${spokenBases}`,
      );
    // Not over one that came meanwhile: a link fails where the name is taken.
    await link(partial, target).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? new HubError('PB_BAD_REQUEST', `the modules folder has ${name} already`) : error;
    });
    return found.entry;
  } finally {
    await rm(partial, { force: true });
  }
}
