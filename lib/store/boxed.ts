/**
 * The device packages that come with the hub (R-ST7): ATEM, HyperDeck, OBS, Videohub and
 * sACN, in the hub's own `packages` folder (a checkout's, or the installed hub's: the package
 * holds them). The catalogue offers them before any is installed; installing one packs its
 * folder as `npm pack` does and takes the archive as an upload is taken (the same checks, kept
 * in the flow's packages folder, `npm install` beside the flow), so a studio set up in the
 * browser needs no terminal for its machines.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HubError } from '../core/errors.ts';
import type { CatalogueEntry } from '../core/flow-shapes.ts';

/** The hub's own packages folder. */
const BOX = fileURLToPath(new URL('../../packages/', import.meta.url));
/** Its folders that hold a studio's machines (the example type stays an example). */
const MACHINES = ['atem', 'hyperdeck', 'obs', 'videohub', 'sacn'] as const;

type Json = Readonly<Record<string, unknown>>;

/** The packages in the box, with their folders and package.json; those whose package.json does not read are left out. */
function boxed(): { folder: string; manifest: Json }[] {
  return MACHINES.flatMap((name) => {
    const folder = join(BOX, name);
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Json;
      return typeof manifest['name'] === 'string' ? [{ folder, manifest }] : [];
    } catch {
      return [];
    }
  });
}

/** The packages in the box not installed beside the flow (`installed` names those that are), each type an entry to install. */
export function boxedEntries(installed: ReadonlySet<string>): CatalogueEntry[] {
  return boxed().flatMap(({ manifest }) => {
    const name = String(manifest['name']);
    if (installed.has(name)) return [];
    const types = Object.keys((manifest['patchbay'] as { types?: object } | undefined)?.types ?? {});
    return types.map((type) => ({
      kind: 'package',
      name,
      description: typeof manifest['description'] === 'string' ? manifest['description'] : '',
      keywords: Array.isArray(manifest['keywords']) ? manifest['keywords'].filter((word) => typeof word === 'string') : [],
      version: String(manifest['version'] ?? ''),
      package: name,
      listed: false,
      boxed: true,
      connection: { type },
    }));
  });
}

/**
 * The archive of the package in the box named `name`, as `npm pack` makes it: its file name
 * and bytes, given to `take` (which keeps and installs it) before the scratch folder goes.
 */
export async function withBoxedArchive<T>(
  name: string,
  pack: (folder: string, into: string) => Promise<string>,
  take: (file: string, bytes: Uint8Array) => Promise<T>,
): Promise<T> {
  const found = boxed().find(({ manifest }) => manifest['name'] === name);
  if (!found)
    throw new HubError(
      'PB_BAD_REQUEST',
      `${name} does not come with this hub: it brings ${boxed()
        .map(({ manifest }) => manifest['name'])
        .join(', ')}`,
    );
  const scratch = await mkdtemp(join(tmpdir(), 'patchbay-boxed-'));
  try {
    const file = await pack(found.folder, scratch);
    return await take(file, await readFile(join(scratch, file)));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
