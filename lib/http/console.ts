/**
 * The operator console (R-U1): the static files of the package's `console/` folder (its page,
 * styles, and one ES module per view, in one flat folder: every file of a known type in it is
 * served) and the ES modules of preact and htm, found in node_modules when the hub starts, so
 * it runs in the browser with no build step, from a checkout and from an installed package
 * alike. Everything is read once into memory (about 120 KiB) and served from there.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRAME_POLICY } from './respond.ts';

export interface ConsoleFile {
  readonly contentType: string;
  readonly body: Buffer;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The console's own folder: `console/` at the package root, from lib/http or dist/http alike. */
const folder = fileURLToPath(new URL('../../console/', import.meta.url));

/**
 * The vendor modules, by the name the page's import map gives them. Resolved with the
 * package's own require so that the versions of package.json are served; htm's `import`
 * condition is its ES module, next to the CommonJS file `require` finds.
 */
function vendorFiles(): Map<string, string> {
  const require = createRequire(import.meta.url);
  return new Map([
    ['vendor/preact.mjs', require.resolve('preact')],
    ['vendor/hooks.mjs', require.resolve('preact/hooks')],
    ['vendor/htm.mjs', join(dirname(require.resolve('htm')), 'htm.mjs')],
    ...editorModules(),
  ]);
}

/**
 * The flow tab's text editor (CodeMirror 6 and the JSON5 language), each package's ES module
 * as `vendor/<package>.js`, the name the page's import map gives it. The page loads them only
 * when the text view opens. A package is found as the one that imports it finds it (npm may
 * nest one below another), and its module is what its `exports` give `import`.
 */
export const EDITOR_PACKAGES = [
  'codemirror',
  '@codemirror/autocomplete',
  '@codemirror/commands',
  '@codemirror/language',
  '@codemirror/lint',
  '@codemirror/search',
  '@codemirror/state',
  '@codemirror/streamparser',
  '@codemirror/view',
  '@lezer/common',
  '@lezer/highlight',
  '@lezer/lr',
  '@marijn/find-cluster-break',
  'codemirror-json5',
  'crelt',
  'json5',
  'lezer-json5',
  'style-mod',
  'w3c-keyname',
] as const;

function editorModules(): [string, string][] {
  const found: [string, string][] = [];
  const from = [fileURLToPath(import.meta.url)];
  for (const name of EDITOR_PACKAGES) {
    const folder = packageFolder(name, from);
    from.push(join(folder, 'package.json'));
    found.push([`vendor/${name}.js`, join(folder, esModuleOf(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))))]);
  }
  return found;
}

/** The folder of package `name`, as the first of `from` (files) that finds it finds it. */
function packageFolder(name: string, from: readonly string[]): string {
  for (const file of [...from].reverse()) {
    let entry: string;
    try {
      entry = createRequire(file).resolve(name);
    } catch {
      continue;
    }
    for (let folder = dirname(entry); folder !== dirname(folder); folder = dirname(folder)) {
      try {
        if ((JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string }).name === name) return folder;
      } catch {
        // No package.json here: one folder up.
      }
    }
  }
  throw new Error(`the console's editor needs the package ${name}: run npm install`);
}

type Exports = string | { readonly [condition: string]: Exports } | undefined;

/** The file a package's `import` gives: its `exports` for `import` (or `default`), else `module`, else `main`. */
function esModuleOf(pkg: { exports?: Exports; module?: string; main?: string }): string {
  const pick = (exports: Exports): string | undefined => {
    if (typeof exports === 'string' || exports === undefined) return exports;
    if ('.' in exports) return pick(exports['.']);
    return pick(exports['import'] ?? exports['default']);
  };
  return pick(pkg.exports) ?? pkg.module ?? pkg.main ?? 'index.js';
}

/**
 * The console pages' Content-Security-Policy: everything from the hub itself, the one
 * inline script (the import map) by its hash, nothing inline besides, no plugins, and no
 * framing. `connect-src 'self'` covers the page's WebSocket (ws: or wss: to the same host).
 */
function policyFor(index: Buffer | undefined): string {
  const inline = [...(index?.toString('utf8') ?? '').matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...inline].join(' ')}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

let policy: string | undefined;

/** The Content-Security-Policy of every console answer; made with the files. */
export function consolePolicy(): string {
  consoleFiles();
  return policy ?? FRAME_POLICY;
}

let loaded: Map<string, ConsoleFile> | undefined;

/** The console's files by path below `/console/` ("" is index.html); read on first use. */
export function consoleFiles(): Map<string, ConsoleFile> {
  if (loaded) return loaded;
  const files = new Map<string, ConsoleFile>();
  const add = (name: string, path: string) =>
    files.set(name, { contentType: types[extname(path)] ?? 'application/octet-stream', body: readFileSync(path) });
  for (const name of readdirSync(folder)) if (types[extname(name)]) add(name, join(folder, name));
  for (const [name, path] of vendorFiles()) add(name, path);
  const index = files.get('index.html');
  if (index) files.set('', index);
  policy = policyFor(index?.body);
  loaded = files;
  return files;
}
