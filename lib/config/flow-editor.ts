/**
 * The flow file as the console edits it (R-ED2, R-ED3): read with an `ETag`, saved only on top
 * of the text the editor read (else PB_FLOW_CHANGED: a `git pull` or another editor is never
 * overwritten), checked as `patchbay validate` checks it before anything is written, written
 * atomically (a temporary file beside it, renamed over it), applied by a live reload, and put
 * back as it was when the reload is refused. Every version saved, and the file as it was
 * found before each save, is kept: the last `KEPT_VERSIONS`, in the state folder's
 * `flow-history/` (in memory for a hub without a state folder), and any can be brought back.
 * Texts leave with their secrets hidden, and come back with them put back (flow-secrets.ts).
 * One save at a time. What a studio adds beside the file (modules, packages) is the store's
 * (lib/store/).
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, chown, mkdir, open, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HubError, reasonOf } from '../core/errors.ts';
import type { Draft, FlowEdit, FlowVersion, PlacedIssue } from '../core/flow-shapes.ts';
import type { FlowView, Saved } from '../core/flow-view.ts';
import type { Issue } from '../core/issue.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import JSON5 from 'json5';
import type { ConnectionType } from '../connections/connection.ts';
import { type Environment, type Flow, flowOfText } from './flow-file.ts';
import { machineEdits } from './machine-edits.ts';
import { hideSecrets, restoreSecrets } from './flow-secrets.ts';
import { documentOf, editFlowText, FlowDocument, syntaxPlace } from './flow-text.ts';

/** How many versions of the flow file are kept. */
export const KEPT_VERSIONS = 20;

export interface FlowEditorOptions {
  /** The flow file the hub runs. */
  readonly path: string;
  /** Where versions are kept; undefined: in memory, for this run. */
  readonly historyFolder: string | undefined;
  /** Where `${NAME}` placeholders are read, as the hub read them. */
  readonly env?: Environment;
  /**
   * The hub's state folder: what its connections kept there (a Companion module's config
   * fields) checks an edit as `validate --state` would, so a mistake is refused at its field.
   */
  readonly stateFolder?: string | undefined;
  /** Applies a flow that passed its checks: the hub's live reload. Rejects when the hub refuses it. */
  readonly apply: (flow: Flow) => Promise<void>;
  /** The flow-file JSON Schema of the types the hub runs now (its packages' too). */
  readonly schema: () => string;
  /**
   * Whether an editor may change what names code, files or devices on the machine
   * (machine-edits.ts): 'allowed' only when the hub was started with --allow-machine-edits.
   */
  readonly machineEdits: () => 'refused' | 'allowed';
  /** The connection types the hub knows now (built-in and its packages'): where settings say `onMachine`. */
  readonly types: () => readonly ConnectionType[];
  /** What no file an editor names may be or lie in: the state folder. */
  readonly untouchable: readonly string[];
  readonly log: Logger;
  /** The hub's time: when each version was saved. */
  readonly scheduler: Scheduler;
}

