/**
 * Writes types/: the declarations of patchbay-hub/flow, patchbay-hub/connection and patchbay-hub/testing
 * for TypeScript users of the package (tsconfig.flow-types.json), made afresh each time, so a
 * file whose source went goes too. `npm pack` runs it (prepack); nothing of it is committed.
 * types/package.json makes them CommonJS declarations, which `module: node16` lets CommonJS
 * and ES module files alike import (ES module ones it would refuse to CommonJS files).
 *
 * tsc writes a declaration for every source the three entries reach at run time (the hub
 * behind patchbay-hub/testing, its HTTP server, its store …); an author's compiler reads only
 * what the faces' declarations import. The rest is removed: what ships is the faces'
 * declaration closure alone, so nothing of the hub's inside becomes something to keep.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = fileURLToPath(new URL('..', import.meta.url));
const types = fileURLToPath(new URL('../types/', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(types, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.flow-types.json'], { cwd: checkout, stdio: 'inherit' });
mkdirSync(types, { recursive: true });
writeFileSync(`${types}package.json`, `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

/** The declarations the faces import, however far round: what an author's compiler can read. */
function closure(entries) {
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file) || !existsSync(file)) return;
    reached.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from\s*|import\(\s*)['"](\.[^'"]+)['"]/g))
      visit(resolve(dirname(file), specifier).replace(/\.[jt]s$/, '.d.ts'));
  };
  for (const entry of entries) visit(join(types, entry));
  return reached;
}

const kept = closure(['rules/flow-api.d.ts', 'sdk/index.d.ts', 'testing/index.d.ts']);
const declarations = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? declarations(join(dir, entry.name)) : entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : [],
  );
for (const file of declarations(types)) if (!kept.has(file)) rmSync(file);
// Folders left empty go too.
const prune = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) prune(join(dir, entry.name));
  if (dir !== types && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
};
prune(types);
