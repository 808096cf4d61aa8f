/**
 * `xml-file-output`: an XML file rendered from a template on every write (R-X1–R-X5), and
 * at start from the values the hub restored (`renderAtStart`). A save that fails (a folder
 * not there yet, no permission) leaves the connection `degraded` with the reason and is
 * tried again every few seconds and on the next write, so the file appears with the latest
 * values once the folder does (a share mounted after the hub started).
 *
 * Parameters:
 *   <Name>   S   write-only   one per distinct `$Name` placeholder in the template's text
 *                             and attribute values
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { Subscription } from 'rxjs';
import { AtomicFile, type WriteOutcome } from './atomic-file.ts';
import { XmlTemplate } from './template.ts';
import {
  after,
  asWritten,
  type DeclaredParameter,
  defineConnectionType,
  type Issue,
  type OwnedParameter,
  reasonOf,
  withDefault,
} from '../../sdk/index.ts';

/** How long a failed save waits before it is tried again without a write. */
const retryMs = 2000;

const settings = Type.Object({
  filename: Type.String({
    minLength: 1,
    onMachine: 'output-file',
    description:
      "The file to write; relative paths resolve against the flow file folder. In the console: a file inside the flow's `outputFolder`.",
  }),
  template: Type.String({ minLength: 1, description: 'An XML document; each $Name in text or attribute values is a placeholder.' }),
  renderAtStart: withDefault(
    Type.Boolean({
      description:
        'Write the file when the connection starts or takes new settings, from the values it has then (restored ones with a state folder), so it never shows text the hub no longer holds; false: only on writes.',
    }),
    true,
  ),
});

export const xmlFileOutputType = defineConnectionType({
  type: 'xml-file-output',
  summary: 'An XML file rendered from a template at start and on every write.',
  settings,
  parse: asWritten,
  // R-X2: `validate` shows a bad template with its line and column; `run` starts the hub,
  // and this connection's start fails on it with the same reason.
  diagnose(settings) {
    try {
      XmlTemplate.parse(settings.template);
      return [];
    } catch (error) {
      return [{ path: ['template'], message: reasonOf(error).replace(/^template is /, '') }];
    }
  },
  // A folder not there is a write failure to retry (R-X5), not a mistake: a share is often
  // mounted after the hub starts. `validate` says so, in case it is a typo.
  warn(settings, { baseDir }): Issue[] {
    const folder = missingFolder(resolve(baseDir, settings.filename));
    return folder === undefined ? [] : [{ path: ['filename'], message: `${folderMissing(folder)} (yet); ${writtenOnceItDoes}` }];
  },
  declared(settings) {
    let placeholders: readonly string[] = [];
    try {
      placeholders = XmlTemplate.parse(settings.template).placeholders;
    } catch {
      // A bad template defines nothing.
    }
    return (id): DeclaredParameter | undefined => (placeholders.includes(id) ? { type: 'S', persist: true } : undefined);
  },
  create(context, settings) {
    const fields = new Map<string, OwnedParameter>();
    let template: XmlTemplate | undefined;
    let file: AtomicFile | undefined;
    // What keeps the connection degraded: a save that failed (tried again until it lands), or
    // a folder found missing before any save (looked for again until it is there).
    let trouble: 'save' | 'folder' | undefined;
    let retry: Subscription | undefined;
    const degrade = (kind: 'save' | 'folder', reason: string) => {
      trouble = kind;
      context.setStatus('degraded', reason, 'PB_FILE_WRITE');
      retry?.unsubscribe();
      retry = after(context.scheduler, retryMs, () => {
        retry = undefined;
        if (trouble === 'save') file?.save();
        else if (trouble === 'folder') checkFolder();
      });
    };
    const recover = () => {
      retry?.unsubscribe();
      retry = undefined;
      if (trouble !== undefined) context.setStatus('ok');
      trouble = undefined;
    };
    const checkFolder = () => {
      const folder = missingFolder(file?.path ?? '');
      if (folder !== undefined) degrade(trouble ?? 'folder', `${folderMissing(folder)}; ${writtenOnceItDoes}`);
      else if (trouble === 'folder') recover();
    };
    const report = (outcome: WriteOutcome) => {
      if (outcome.ok) {
        context.log.debug(`saved ${file?.path ?? ''}`);
        return recover();
      }
      const path = file?.path ?? '';
      const folder = missingFolder(path);
      degrade('save', folder === undefined ? `cannot write ${path}: ${outcome.reason}` : `${folderMissing(folder)}; ${writtenOnceItDoes}`);
    };
    // Used by start and by an update: placeholders that stay keep their values (R-S3), and
    // with renderAtStart the file is written from them at once, so what a graphics system
    // reads agrees with the hub after a restart, a `state import` or a new template.
    const apply = async ({ filename, template: source, renderAtStart }: typeof settings) => {
      const parsed = XmlTemplate.parse(source); // R-X2: a bad template fails the connection
      const path = resolve(context.baseDir, filename);
      if (file?.path !== path) {
        await file?.flush();
        file = new AtomicFile(path, () => template?.render((name) => fields.get(name)?.value as string | undefined) ?? '', report);
        await file.removeStale();
      }
      template = parsed;
      for (const name of [...fields.keys()]) {
        if (parsed.placeholders.includes(name)) continue;
        context.remove(name);
        fields.delete(name);
      }
      for (const name of parsed.placeholders) {
        if (!fields.has(name))
          fields.set(name, context.define(name, { type: 'S', access: 'write-only', persist: true, onWrite: () => file?.save() }));
      }
      const count = parsed.placeholders.length;
      context.log.info(`${count} placeholder${count === 1 ? '' : 's'}, writing ${path}`);
      // Degraded from the start when the folder is not there, never `ok` until the save fails.
      checkFolder();
      if (renderAtStart) file?.save();
    };
    return {
      start: () => apply(settings),
      async update(next) {
        await apply(next);
        return true;
      },
      async stop() {
        await file?.flush();
        retry?.unsubscribe();
        file = undefined;
        fields.clear();
      },
      details: () => ({ filename: file?.path ?? resolve(context.baseDir, settings.filename) }),
    };
  },
});

/** The folder `file` would be written in, when it is not there (or is no folder). */
function missingFolder(file: string): string | undefined {
  const folder = dirname(file);
  return statSync(folder, { throwIfNoEntry: false })?.isDirectory() ? undefined : folder;
}

const folderMissing = (folder: string) => `the folder ${folder} does not exist`;
const writtenOnceItDoes = 'the file is written once it does';