/** The `ETag` of a text: the same text, the same tag. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

export class FlowEditor implements FlowView {
  private queue: Promise<unknown> = Promise.resolve();
  private versions: FlowVersion[] | undefined;
  /** The texts of the kept versions when there is no folder for them. */
  private readonly texts = new Map<number, string>();

  constructor(private readonly options: FlowEditorOptions) {}

  get path(): string {
    return this.options.path;
  }

  /** Why the file may not be saved (a flow inside an installed package, no write permission), or undefined. */
  async readOnly(): Promise<string | undefined> {
    const { path } = this.options;
    if (path.split(/[\\/]/).includes('node_modules'))
      return `${path} is inside an installed package: copy it to a folder of your own and run that to edit it`;
    for (const [what, where] of [
      ['the file', path],
      ['its folder', dirname(path)],
    ] as const) {
      try {
        await access(where, constants.W_OK);
      } catch {
        return `${what} ${where} may not be written by this hub's user`;
      }
    }
    return undefined;
  }

  /** The file's text now, its secrets hidden (flow-secrets.ts), and the tag of the file as it is. */
  async read(): Promise<{ readonly text: string; readonly etag: string }> {
    const { text, etag } = await this.readWhole();
    return { text: hideSecrets(text), etag };
  }

  private async readWhole(): Promise<{ readonly text: string; readonly etag: string }> {
    const text = await readFile(this.options.path, 'utf8');
    return { text, etag: etagOf(text) };
  }

  /** The kept versions, newest last. */
  history(): Promise<readonly FlowVersion[]> {
    return this.serial(() => this.loadVersions());
  }

  /** A kept version's text, its secrets hidden, or undefined when it is not kept. */
  async versionText(version: number): Promise<string | undefined> {
    const text = await this.serial(() => this.versionTextNow(version));
    return text === undefined ? undefined : hideSecrets(text);
  }

  /**
   * Saves `text` over the file whose tag is `ifMatch`, as `by`: checked, written, applied;
   * or nothing written, and why (read-only, changed since, mistakes, a refused reload).
   */
  save(text: string, ifMatch: string, by: string, note?: string): Promise<Saved> {
    return this.serial(() => this.saveNow(text, ifMatch, by, 'saved', note));
  }

  /** Brings back a kept version, as a save of its text by `by` over whatever the file is now (which is kept too). */
  restore(version: number, by: string): Promise<Saved> {
    return this.serial(async () => {
      const text = await this.versionTextNow(version);
      if (text === undefined)
        return { ok: false, error: new HubError('PB_NOT_FOUND', `version ${version} of the flow file is not kept`) } as const;
      const current = await this.readWhole();
      return this.saveNow(text, current.etag, by, `restored from version ${version}`);
    });
  }

  schema(): string {
    return this.options.schema();
  }

  async draft(edited: string, edits: readonly FlowEdit[]): Promise<Draft> {
    const deep = tooDeep(edited);
    if (deep) return { text: edited, issues: [{ ...deep, from: 0, to: 0 }] };
    const made = editFlowText(edited, edits);
    if (!made.ok) return { text: edited, issues: placed(edited, made.issues), document: documentOf(edited) };
    const { text, document } = made;
    const current = await this.readWhole();
    const checked = await this.check(text, current.text);
    if (!checked.ok) return { text, issues: placed(text, checked.issues), document };
    const { warnings } = checked.flow;
    return { text, issues: [], document, ...(warnings.length > 0 && { warnings: placed(text, warnings) }) };
  }

  /** `edited` with its hidden secrets put back from `current`, checked as `patchbay validate` checks a file. */
  private async check(edited: string, current: string) {
    const { path } = this.options;
    // Parsers recurse: a text nested deeper than any flow is refused before one reads it.
    const deep = tooDeep(edited);
    if (deep) return { ok: false, error: new HubError('PB_FLOW_INVALID', `${basename(path)}: ${deep.message}`), issues: [deep] } as const;
    const { text, issues: hidden } = restoreSecrets(edited, current);
    if (hidden.length > 0)
      return {
        ok: false,
        error: new HubError('PB_FLOW_INVALID', `${basename(path)}: a hidden secret cannot be put back`),
        issues: hidden,
      } as const;
    // Before anything of the edit is loaded: a package it names must not even be imported.
    const machine = this.machineIssues(current, text);
    if (machine.length > 0)
      return {
        ok: false,
        error: new HubError('PB_FLOW_PROTECTED', `${basename(path)}: ${machine[0]?.message ?? ''}`),
        issues: machine,
      } as const;
    const checked = await flowOfText(text, path, this.options.env ?? process.env, { stateFolder: this.options.stateFolder });
    if (checked.ok) return { ok: true, text, flow: checked.flow } as const;
    // Named by the file's name: the answer goes to a browser, which has no business with the hub's folders.
    const message = checked.error.message.replaceAll(path, basename(path));
    return {
      ok: false,
      error: new HubError('PB_FLOW_INVALID', message),
      issues: checked.issues.length > 0 ? checked.issues : [{ path: [], message }],
    } as const;
  }

  /** What the edit changes that only the machine's own configuration may (none when the hub allows it). */
  private machineIssues(current: string, edited: string): Issue[] {
    const { machineEdits: allowed, types, untouchable, path } = this.options;
    if (allowed() === 'allowed') return [];
    const before = parsedOrUndefined(current);
    const after = parsedOrUndefined(edited);
    // A text that does not read is refused by its syntax mistake, before anything of it runs.
    if (after === undefined) return [];
    const known = new Map(types().map((type) => [type.type, type]));
    return machineEdits(before, after, { flowPath: path, types: known, untouchable });
  }

  private async saveNow(edited: string, ifMatch: string, by: string, how: string, note?: string): Promise<Saved> {
    const { path, log } = this.options;
    const readOnly = await this.readOnly();
    if (readOnly) return { ok: false, error: new HubError('PB_FLOW_READ_ONLY', readOnly) };
    const before = await this.readWhole();
    if (before.etag !== ifMatch)
      return {
        ok: false,
        error: new HubError(
          'PB_FLOW_CHANGED',
          `${basename(path)} changed since it was read (its tag is ${before.etag} now, not ${shownTag(ifMatch)})`,
        ),
        etag: before.etag,
      };
    // The secrets an editor was shown hidden go back as they are in the file.
    const checked = await this.check(edited, before.text);
    if (!checked.ok) return { ok: false, error: checked.error, issues: checked.issues };
    const { text } = checked;
    await this.keep(before.text, 'on disk');
    await writeAtomically(path, text);
    try {
      await this.options.apply(checked.flow);
    } catch (error) {
      // The hub runs on as it was: so does the file.
      await writeAtomically(path, before.text);
      const message = `the hub refused the reload, the file is as it was: ${reasonOf(error)}`;
      return { ok: false, error: new HubError('PB_FLOW_INVALID', message), issues: [{ path: [], message }] };
    }
    const version = await this.keep(text, by, note);
    const { added, removed } = lineChanges(before.text, text);
    log.info(
      `flow file ${how} by ${by} (version ${version}${note ? `, "${note}"` : ''}): ${added} line${added === 1 ? '' : 's'} added, ${removed} removed`,
    );
    return { ok: true, etag: etagOf(text), version };
  }

  /** Keeps `text` as the next version (named by `note`), unless it is the newest already; its version. */
  private async keep(text: string, by: string, note?: string): Promise<number> {
    const versions = await this.loadVersions();
    const etag = etagOf(text);
    const newest = versions.at(-1);
    if (newest?.etag === etag) return newest.version;
    const version = (newest?.version ?? 0) + 1;
    versions.push({
      version,
      savedAt: this.options.scheduler.now(),
      by,
      bytes: Buffer.byteLength(text),
      etag,
      ...(note ? { note: noteOf(note) } : {}),
    });
    const dropped = versions.splice(0, Math.max(0, versions.length - KEPT_VERSIONS));
    const { historyFolder } = this.options;
    if (!historyFolder) {
      this.texts.set(version, text);
      for (const gone of dropped) this.texts.delete(gone.version);
    } else {
      // A kept version holds what the file holds (tokens, passwords): the hub's user's alone.
      await mkdir(historyFolder, { recursive: true, mode: 0o700 });
      await chmod(historyFolder, 0o700);
      await writeAtomically(join(historyFolder, `${version}.json5`), text, 0o600);
      await writeAtomically(join(historyFolder, 'versions.json'), `${JSON.stringify(versions, null, 2)}\n`, 0o600);
      for (const gone of dropped) await rm(join(historyFolder, `${gone.version}.json5`), { force: true });
    }
    return version;
  }

  private async loadVersions(): Promise<FlowVersion[]> {
    if (this.versions) return this.versions;
    const { historyFolder } = this.options;
    let loaded: FlowVersion[] = [];
    if (historyFolder) {
      try {
        const parsed = JSON.parse(await readFile(join(historyFolder, 'versions.json'), 'utf8')) as unknown;
        if (Array.isArray(parsed)) loaded = parsed.filter(isVersion);
      } catch {
        // None kept yet, or a list that does not read: the history starts again.
      }
    }
    this.versions = loaded;
    return loaded;
  }

  private async versionTextNow(version: number): Promise<string | undefined> {
    const versions = await this.loadVersions();
    if (!versions.some((kept) => kept.version === version)) return undefined;
    const { historyFolder } = this.options;
    if (!historyFolder) return this.texts.get(version);
    try {
      return await readFile(join(historyFolder, `${version}.json5`), 'utf8');
    } catch {
      return undefined;
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work, work);
    this.queue = done.catch(() => {});
    return done;
  }
}

