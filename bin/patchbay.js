#!/usr/bin/env node
// A checkout runs its TypeScript sources through tsx's loader: no build step between an
// edit and a run. The package ships them compiled instead (dist/, made by `npm pack`),
// which starts in about half the time; it has no lib/, so sources always win when present.
import { existsSync } from 'node:fs';

let cli;
if (existsSync(new URL('../lib/cli.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../lib/cli.ts');
} else {
  cli = await import('../dist/cli.js');
}
const code = await cli.main(process.argv.slice(2));
// What is still on its way to a pipe (`patchbay schema | …`, some 200 KB) goes out before
// the process ends: exiting at once cut it at 64 KB.
process.exitCode = code;
process.stdout.write('', () => process.exit(code));
