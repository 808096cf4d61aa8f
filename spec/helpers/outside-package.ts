import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ExecutionContext } from 'ava';
import { type HubProcess, runHub } from './hub-process.ts';

const checkout = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A studio folder with the package in `packages/<folder>` installed as npm installs it (its
 * package.json and the files it lists, copied into `node_modules/<name>`, and its dependencies), beside a
 * `patchbay-hub` whose `patchbay-hub/connection` is this checkout's face: the sources, as an
 * installed patchbay's `dist/` would be. The package reaches patchbay as it would in a
 * studio, by its name; `spec/e2e/package.spec.ts` packs and installs both for real.
 */
export async function studioWith(folder: string): Promise<string> {
  const source = join(checkout, 'packages', folder);
  const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8')) as {
    name: string;
    files: string[];
    dependencies?: Record<string, string>;
  };
  const dir = await mkdtemp(join(tmpdir(), `patchbay-studio-${folder}-`));
  const installed = join(dir, 'node_modules', manifest.name);
  await mkdir(installed, { recursive: true });
  for (const file of ['package.json', ...manifest.files]) await cp(join(source, file), join(installed, file), { recursive: true });
  // Its dependencies as npm would install them beside it: the checkout's copies (devDependencies of the checkout).
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    await mkdir(dirname(join(dir, 'node_modules', dependency)), { recursive: true });
    await symlink(join(checkout, 'node_modules', dependency), join(dir, 'node_modules', dependency), 'dir');
  }
  const patchbay = join(dir, 'node_modules', 'patchbay-hub');
  await mkdir(patchbay);
  await writeFile(
    join(patchbay, 'package.json'),
    JSON.stringify({ name: 'patchbay-hub', version: '0.0.0-checkout', type: 'module', exports: { './connection': './connection.js' } }),
  );
  await writeFile(join(patchbay, 'connection.js'), `export * from '${pathToFileURL(join(checkout, 'lib/sdk/index.ts')).href}';\n`);
  return dir;
}

/** Runs a hub process in a studio with the package of `packages/<folder>` installed, on a flow of `connections` and a rest-api. */
export async function hubWithPackage(t: ExecutionContext, folder: string, connections: Record<string, unknown>): Promise<HubProcess> {
  const studio = await studioWith(folder);
  const manifest = JSON.parse(await readFile(join(checkout, 'packages', folder, 'package.json'), 'utf8')) as { name: string };
  await writeFile(
    join(studio, 'flow.json5'),
    JSON.stringify({ plugins: [manifest.name], connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, ...connections } }),
  );
  return runHub(t, 'flow.json5', { cwd: studio, args: ['--state', 'none'] });
}

/** A write over HTTP as a JSON client makes it: the status, and the code and reason when refused. */
export async function update(
  hub: HubProcess,
  address: string,
  value: string,
): Promise<{ status: number; code?: string; message?: string }> {
  const response = await fetch(`${hub.base}/update?parameter=${encodeURIComponent(address)}&value=${encodeURIComponent(value)}`, {
    headers: { accept: 'application/json' },
  });
  if (response.ok) return { status: response.status };
  const body = (await response.json()) as { error: string; code: string };
  return { status: response.status, code: body.code, message: body.error };
}

/** A connection as `GET /connections` lists it. */
export async function connectionOf(
  hub: HubProcess,
  id: string,
): Promise<{ status: string; reason?: string; details?: Record<string, unknown> } | undefined> {
  const list = (await (await fetch(`${hub.base}/connections`)).json()) as { id: string; status: string; reason?: string }[];
  return list.find((c) => c.id === id);
}
