/**
 * Engine throughput: source changes per second through a chain of 10 rules
 * (a → b → … → k, each rule with a `scale` step, so every hop converts and computes),
 * beside a baseline of the same 10 hops done by plain RxJS subscriptions between bare
 * BehaviorSubjects in the same run. Then a rule over two sources with an expression
 * (R-RS7), each change of a source made and settled before the next (a microtask between
 * them, as one turn a change), beside RxJS's `combineLatest` and `map` doing the same by
 * hand on the same hub's parameters, as a code flow would.
 *
 *   node --import tsx bench/rule-chain.ts [changes]
 *
 * Each side is the best of five runs taken in turns. Printed, not asserted.
 */
import { BehaviorSubject, combineLatest, map } from 'rxjs';
import { validateFlow } from '../lib/config/flow-file.ts';
import type { Parameter } from '../lib/core/parameter.ts';
import { Hub } from '../lib/hub/hub.ts';

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const hops = 10;
const ids = Array.from({ length: hops + 1 }, (_, i) => `p${i}`);

async function patchbayChain(changes: number): Promise<number> {
  const flow = validateFlow(
    {
      connections: { chain: { type: 'dummy', parameters: ids.map((id) => `${id},F,0`) } },
      rules: ids
        .slice(0, -1)
        .map((id, i) => ({ source: `chain/${id}`, destinations: [`chain/${ids[i + 1]}`], pipe: [{ scale: [0, 1e9, 0, 1e9] }] })),
    },
    `${process.cwd()}/bench.json5`,
  );
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  await hub.start();
  const first = hub.graph.get('chain/p0')!;
  const last = hub.graph.get(`chain/p${hops}`)!;
  const started = process.hrtime.bigint();
  for (let i = 1; i <= changes; i++) {
    first.set(i);
    // Yield now and then, as real traffic does.
    if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (last.value !== changes) throw new Error(`the chain ended at ${last.value}, expected ${changes}`);
  await hub.stop();
  return changes / seconds;
}

async function rxjsChain(changes: number): Promise<number> {
  const subjects = ids.map(() => new BehaviorSubject(0));
  subjects.slice(0, -1).forEach((subject, i) => subject.subscribe((v) => subjects[i + 1]!.next(Math.min(1e9, Math.max(0, v)))));
  const started = process.hrtime.bigint();
  for (let i = 1; i <= changes; i++) {
    subjects[0]!.next(i);
    if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (subjects[hops]!.value !== changes) throw new Error('baseline chain broke');
  return changes / seconds;
}

/**
 * A hub with a dummy of `a`, `b` and `out`: `wire` joins them (a rule, a code flow, or a
 * hand-written subscription); then each change of a source is made and settled before the next.
 */
async function heldRun(
  changes: number,
  rules: unknown[],
  wire: (a: Parameter, b: Parameter, out: Parameter) => void,
  flows: string[] = [],
): Promise<number> {
  const flow = validateFlow(
    { connections: { desk: { type: 'dummy', parameters: ['a,F,0', 'b,F,0', 'out,F,0'] } }, rules, flows },
    join(flowFolder, 'bench.json5'),
  );
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  await hub.start();
  const [a, b, out] = ['a', 'b', 'out'].map((id) => hub.graph.get(`desk/${id}`)!) as [Parameter, Parameter, Parameter];
  wire(a, b, out);
  const started = process.hrtime.bigint();
  for (let i = 1; i <= changes; i++) {
    (i % 2 ? a : b).set(i);
    await null;
    if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const expected = (changes % 2 ? changes : changes - 1) * 10 + (changes % 2 ? changes - 1 : changes);
  if (out.value !== expected) throw new Error(`out ended at ${out.value}, expected ${expected}`);
  await hub.stop();
  return changes / seconds;
}

const patchbayHeld = (changes: number) =>
  heldRun(changes, [{ from: { a: 'desk/a', b: 'desk/b' }, to: 'desk/out', expr: 'a * 10 + b' }], () => {});

/**
 * A code flow doing the same, as the code flows guide writes one: `watch` both sources,
 * `combineLatest` and `map`, `write` the result (through the loop guard, as every flow write);
 * RxJS from `hub.rx`, as a flow in a folder without it installed takes it.
 */
const flowFolder = mkdtempSync(join(tmpdir(), 'patchbay-rule-bench-'));
process.on('exit', () => rmSync(flowFolder, { recursive: true, force: true }));
writeFileSync(
  join(flowFolder, 'tally.mjs'),
  `export default (hub) => {
  const { combineLatest, map, tap } = hub.rx;
  return combineLatest([hub.watch('desk/a'), hub.watch('desk/b')]).pipe(
    map(([a, b]) => a * 10 + b),
    tap((value) => hub.write('desk/out', value)),
  );
};
`,
);
const codeFlow = (changes: number) => heldRun(changes, [], () => {}, ['tally.mjs']);

/** The least that joins them: RxJS over the same parameters, written straight to the destination (no loop guard, no lookup). */
const rxjsCombined = (changes: number) =>
  heldRun(changes, [], (a, b, out) => {
    combineLatest([a.values$, b.values$])
      .pipe(map(([x, y]) => (x as number) * 10 + (y as number)))
      .subscribe((v) => out.set(v, 'code flow'));
  });

/**
 * Changes per second through a rule over two sources, through a code flow doing the same,
 * and through `combineLatest` + `map` straight on the parameters: the best of `rounds` in turns.
 */
export async function measureHeldRule(changes: number, rounds = 5): Promise<{ hub: number; flow: number; baseline: number }> {
  await patchbayHeld(Math.min(changes, 50_000));
  await codeFlow(Math.min(changes, 50_000));
  await rxjsCombined(Math.min(changes, 50_000));
  let hub = 0;
  let flow = 0;
  let baseline = 0;
  for (let round = 0; round < rounds; round++) {
    hub = Math.max(hub, await patchbayHeld(changes));
    flow = Math.max(flow, await codeFlow(changes));
    baseline = Math.max(baseline, await rxjsCombined(changes));
  }
  return { hub, flow, baseline };
}

/**
 * Changes per second through the chain, and through the baseline, after a warm-up of both:
 * the best of `rounds` runs of each, taken in turns, so that a burst of other work on a
 * shared machine lowers one run rather than one side.
 */
export async function measureRuleChain(changes: number, rounds = 5): Promise<{ hops: number; hub: number; baseline: number }> {
  await patchbayChain(Math.min(changes, 50_000));
  await rxjsChain(Math.min(changes, 50_000));
  let hub = 0;
  let baseline = 0;
  for (let round = 0; round < rounds; round++) {
    hub = Math.max(hub, await patchbayChain(changes));
    baseline = Math.max(baseline, await rxjsChain(changes));
  }
  return { hops, hub, baseline };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const changes = Number(process.argv[2] ?? 200_000);
  const { hub, baseline } = await measureRuleChain(changes);
  const row = (name: string, rate: number) => `| ${name.padEnd(44)} | ${Math.round(rate).toLocaleString('en').padStart(12)} |`;
  console.log(`${changes.toLocaleString('en')} source changes through ${hops} hops, Node ${process.version}`);
  console.log(`| ${'what'.padEnd(44)} | ${'changes/s'.padStart(12)} |`);
  console.log(`|${'-'.repeat(46)}|${'-'.repeat(14)}|`);
  console.log(row(`patchbay: ${hops} rules with a scale step`, hub));
  console.log(row(`baseline: ${hops} bare RxJS subscriptions`, baseline));
  console.log(
    `ratio: ${(hub / baseline).toFixed(2)}× the baseline (${(hub * hops).toLocaleString('en', { maximumFractionDigits: 0 })} rule hops/s)`,
  );
  const held = await measureHeldRule(changes);
  console.log(row('patchbay: a rule over two sources (expression)', held.hub));
  console.log(row('a code flow: watch, combineLatest, map, write', held.flow));
  console.log(row('baseline: RxJS combineLatest + map on the parameters', held.baseline));
  console.log(`ratio: ${(held.hub / held.flow).toFixed(2)}× the code flow, ${(held.hub / held.baseline).toFixed(2)}× the bare baseline`);
}
