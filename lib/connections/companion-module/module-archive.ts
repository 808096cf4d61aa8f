/**
 * A Companion module as an archive (R-CM1): the `.tgz` that Companion's module build makes
 * and its module store hands out, unpacked once into the type's files folder (the hub's
 * state folder) under the archive's hash, so a restart or a second connection finds it
 * there. Every entry is checked before one byte is written: a path that leaves the archive
 * (`..`, absolute), a link, a device, or an archive bigger than a module can be refuses the
 * whole archive, naming the first offender; so does a path it holds twice. It is unpacked
 * into a folder of its own, its modes without set-uid bits or writes by others, and renamed
 * into place, so a half-unpacked module is never run.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { extract, list, type ReadEntry } from 'tar';
import { HubError, reasonOf } from '../../sdk/index.ts';

/** The most an archive may unpack to: Companion's builds are a few megabytes, a module with its node_modules some hundreds. */
export const MOST_UNPACKED_BYTES = 1024 * 1024 * 1024;
export const MOST_ENTRIES = 100_000;

/**
 * How much of an archive is read at a time. The tar library reads up to 16 MiB at once and
 * inflates it in one turn of the hub's loop: an archive of 1.2 MiB that unpacks to 1 GiB, or
 * one of 99,000 files, held it for seconds. A chunk this size unpacks to 16 MiB at most (gzip
 * packs 1,032 to 1), so a turn stays in milliseconds and the archive is read between them.
 */
export const ARCHIVE_READ_BYTES = 16 * 1024;

/** The archive's folder is named by this many hex digits of its SHA-256. */
const HASH_DIGITS = 24;

/** True for a `module` setting that names an archive rather than a folder. */
export const isArchive = (path: string): boolean => /\.(tgz|tar\.gz)$/i.test(path);

/** The entry kinds a module archive may hold. */
const KINDS = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/**
 * The folder holding `companion/manifest.json` of the module in `archive` (read at `shown`, as
 * the flow writes it), unpacked into `folder` when it is not there yet. Throws a HubError.
 */
export async function unpackModule(archive: string, shown: string, folder: string): Promise<string> {
  const hash = await hashOf(archive, shown);
  const target = join(folder, hash);
  if (!existsSync(target)) {
    await checkEntries(archive, shown);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const partial = await mkdtemp(join(folder, `.${hash}-`));
    try {
      await extract({
        file: archive,
        cwd: partial,
        strict: true,
        preserveOwner: false,
        maxReadSize: ARCHIVE_READ_BYTES,
        // Modes as the hub's user would make them: no set-uid, set-gid or sticky bit, nothing writable by others.
        onReadEntry: (entry) => {
          if (typeof entry.mode === 'number') entry.mode &= 0o755;
        },
      });
      // Another connection may have unpacked the same archive meanwhile: its copy serves.
      await rename(partial, target).catch((error: NodeJS.ErrnoException) => {
        if (!existsSync(target)) throw error;
      });
    } catch (error) {
      throw new HubError('PB_START_FAILED', `the module archive ${shown} could not be unpacked: ${reasonOf(error)}`);
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }
  return moduleRoot(target, shown);
}

/** The folder of the module in `archive` when it is unpacked in `folder` already (a hub ran it); undefined otherwise. */
export function unpackedModule(archive: string, folder: string): string | undefined {
  try {
    const key = hashKey(archive);
    const hash = hashes.get(key) ?? remember(key, createHash('sha256').update(readFileSync(archive)).digest('hex').slice(0, HASH_DIGITS));
    const target = join(folder, hash);
    return existsSync(target) ? moduleRoot(target, archive) : undefined;
  } catch {
    return undefined;
  }
}

/** A folder for the archives of a hub without a state folder: its own, removed with `removeScratch`. */
export async function scratchFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'patchbay-module-'));
}

export async function removeScratch(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}

/**
 * Hashes of archives read already, by path, size and time of change: a flow's read looks at
 * a module twice (its checks and its warnings), and a hub at each load.
 */
const hashes = new Map<string, string>();
const MOST_HASHES = 256;

const hashKey = (archive: string): string => {
  const { size, mtimeMs } = statSync(archive);
  return `${archive}\u0000${size}\u0000${mtimeMs}`;
};

function remember(key: string, hash: string): string {
  if (hashes.size >= MOST_HASHES) hashes.clear();
  hashes.set(key, hash);
  return hash;
}

async function hashOf(archive: string, shown: string): Promise<string> {
  const hash = createHash('sha256');
  let key: string;
  try {
    key = hashKey(archive);
    const known = hashes.get(key);
    if (known) return known;
    for await (const chunk of createReadStream(archive)) hash.update(chunk as Buffer);
  } catch (error) {
    throw new HubError('PB_START_FAILED', `the module archive ${shown} cannot be read: ${reasonOf(error)}`);
  }
  return remember(key, hash.digest('hex').slice(0, HASH_DIGITS));
}

/** Reads the archive's table of contents and refuses it at its first unsafe entry (a HubError); nothing is written. */
export async function checkEntries(archive: string, shown: string): Promise<void> {
  let entries = 0;
  let bytes = 0;
  let refusal: string | undefined;
  const seen = new Set<string>();
  const check = (entry: ReadEntry): void => {
    entries += 1;
    bytes += entry.size ?? 0;
    if (refusal) return;
    const path = entry.path;
    const once = path.replace(/^\.\//, '').replace(/\/+$/, '');
    if (!KINDS.has(entry.type)) refusal = `holds a ${entry.type} (${path}): a module archive holds files and folders only`;
    // Written twice, a file is what the last says, and a reader of the first (the catalogue) sees another module.
    else if (seen.has(once)) refusal = `holds ${path} twice`;
    else if (posix.isAbsolute(path) || /^[a-zA-Z]:/.test(path)) refusal = `holds an absolute path (${path})`;
    else if (path.split(/[\\/]/).includes('..')) refusal = `holds a path that leaves it (${path})`;
    else if (entries > MOST_ENTRIES) refusal = `holds more than ${MOST_ENTRIES} entries`;
    else if (bytes > MOST_UNPACKED_BYTES) refusal = `unpacks to more than ${MOST_UNPACKED_BYTES / 1024 / 1024} MiB`;
    seen.add(once);
  };
  try {
    await list({ file: archive, strict: true, onReadEntry: check, maxReadSize: ARCHIVE_READ_BYTES });
  } catch (error) {
    throw new HubError('PB_START_FAILED', `the module archive ${shown} is not a readable .tgz: ${reasonOf(error)}`);
  }
  if (entries === 0) refusal ??= 'is empty';
  if (refusal) throw new HubError('PB_START_FAILED', `the module archive ${shown} ${refusal}; nothing of it is unpacked`);
}

/** The archive's module: at its top, or in its one top folder (`pkg/`, as Companion's build packs it). */
function moduleRoot(unpacked: string, shown: string): string {
  const holds = (folder: string) => existsSync(join(folder, 'companion', 'manifest.json'));
  if (holds(unpacked)) return unpacked;
  const top = readdirSync(unpacked, { withFileTypes: true });
  if (top.length === 1 && top[0]!.isDirectory() && holds(join(unpacked, top[0]!.name))) return join(unpacked, top[0]!.name);
  throw new HubError('PB_START_FAILED', `the module archive ${shown} holds no companion/manifest.json (at its top or in its one folder)`);
}
