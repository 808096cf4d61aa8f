/**
 * `dummy`: user-defined parameters as intermediate storage (R-D1–R-D4).
 *
 * Parameters:
 *   <parameter id>   type from its line (S B I F T, default S)   read-write
 */
import { Type } from '@sinclair/typebox';
import { defineConnectionType, parseParameterLines, withDefault } from '../../sdk/index.ts';

const settings = Type.Object({
  parameters: withDefault(
    Type.Union([Type.String(), Type.Array(Type.String())], {
      description:
        'One parameter per line: <parameter id>[,<type>[,<default value>]]; a range declares one for each number (fader/{1..8},F,0). Blank lines and lines starting with # are ignored.',
    }),
    '',
  ),
});

export const dummyType = defineConnectionType({
  type: 'dummy',
  summary: 'User-defined parameters as intermediate storage.',
  settings,
  parse: ({ parameters }) => parseParameterLines(parameters),
  declared: (table) => (id) => {
    const line = table.rows[table.ids.indexOf(id)];
    return line && { type: line.type, persist: line.type !== 'T' };
  },
  create(context, table) {
    return {
      // Made on first use: a million lines start in the time it takes to read them.
      start() {
        context.defineTable(table);
      },
      // A changed list keeps every parameter whose id and type stay, with its value;
      // the others go or come. A changed default applies only to a parameter that is new.
      update({ rows: next }) {
        const wanted = new Map(next.map((line) => [line.id, line]));
        const kept = new Set<string>();
        for (const parameter of context.graph.byPrefix(`${context.id}/`)) {
          if (parameter.id.startsWith('_')) continue; // the hub's own, such as _status/connected
          if (wanted.get(parameter.id)?.type === parameter.type) kept.add(parameter.id);
          else context.remove(parameter.id);
        }
        for (const line of next) if (!kept.has(line.id)) context.define(line.id, line);
        return true;
      },
      stop() {},
    };
  },
});
