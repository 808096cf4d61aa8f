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
  ]);
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
