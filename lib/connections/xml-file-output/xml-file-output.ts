/**
 * `xml-file-output`: an XML file rendered from a template on every write (R-X1–R-X5), and
 * at start from the values the hub restored (`renderAtStart`).
 *
 * Parameters:
 *   <Name>   S   write-only   one per distinct `$Name` placeholder in the template's text
 *                             and attribute values
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { AtomicFile, type WriteOutcome } from './atomic-file.ts';
import { XmlTemplate } from './template.ts';
import { asWritten, type DeclaredParameter, defineConnectionType } from '../connection.ts';
import { withDefault } from '../defaults.ts';
import { HubError, reasonOf } from '../../core/errors.ts';
import type { Issue } from '../../core/issue.ts';
import type { OwnedParameter } from '../../core/parameter.ts';

const settings = Type.Object({
  filename: Type.String({ minLength: 1, description: 'The file to write; relative paths resolve against the flow file folder.' }),
  template: Type.String({ minLength: 1, description: 'An XML document; each $Name in text or attribute values is a placeholder.' }),
  renderAtStart: withDefault(
    Type.Boolean({
      description:
        'Write the file when the connection starts or takes new settings, from the values it has then (restored ones with a state folder), so it never shows text the hub no longer holds; false: only on writes.',
    }),
    true,
  ),
});

export const xmlFileOutput = defineConnectionType({
  type: 'xml-file-output',
  summary: 'An XML file rendered from a template at start and on every write.',
  settings,
  parse: asWritten,
  // R-X2: `validate` shows a bad template with its line and column, and a folder that is not
  // there; `run` starts the hub, and this connection's start fails on them with the same reason.
  diagnose(settings, { baseDir }) {
    const issues: Issue[] = [];
    try {
      XmlTemplate.parse(settings.template);
    } catch (error) {
      issues.push({ path: ['template'], message: reasonOf(error).replace(/^template is /, '') });
    }
    const folder = missingFolder(resolve(baseDir, settings.filename));
    if (folder !== undefined)
      issues.push({ path: ['filename'], message: `${folderMissing(folder)}; create it, or name a file in a folder that does` });
    return issues;
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
    let failing = false;
    const report = (outcome: WriteOutcome) => {
      if (outcome.ok) context.log.debug(`saved ${file?.path ?? ''}`);
      if (outcome.ok && failing) {
        failing = false;
        context.setStatus('ok');
      } else if (!outcome.ok) {
        failing = true;
        context.setStatus('degraded', `cannot write ${file?.path ?? ''}: ${outcome.reason}`, 'PB_FILE_WRITE');
      }
    };
    // Used by start and by an update: placeholders that stay keep their values (R-S3), and
    // with renderAtStart the file is written from them at once, so what a graphics system
    // reads agrees with the hub after a restart, a `state import` or a new template.
    const apply = async ({ filename, template: source, renderAtStart }: typeof settings) => {
      const parsed = XmlTemplate.parse(source); // R-X2: a bad template fails the connection
      const path = resolve(context.baseDir, filename);
      const folder = missingFolder(path);
      // Missing at start, it is a mistake of the settings (validate says so); missing later,
      // it is a write failure the next write retries (R-X5).
      if (folder !== undefined) throw new HubError('PB_FILE_WRITE', `${folderMissing(folder)}; create it, then reload or restart`);
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
      context.log.info(`${parsed.placeholders.length} placeholders, writing ${path}`);
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
