/**
 * Writes types/: the declarations of patchbay/flow, patchbay/connection and patchbay/testing
 * for TypeScript users of the package (tsconfig.flow-types.json), made afresh each time, so a
 * file whose source went goes too. `npm pack` runs it (prepack); nothing of it is committed.
 * types/package.json makes them CommonJS declarations, which `module: node16` lets CommonJS
 * and ES module files alike import (ES module ones it would refuse to CommonJS files).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const checkout = fileURLToPath(new URL('..', import.meta.url));
const types = fileURLToPath(new URL('../types/', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(types, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.flow-types.json'], { cwd: checkout, stdio: 'inherit' });
mkdirSync(types, { recursive: true });
writeFileSync(`${types}package.json`, `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
