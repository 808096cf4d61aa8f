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
import {
  checked,
  type DeclaredParameter,
  defineConnectionType,
  type Issue,
  type OwnedParameter,
  withDefault,
  segmentPattern,
} from '../../sdk/index.ts';
import { inputCounts, levelOf, type LogicOp, logicFunction, logicOps, timedOps } from './functions.ts';

const settings = Type.Object({
  logics: withDefault(Type.Integer({ minimum: 0, maximum: 4096, description: 'How many logic/<n> parameters.' }), 64),
  functions: withDefault(
    Type.Array(
      Type.Object(
        {
          id: Type.String({
            pattern: segmentPattern,
            expected: 'an id of 1–128 characters A-Z a-z 0-9 _ - .',
            description: 'Names its output, function/<id>.',
          }),
          op: Type.Union(
            logicOps.map((op) => Type.Literal(op)),
            { description: 'The logic operation over the inputs.' },
          ),
          inputs: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'Addresses of any readable parameters.' }),
          ms: Type.Optional(Type.Integer({ minimum: 0, description: 'Time for delay-on, delay-off and pulse.' })),
          description: Type.Optional(Type.String({ description: 'Free text for people.' })),
        },
        { additionalProperties: false },
      ),
      { description: 'Logic functions, each exposing function/<id> (B, read-only).' },
    ),
    [],
  ),
});

type FunctionSettings = { id: string; op: LogicOp; inputs: string[]; ms?: number };

/** How many times an output may change while its own change is still being delivered (as for rules, R-R5). */
const loopLimit = 256;

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
      issues.push({
        path: at('inputs'),
        message: `${f.op} takes exactly ${count} input${count > 1 ? 's' : ''}${f.op === 'latch' ? ' (set, reset)' : ''}`,
      });
    }
    if (timedOps.includes(f.op) && f.ms === undefined) issues.push({ path: at('ms'), message: `missing; ${f.op} needs a time in ms` });
    if (!timedOps.includes(f.op) && f.ms !== undefined)
      issues.push({ path: at('ms'), message: `${f.op} takes no time; ms is for ${timedOps.join(', ')}` });
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
        issues.push({
          path: ['functions', byId.get(id) ?? 0, 'inputs'],
          message: `cycle among functions: ${cycle.map((c) => prefix + c).join(' → ')}`,
        });
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

export const virtualCoreType = defineConnectionType({
  type: 'virtual-core',
  summary: 'A bank of boolean logics and logic functions over any parameters of the hub.',
  settings,
  parse: ({ logics, functions }, { id }) => checked(checkFunctions(functions, id), { logics, functions }),
  // Functions follow their inputs in the same turn: the flow file refuses cycles through other cores too.
  links: ({ functions }) =>
    functions.map((f, index) => ({ output: `function/${f.id}`, inputs: f.inputs, path: ['functions', index, 'inputs'] })),
  // Logic levels are kept; function outputs are computed again from their inputs.
  declared:
    ({ logics, functions }) =>
    (id): DeclaredParameter | undefined => {
      const logic = /^logic\/([1-9]\d*)$/.exec(id);
      if (logic && Number(logic[1]) <= logics) return { type: 'B', persist: true };
      return functions.some((f) => id === `function/${f.id}`) ? { type: 'B', persist: false } : undefined;
    },
  create(context, settings) {
    const logicLevels: OwnedParameter[] = [];
    const outputs = new Map<string, OwnedParameter>();
    let running: Subscription[] = [];
    // Used by start and by an update: logics and function outputs that stay keep their
    // levels; every function is wired afresh, since its inputs may have changed.
    const apply = ({ logics, functions }: typeof settings) => {
      for (const subscription of running) subscription.unsubscribe();
      running = [];
      for (let n = logicLevels.length; n > logics; n--) {
        context.remove(`logic/${n}`);
        logicLevels.pop();
      }
      while (logicLevels.length < logics) {
        logicLevels.push(
          context.define(`logic/${logicLevels.length + 1}`, { type: 'B', access: 'read-write', initial: false, persist: true }),
        );
      }
      const wanted = new Set(functions.map((f) => f.id));
      for (const id of [...outputs.keys()]) {
        if (wanted.has(id)) continue;
        context.remove(`function/${id}`);
        outputs.delete(id);
      }
      // Every output exists before any function is wired, so functions can feed each other.
      for (const { id } of functions) {
        if (!outputs.has(id)) outputs.set(id, context.define(`function/${id}`, { type: 'B', access: 'read-only', initial: false }));
      }
      for (const f of functions) {
        const inputs = f.inputs.map((address) => levelOf(context.graph, address));
        running.push(logicFunction(f.op, inputs, f.ms ?? 0, context.scheduler).subscribe(guarded(f)));
      }
    };
    // A cycle through something the flow file cannot show (another hub, a code flow) would
    // chase its own change for ever, in one turn: an output that changes more than
    // `loopLimit` times while its own first change is being delivered is in such a loop.
    // The change that would go round again is dropped, and the core shows it (degraded).
    const guarded = (f: FunctionSettings) => {
      let depth = 0;
      let rounds = 0;
      return (level: boolean) => {
        if (depth > 0 && ++rounds > loopLimit) {
          if (rounds === loopLimit + 1) {
            const reason = `feedback loop cut: function/${f.id} changed ${loopLimit} times while its own change was being delivered; its inputs (${f.inputs.join(', ')}) depend on it`;
            context.log.error(reason);
            context.setStatus('degraded', reason, 'PB_FEEDBACK_LOOP');
          }
          return;
        }
        depth++;
        try {
          outputs.get(f.id)?.report(level);
        } finally {
          if (--depth === 0) rounds = 0;
        }
      };
    };
    return {
      start: () => apply(settings),
      update(next) {
        apply(next);
        return true;
      },
      stop() {
        for (const subscription of running) subscription.unsubscribe();
        running = [];
        logicLevels.length = 0;
        outputs.clear();
      },
    };
  },
});
