/**
 * `dummy`: user-defined parameters as intermediate storage (R-D1–R-D4).
 *
 * Parameters:
 *   <parameter id>   type from its line (S B I F T, default S)   read-write
 */
import { Type } from '@sinclair/typebox';
import {
  defineConnectionType,
  describeLines,
  describeSetting,
  parameterLinesSetting,
  parseParameterLines,
  type Value,
} from '../../sdk/index.ts';

const settings = Type.Object({
  parameters: parameterLinesSetting(
    'One parameter per line: <parameter id>[,<type>[,<default value>]]; a range declares one for each number (fader/{1..8},F,0). Blank lines and lines starting with # are ignored.',
  ),
  describe: describeSetting,
});

export const dummyType = defineConnectionType({
  type: 'dummy',
  summary: 'User-defined parameters as intermediate storage.',
  settings,
  parse: ({ parameters, describe }) => {
    const lines = parseParameterLines(parameters);
    return lines.ok ? describeLines(lines.value, describe) : lines;
  },
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
      // A parameter described anew is defined again with the value it has.
      update({ rows: next }) {
        const wanted = new Map(next.map((line) => [line.id, line]));
        const kept = new Set<string>();
        const carried = new Map<string, Value>();
        for (const parameter of context.graph.byPrefix(`${context.id}/`)) {
          if (parameter.id.startsWith('_')) continue; // the hub's own, such as _status/connected
          const line = wanted.get(parameter.id);
          if (line?.type === parameter.type && JSON.stringify(line.meta) === JSON.stringify(parameter.meta)) kept.add(parameter.id);
          else {
            if (line?.type === parameter.type && parameter.value !== undefined) carried.set(parameter.id, parameter.value);
            context.remove(parameter.id);
          }
        }
        for (const line of next) {
          const value = carried.get(line.id);
          if (!kept.has(line.id)) context.define(line.id, value === undefined ? line : { ...line, initial: value });
        }
        return true;
      },
      stop() {},
    };
  },
});
