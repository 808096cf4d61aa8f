/**
 * `virtual-core`: a virtual logic core, like the logic engine of a mixing console
 * (R-V1–R-V3): a bank of boolean logics and functions over any parameters of the hub.
 *
 * Parameters:
 *   logic/<n>        B   read-write   n = 1…logics, starting false
 *   function/<id>    B   read-only    the function's output, updated as soon as an input changes
 */
import { Type } from '@sinclair/typebox';
import type { Subscription } from 'rxjs';
import { segmentPattern } from '../core/address.ts';
import type { Issue } from '../config/issue.ts';
import { inputCounts, levelOf, type LogicOp, logicFunction, logicOps, timedOps } from '../logic/functions.ts';
import { defineConnectionType } from './connection.ts';

const settings = Type.Object({
  logics: Type.Optional(Type.Integer({ minimum: 0, maximum: 4096, default: 64, description: 'How many logic/<n> parameters.' })),
  functions: Type.Optional(
    Type.Array(
      Type.Object(
        {
          id: Type.String({ pattern: segmentPattern, expected: 'an id of 1–128 characters A-Z a-z 0-9 _ - .' }),
          op: Type.Unsafe<LogicOp>({ type: 'string', enum: [...logicOps] }),
          inputs: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'Addresses of any readable parameters.' }),
          ms: Type.Optional(Type.Integer({ minimum: 0, description: 'Time for delay-on, delay-off and pulse.' })),
          description: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
      { default: [] },
    ),
  ),
});

type FunctionSettings = { id: string; op: LogicOp; inputs: string[]; ms?: number };

/** Input counts, `ms`, duplicate ids and cycles among this core's functions (R-V3). */
function checkFunctions(functions: readonly FunctionSettings[], coreId: string): Issue[] {
  const issues: Issue[] = [];
  const byId = new Map<string, number>();
  functions.forEach((f, index) => {
    const at = (...path: (string | number)[]) => ['functions', index, ...path];
    if (byId.has(f.id)) issues.push({ path: at('id'), message: `"${f.id}" is defined twice` });
    byId.set(f.id, index);
    const count = inputCounts[f.op];
    if (count !== undefined && f.inputs.length !== count) {
      issues.push({ path: at('inputs'), message: `${f.op} takes exactly ${count} input${count > 1 ? 's' : ''}${f.op === 'latch' ? ' (set, reset)' : ''}` });
    }
    if (timedOps.includes(f.op) && f.ms === undefined) issues.push({ path: at('ms'), message: `missing; ${f.op} needs a time in ms` });
    if (!timedOps.includes(f.op) && f.ms !== undefined) issues.push({ path: at('ms'), message: `${f.op} takes no time; ms is for ${timedOps.join(', ')}` });
  });
  // Depth-first search over "function → the functions of this core it reads".
  const prefix = `${coreId}/function/`;
  const state = new Map<string, 'visiting' | 'done'>();
  const reported = new Set<string>();
  const visit = (id: string, chain: string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') {
      const cycle = [...chain.slice(chain.indexOf(id)), id];
      const key = [...cycle].sort().join();
      if (!reported.has(key)) {
        reported.add(key);
        issues.push({ path: ['functions', byId.get(id) ?? 0, 'inputs'], message: `cycle among functions: ${cycle.map((c) => prefix + c).join(' → ')}` });
      }
      return;
    }
    state.set(id, 'visiting');
    const f = functions[byId.get(id) ?? -1];
    for (const input of f?.inputs ?? []) {
      if (input.startsWith(prefix) && byId.has(input.slice(prefix.length))) visit(input.slice(prefix.length), [...chain, id]);
    }
    state.set(id, 'done');
  };
  for (const f of functions) visit(f.id, []);
  return issues;
}

export const virtualCore = defineConnectionType({
  type: 'virtual-core',
  summary: 'A bank of boolean logics and logic functions over any parameters of the hub.',
  settings,
  check: ({ functions = [] }, { id }) => checkFunctions(functions, id),
  create(context, { logics = 64, functions = [] }) {
    const running: Subscription[] = [];
    return {
      start() {
        for (let n = 1; n <= logics; n++) context.define(`logic/${n}`, { type: 'B', access: 'read-write', initial: false });
        // Every output exists before any function is wired, so functions can feed each other.
        const outputs = functions.map((f) => context.define(`function/${f.id}`, { type: 'B', access: 'read-only', initial: false }));
        functions.forEach((f, index) => {
          const inputs = f.inputs.map((address) => levelOf(context.graph, address));
          const output = outputs[index];
          running.push(logicFunction(f.op, inputs, f.ms ?? 0, context.scheduler).subscribe((level) => output?.report(level)));
        });
      },
      stop() {
        for (const subscription of running.splice(0)) subscription.unsubscribe();
      },
    };
  },
});
