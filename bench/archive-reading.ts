/**
 * What reading a hostile module archive costs the hub's loop: the longest the loop is held
 * while an archive is checked (`checkEntries`) and looked into for its manifest
 * (`jsonInArchive`), against the tar library read as it comes (16 MiB at once) in the same
 * run. Two archives, made with the system's `tar`: 99,000 empty files, and one file of
 * 1,000 MiB of zeros (about 1 MiB packed).
 *
 *   node --import tsx bench/archive-reading.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { list } from 'tar';
import { jsonInArchive } from '../lib/store/catalogue.ts';
import { checkEntries } from '../lib/connections/companion-module/module-archive.ts';

/** The longest gap between ticks of a 1 ms timer while `work` runs, and how long it took. */
async function held(work: () => Promise<unknown>): Promise<{ heldMs: number; tookMs: number }> {
  let last = performance.now();
  let heldMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    heldMs = Math.max(heldMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await work().catch(() => undefined);
  const tookMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(tick);
  return { heldMs, tookMs };
}

async function archives(folder: string): Promise<Record<string, string>> {
  const made: Record<string, string> = {};
  for (const [name, fill] of [
    ['99,000 files', (pkg: string) => execFileSync('sh', ['-c', `cd ${pkg} && mkdir f && cd f && seq 1 99000 | xargs touch`])],
    ['1,000 MiB of zeros', (pkg: string) => execFileSync('sh', ['-c', `head -c 1000M /dev/zero > ${pkg}/zeros`])],
  ] as const) {
    const root = join(folder, String(Object.keys(made).length));
    const pkg = join(root, 'pkg');
    await mkdir(join(pkg, 'companion'), { recursive: true });
    await writeFile(join(pkg, 'companion', 'manifest.json'), '{"name":"bench"}');
    fill(pkg);
    const archive = `${root}.tgz`;
    execFileSync('tar', ['czf', archive, '-C', root, 'pkg']);
    await rm(root, { recursive: true });
    made[name] = archive;
  }
  return made;
}

const folder = await mkdtemp(join(tmpdir(), 'patchbay-bench-archives-'));
try {
  const rows: string[] = [];
  for (const [name, archive] of Object.entries(await archives(folder))) {
    const baseline = await held(() => list({ file: archive, onReadEntry: (entry) => entry.resume() }));
    const check = await held(() => checkEntries(archive, name));
    const manifest = await held(() => jsonInArchive(archive, /companion\/manifest\.json$/));
    rows.push(
      `| ${name} | ${baseline.heldMs.toFixed(0)} ms (${baseline.tookMs.toFixed(0)}) | ${check.heldMs.toFixed(0)} ms (${check.tookMs.toFixed(0)}) | ${manifest.heldMs.toFixed(0)} ms (${manifest.tookMs.toFixed(0)}) |`,
    );
  }
  console.log('| archive | the library as it comes: loop held (all) | checked | manifest read |\n|---|---|---|---|');
  console.log(rows.join('\n'));
} finally {
  await rm(folder, { recursive: true, force: true });
}
