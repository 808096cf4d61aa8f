/**
 * What an edit of the flow over HTTP may not change (docs/decisions/security-and-access.md,
 * "What admin may change"): anything that names code, a file, a folder or a device on the
 * hub's machine. An `admin` login is trusted with the studio, not with the machine: a code
 * flow or a package runs as the hub's user, a file name is a place that user may write, a
 * certificate or a document root one it may read, a serial or MIDI port, keystrokes typed
 * or listened to and an environment variable reach past the hub. Those stay as the file on
 * the machine has them unless the hub was started with `--allow-machine-edits`.
 *
 * Checked on the documents as written (placeholders not filled in), before anything of the
 * edited flow is loaded: a package named by an edit must not even be imported to be refused.
 * - `flows` and `plugins` may lose entries, never gain one; `outputFolder`, `machineEdits` and `companionModules` never change;
 * - a setting whose schema says `onMachine` keeps its value (a connection removed is fine);
 *   one of kind `output-file` may take a file inside `outputFolder` (realpath, no symlink out),
 *   one of kind `module` a Companion module inside the flow's `modules` folder;
 * - no `${NAME}` placeholder the file did not use already: it would read the hub's environment.
 *   Placeholders are found in the parsed strings, where the loader fills them in: JSON5 reads
 *   `'\u0024{NAME}'` and a line continuation after `$` as `${NAME}` too.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ConnectionType } from '../connections/connection.ts';
import type { Issue } from '../core/issue.ts';
import { environmentRead } from './environment.ts';

/** What a setting names on the machine, as its schema says with `onMachine`. */
export type MachineName = 'file' | 'folder' | 'device' | 'keystrokes' | 'key-input' | 'output-file' | 'module' | 'environment';

type Path = readonly (string | number)[];
type Json = Readonly<Record<string, unknown>>;

/** What the check knows besides the two documents. */
export interface MachineContext {
  /** The flow file, absolute: relative names resolve against its folder. */
  readonly flowPath: string;
  /** The connection types the hub knows now (built-in and its packages'), by name. */
  readonly types: ReadonlyMap<string, ConnectionType>;
  /** What no output file may be or lie in, even inside `outputFolder`: the state folder. */
  readonly untouchable: readonly string[];
}

const what: Readonly<Record<MachineName, string>> = {
  file: "names a file on the hub's machine",
  folder: "names a folder on the hub's machine",
  device: "names a device of the hub's machine",
  keystrokes: "types keys into the hub's desktop session",
  'key-input': "listens to keys typed on the hub's desktop",
  'output-file': "names a file outside the flow's outputFolder",
  module: "names code on the hub's machine outside the flow's modules folder",
  environment: "names a variable of the hub's environment",
};

const onlyOnMachine = 'change it in the file on the machine, or start the hub with --allow-machine-edits';

/** The changes of `edited` against `current` that only the machine's own configuration may make, each at its path. */
export function machineEdits(current: unknown, edited: unknown, context: MachineContext): Issue[] {
  const before = asRecord(current);
  const after = asRecord(edited);
  const issues: Issue[] = [];
  for (const key of ['flows', 'plugins'] as const) {
    const had = new Set(asList(before[key]));
    asList(after[key]).forEach((entry, index) => {
      if (!had.has(entry))
        issues.push({
          path: [key, index],
          message: `${key === 'flows' ? 'a code flow' : 'a package'} runs code on the hub's machine: ${onlyOnMachine}`,
        });
    });
  }
  if (!isDeepStrictEqual(before['outputFolder'], after['outputFolder']))
    issues.push({ path: ['outputFolder'], message: `the folder the console may write files in: ${onlyOnMachine}` });
  if (!isDeepStrictEqual(before['machineEdits'], after['machineEdits']))
    issues.push({ path: ['machineEdits'], message: `whether the console may change this machine: ${onlyOnMachine}` });
  if (!isDeepStrictEqual(before['companionModules'], after['companionModules']))
    issues.push({ path: ['companionModules'], message: `a folder of Companion modules on the hub's machine: ${onlyOnMachine}` });
  const outputs = outputFolderOf(before['outputFolder'], context.flowPath);
  const hadConnections = asRecord(before['connections']);
  for (const [id, settings] of Object.entries(asRecord(after['connections']))) {
    const type = context.types.get(String(asRecord(settings)['type']));
    if (!type) continue;
    const was = asRecord(hadConnections[id]);
    const kept = new Map<string, unknown>();
    if (was['type'] === type.type)
      for (const found of namedOnMachine(type.settings, was)) kept.set(JSON.stringify(found.path), found.value);
    for (const found of namedOnMachine(type.settings, asRecord(settings))) {
      const key = JSON.stringify(found.path);
      if (kept.has(key) && isDeepStrictEqual(kept.get(key), found.value)) continue;
      if (found.kind === 'output-file' && outputs && outputAllowed(found.value, outputs, context)) continue;
      if (found.kind === 'module' && moduleAllowed(found.value, context.flowPath)) continue;
      issues.push({ path: ['connections', id, ...found.path], message: `${what[found.kind]}: ${onlyOnMachine}` });
    }
  }
  const known = environmentRead(current);
  for (const [name, path] of environmentRead(edited))
    if (!known.has(name))
      issues.push({
        path,
        message: `\${${name}} would read the hub's environment, which this file did not read before: ${onlyOnMachine}`,
      });
  return issues;
}

