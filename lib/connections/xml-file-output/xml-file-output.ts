/**
 * `xml-file-output`: an XML file rendered from a template on every write (R-X1–R-X5).
 *
 * Parameters:
 *   <Name>   S   write-only   one per distinct `$Name` placeholder in the template's text
 *                             and attribute values
 */
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { AtomicFile, type WriteOutcome } from './atomic-file.ts';
import { XmlTemplate } from './template.ts';
import { asWritten, type DeclaredParameter, defineConnectionType } from '../connection.ts';
import { reasonOf } from '../../core/errors.ts';
import type { OwnedParameter } from '../../core/parameter.ts';

const settings = Type.Object({
  filename: Type.String({ minLength: 1, description: 'The file to write; relative paths resolve against the flow file folder.' }),
  template: Type.String({ minLength: 1, description: 'An XML document; each $Name in text or attribute values is a placeholder.' }),
});

export const xmlFileOutput = defineConnectionType({
  type: 'xml-file-output',
  summary: 'An XML file rendered from a template on every write.',
  settings,
  parse: asWritten,
  // R-X2: `validate` shows a bad template with its line and column; `run` starts the hub, and
  // this connection's start fails on it with the same reason.
  diagnose(settings) {
    try {
      XmlTemplate.parse(settings.template);
      return [];
    } catch (error) {
      return [{ path: ['template'], message: reasonOf(error).replace(/^template is /, '') }];
    }
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
    // Used by start and by an update: placeholders that stay keep their values (R-S3),
    // and the file is not written until the next write (the decision for start, too).
    const apply = async ({ filename, template: source }: typeof settings) => {
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
      context.log.info(`${parsed.placeholders.length} placeholders, writing ${path}`);
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
