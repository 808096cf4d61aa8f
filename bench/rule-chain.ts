/**
 * Engine throughput: source changes per second through a chain of 10 rules
 * (a → b → … → k, each rule with a `scale` step, so every hop converts and computes),
 * beside a baseline of the same 10 hops done by plain RxJS subscriptions between bare
 * BehaviorSubjects in the same run.
 *
 *   node --import tsx bench/rule-chain.ts [changes]
 *
 * Each side is the best of five runs taken in turns. Printed, not asserted.
 */
import { BehaviorSubject } from 'rxjs';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';

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
}
