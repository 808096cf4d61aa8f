import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const tempRoot = fileURLToPath(new URL('./helpers/temp-root.ts', import.meta.url));

test('every spec process has a temporary folder of its own', (t) => {
  t.regex(basename(tmpdir()), /^patchbay-spec-/);
});

test('a spec process leaves no temporary folder behind, with what it and its children wrote in it', (t) => {
  const parent = mkdtempSync(join(dirname(tmpdir()), 'patchbay-parent-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const script = `
    const { mkdtempSync, writeFileSync } = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const { tmpdir } = require('node:os');
    const { join } = require('node:path');
    const mine = mkdtempSync(join(tmpdir(), 'patchbay-left-'));
    writeFileSync(join(mine, 'file'), 'x');
    execFileSync(process.execPath, ['-e', "require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'child-'))"]);
    console.log(tmpdir());`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', tempRoot, '-e', script], {
    env: { ...process.env, TMPDIR: parent },
    encoding: 'utf8',
  });
  t.is(run.status, 0, run.stderr);
  const used = run.stdout.trim();
  t.is(dirname(used), parent, 'its folder was inside the one it was given');
  t.false(existsSync(used), 'and it is gone');
  // tsx keeps its compile cache in a tsx-<uid> folder of the temporary folder it finds at load.
  t.deepEqual(
    readdirSync(parent).filter((name) => !name.startsWith('tsx-')),
    [],
  );
});
