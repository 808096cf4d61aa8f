#!/usr/bin/env node
// The sources are TypeScript, run through tsx's loader: no build step between an edit and a run.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/cli.ts');
process.exit(await main(process.argv.slice(2)));
