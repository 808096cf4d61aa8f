import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { NamespacedUnregister } from 'tsx/esm/api';
import { reasonOf } from '../../core/errors.ts';

let loads = 0;

/**
 * Imports the modules of one start of the code flows through tsx, in a namespace of their
 * own: each module and every module it imports in turn is read afresh, whatever the scope
 * of its folder — TypeScript or JavaScript, ES module or CommonJS by Node's rules
 * (`"type"` of the nearest package.json, `.mjs`/`.mts`, `.cjs`/`.cts`). Node never
 * forgets an ES module, so a namespace is how a reload gets the edited ones. It also
 * records the local files the flows loaded, for `--watch`.
 */
export class ModuleLoader {
  private readonly requireCache = createRequire(import.meta.url).cache;

  private constructor(
    private readonly namespace: string,
    private readonly loaded: ReadonlySet<string>,
    private readonly esm: NamespacedUnregister,
    private readonly commonJs: { unregister(): void },
  ) {}

  /** tsx's APIs are imported only by hubs with code flows (they take a tenth of a second). */
  static async open(imported: () => void): Promise<ModuleLoader> {
    const [{ register: registerEsm }, { register: registerCommonJs }] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
    // The trailing dash keeps one namespace from being the beginning of another (1-, 10-).
    const namespace = `patchbay-flows-${++loads}-`;
    const loaded = new Set<string>();
    const onImport = (url: string) => {
      loaded.add(url);
      imported();
    };
    return new ModuleLoader(namespace, loaded, registerEsm({ namespace, onImport }), registerCommonJs({ namespace }));
  }

  async import(path: string): Promise<unknown> {
    const url = pathToFileURL(path).href;
    // An absolute URL, imported from itself: `x.js` is x.js. Imported from a TypeScript
    // file (this one), tsx would take a neighbouring x.ts for it.
    return this.esm.import(url, url);
  }

  /** The files of the flows and of the local modules they imported (not packages). */
  files(): string[] {
    const files = new Set<string>();
    for (const url of this.loaded) if (url.startsWith('file:')) files.add(fileURLToPath(url.replace(/[?#].*$/, '')));
    // Modules required from CommonJS flows are not told to `onImport`; Node's cache knows them.
    for (const key of Object.keys(this.requireCache)) if (this.isOurs(key) && key.startsWith('/')) files.add(key.replace(/\?.*$/, ''));
    return [...files].filter((file) => !file.split(/[\\/]/).includes('node_modules'));
  }

  /** Lets go of the hooks and of the CommonJS modules of this load. */
  close(): void {
    void this.esm.unregister().catch(() => {});
    this.commonJs.unregister();
    for (const key of Object.keys(this.requireCache)) if (this.isOurs(key)) delete this.requireCache[key];
  }

  private isOurs(key: string): boolean {
    return key.includes(`namespace=${this.namespace}`) || key.includes(`namespace%3D${this.namespace}`);
  }
}

/**
 * The message of an error a module raised while loading. TypeScript and transpiled files
 * fail in esbuild, whose message names file, line and column; JavaScript that Node parses
 * itself fails with a bare SyntaxError (the place is only in what Node prints when it
 * dies), so the files that may hold it — the flow, and the module loaded last — are
 * checked with `node --check`, which prints it.
 */
export function loadFailure(error: unknown, candidates: readonly string[]): string {
  // esbuild: `Transform failed with 1 error:\n<file>:<line>:<column>: ERROR: <what>`, one line each.
  const reason = reasonOf(error)
    .replace(/^Transform failed with \d+ errors?:\n/, '')
    .replaceAll(': ERROR: ', ': ')
    .replaceAll('\n', '; ');
  if (!(error instanceof SyntaxError) || /:\d+:\d+/.test(reason)) return reason;
  for (const file of new Set(candidates)) {
    if (!/\.[cm]?js$/.test(file)) continue;
    const checked = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 10_000 });
    // `<file>:<line>`, the source line, a caret under the column.
    const [where, , caret] = checked.stderr.split('\n');
    const at = /^(.*):(\d+)$/.exec(where ?? '');
    if (checked.status !== 0 && at) return `${at[1]}:${at[2]}${caret?.includes('^') ? `:${caret.indexOf('^') + 1}` : ''}: ${reason}`;
  }
  return reason;
}