/** `issues` of `text`, each with where it stands: the value at its path, or the place of a mistake in the syntax. */
function placed(text: string, issues: readonly Issue[]): PlacedIssue[] {
  const document = FlowDocument.parse(text);
  const syntax = document ? undefined : syntaxPlace(text);
  return issues.map((issue) => ({ ...issue, ...(document ? document.place(issue.path) : (syntax ?? { from: 0, to: 0 })) }));
}

/**
 * A tag as a client sent it, for a message: this hub's tags are printable ASCII; anything else
 * (a header's bytes that no client meant, or a tag of another server) is named, not echoed.
 */
const shownTag = (tag: string) => (/^[\x20-\x7e]{1,64}$/.test(tag) ? tag : 'a tag this hub never gives');

/** How deep a flow's objects and lists may nest: a studio's go some ten levels, rule folders a few more. */
const MAX_NESTING = 64;

/** A mistake when `text` nests objects and lists deeper than `MAX_NESTING` (brackets in strings and comments counted: an upper bound). */
function tooDeep(text: string): Issue | undefined {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x7b || code === 0x5b) {
      if (++depth > MAX_NESTING) return { path: [], message: `objects and lists nested deeper than ${MAX_NESTING} levels` };
    } else if (code === 0x7d || code === 0x5d) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return undefined;
  }
}