interface Named {
  readonly path: Path;
  readonly kind: MachineName;
  readonly value: unknown;
}

/** The values of `value` whose schema says `onMachine`, with their paths: through objects, lists and unions. */
function* namedOnMachine(schema: unknown, value: unknown, path: Path = []): Generator<Named> {
  if (Array.isArray(value)) {
    const items = asRecord(schema)['items'];
    for (const [index, item] of value.entries()) yield* namedOnMachine(items, item, [...path, index]);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, inner] of Object.entries(value)) {
    for (const property of propertySchemas(schema, key)) {
      const kind = asRecord(property)['onMachine'];
      if (isMachineName(kind)) {
        yield { path: [...path, key], kind, value: inner };
        break;
      }
      yield* namedOnMachine(property, inner, [...path, key]);
    }
  }
}

/** The schemas `key` may have in an object of `schema`: its own property, or that of any variant of a union. */
function propertySchemas(schema: unknown, key: string): unknown[] {
  const found: unknown[] = [];
  const own = asRecord(asRecord(schema)['properties'])[key];
  if (own !== undefined) found.push(own);
  for (const variants of ['anyOf', 'oneOf', 'allOf'])
    for (const variant of asList(asRecord(schema)[variants], true)) found.push(...propertySchemas(variant, key));
  return found;
}

/** The output folder, real and absolute; undefined when the flow declares none or it is not there. */
function outputFolderOf(declared: unknown, flowPath: string): string | undefined {
  if (typeof declared !== 'string' || declared === '' || declared.includes('${')) return undefined;
  try {
    return realpathSync(resolve(dirname(flowPath), declared));
  } catch {
    return undefined;
  }
}

/**
 * True for a file name inside `folder` that leads nowhere else: its nearest folder that
 * exists is inside it once links are followed, it is no link itself, and it is neither the
 * flow file nor in what is untouchable.
 */
function outputAllowed(name: unknown, folder: string, { flowPath, untouchable }: MachineContext): boolean {
  if (typeof name !== 'string' || name.includes('${')) return false;
  const target = resolve(dirname(flowPath), name);
  let existing = dirname(target);
  const rest = [basename(target)];
  for (;;) {
    try {
      existing = realpathSync(existing);
      break;
    } catch {
      if (dirname(existing) === existing) return false;
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
  const real = join(existing, ...rest);
  if (!inside(real, folder) || real === realOr(flowPath)) return false;
  if (untouchable.some((path) => real === realOr(path) || inside(real, realOr(path)))) return false;
  try {
    return !lstatSync(real).isSymbolicLink();
  } catch {
    return true;
  }
}

/**
 * True for a Companion module (a folder or a `.tgz`) inside the flow's `modules` folder once
 * links are followed: what an admin added there (the console's catalogue) or the machine's
 * owner put there. Code anywhere else is the machine's to name.
 */
function moduleAllowed(name: unknown, flowPath: string): boolean {
  if (typeof name !== 'string' || name.includes('${')) return false;
  try {
    return inside(realpathSync(resolve(dirname(flowPath), name)), realpathSync(join(dirname(flowPath), MODULES_FOLDER)));
  } catch {
    return false;
  }
}

/** The folder beside the flow file that holds the Companion modules an admin may name (R-ST2). */
export const MODULES_FOLDER = 'modules';

/** True for a path strictly inside `folder`. */
function inside(path: string, folder: string): boolean {
  const within = relative(folder, path);
  return within !== '' && !within.startsWith('..') && !isAbsolute(within);
}

const realOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

const isMachineName = (kind: unknown): kind is MachineName => typeof kind === 'string' && kind in what;
const asRecord = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
function asList(value: unknown, any = false): unknown[] {
  if (!Array.isArray(value)) return [];
  return any ? value : value.filter((entry) => typeof entry === 'string');
}
