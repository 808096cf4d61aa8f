/**
 * `xml-file-output`: an XML file rendered from a template on every write (R-X1–R-X5).
 *
 * Parameters:
 *   <Name>   S   write-only   one per distinct `$Name` placeholder in the template's text
 *                             and attribute values
 */
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { AtomicFile } from '../files/atomic-file.ts';
import { XmlTemplate } from '../xml/template.ts';
import { defineConnectionType } from './connection.ts';
import type { OwnedParameter } from '../core/parameter.ts';

const settings = Type.Object({
  filename: Type.String({ minLength: 1, description: 'The file to write; relative paths resolve against the flow file folder.' }),
  template: Type.String({ minLength: 1, description: 'An XML document; each $Name in text or attribute values is a placeholder.' }),
});

export const xmlFileOutput = defineConnectionType({
  type: 'xml-file-output',
  summary: 'An XML file rendered from a template on every write.',
  settings,
  create(context, { filename, template }) {
    const path = resolve(context.baseDir, filename);
    let file: AtomicFile | undefined;
    let failing = false;
    return {
      start() {
        const parsed = XmlTemplate.parse(template);
        const fields = new Map<string, OwnedParameter>();
        file = new AtomicFile(
          path,
          () => parsed.render((name) => fields.get(name)?.value as string | undefined),
          (outcome) => {
            if (outcome.ok && failing) {
              failing = false;
              context.setStatus('ok');
            } else if (!outcome.ok) {
              failing = true;
              context.setStatus('degraded', `cannot write ${path}: ${outcome.reason}`);
            }
          },
        );
        for (const name of parsed.placeholders) {
          fields.set(name, context.define(name, { type: 'S', access: 'write-only', onWrite: () => file?.save() }));
        }
        context.log.info(`${parsed.placeholders.length} placeholders, writing ${path}`);
      },
      async stop() {
        await file?.flush();
        file = undefined;
      },
      details: () => ({ filename: path }),
    };
  },
});