/** A version's note as kept: one line of at most 200 characters, no control characters. */
export const noteOf = (note: string): string =>
  note
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 200);

function isVersion(value: unknown): value is FlowVersion {
  const v = value as Partial<FlowVersion> | null;
  return (
    typeof v?.version === 'number' &&
    typeof v.savedAt === 'number' &&
    typeof v.by === 'string' &&
    typeof v.bytes === 'number' &&
    typeof v.etag === 'string'
  );
}

/**
 * Writes `text` to a temporary file beside `path`, flushed to the disk, then renames it over
 * `path`: a reader (the hub's `--watch`, a crash) sees the old file or the new, never half.
 * The file keeps its identity — a link stays a link (its target is written), the owner and
 * permissions stay (the owner where the hub may set it) — or takes `mode`.
 */
async function writeAtomically(link: string, text: string, mode?: number): Promise<void> {
  const path = await realpath(link).catch(() => link);
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { flag: 'wx', mode: 0o600 });
    const found = await stat(path).catch(() => undefined);
    const kept = mode ?? (found ? found.mode & 0o7777 : undefined);
    if (kept !== undefined) await chmod(temporary, kept);
    // Only a hub run by root may give a file away; anyone else's files are theirs already.
    if (found) await chown(temporary, found.uid, found.gid).catch(() => {});
    const handle = await open(temporary, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Lines added and removed from `before` to `after`, as a count of each line's copies. */
function lineChanges(before: string, after: string): { added: number; removed: number } {
  const counts = new Map<string, number>();
  for (const line of before.split('\n')) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of after.split('\n')) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else added++;
  }
  let removed = 0;
  for (const left of counts.values()) removed += left;
  return { added, removed };
}
