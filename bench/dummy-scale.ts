/**
 * Scale of the parameter graph (R-D4): starts a hub of a dummy connection with N
 * parameters (default 100,000) and a rest-api connection serving them, as a hub is run,
 * and prints its start time and the heap each parameter costs, beside a baseline of the
 * same number of bare RxJS BehaviorSubjects in a Map (the least a graph of observable
 * values can cost). A dummy's parameters are made on first use, so it also prints what
 * making every one of them then costs (a hub whose rules or bridge use them all).
 *
 *   node --expose-gc --import tsx bench/dummy-scale.ts [count]
 *
 * Printed, not asserted: timings on a shared machine are noisy.
 */
import { BehaviorSubject } from 'rxjs';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';

import { pathToFileURL } from 'node:url';

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

async function measure<T>(count: number, build: () => Promise<T> | T): Promise<{ ms: number; bytesPer: number; keep: T }> {
  const before = heapAfterGc();
  const started = process.hrtime.bigint();
  const keep = await build();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const bytesPer = (heapAfterGc() - before) / count;
  return { ms, bytesPer, keep };
}

export interface ScaleResult {
  readonly count: number;
  readonly hub: { ms: number; bytesPer: number };
  /** Making every parameter after the start: its time, and the heap per parameter then. */
  readonly made: { ms: number; bytesPer: number };
  readonly baseline: { ms: number; bytesPer: number };
}

/** Starts a dummy with `count` parameters and measures it beside the baseline. Needs --expose-gc. */
export async function measureScale(count: number): Promise<ScaleResult> {
  if (!gc) throw new Error('run with --expose-gc so heap numbers mean something');
  const lines = Array.from({ length: count }, (_, i) => `bank/${Math.floor(i / 1000)}/p${i},I,${i}`);

  const baseline = await measure(count, () => {
    const map = new Map<string, BehaviorSubject<number>>();
    for (let i = 0; i < count; i++) map.set(`vars/bank/${Math.floor(i / 1000)}/p${i}`, new BehaviorSubject(i));
    return map;
  });
  baseline.keep.clear();

  const hub = await measure(count, async () => {
    const flow = validateFlow(
      { connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, vars: { type: 'dummy', parameters: lines } } },
      `${process.cwd()}/bench.json5`,
    );
    if (!flow.ok) throw flow.error;
    const running = new Hub({ flow: flow.flow });
    await running.start();
    return running;
  });
  const made = await measure(count, () => hub.keep.graph.byPrefix('vars/').length);
  if (made.keep !== count) throw new Error(`expected ${count} parameters, got ${made.keep}`);
  await hub.keep.stop();
  return {
    count,
    hub: { ms: hub.ms, bytesPer: hub.bytesPer },
    made: { ms: made.ms, bytesPer: hub.bytesPer + made.bytesPer },
    baseline: { ms: baseline.ms, bytesPer: baseline.bytesPer },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { count, hub, made, baseline } = await measureScale(Number(process.argv[2] ?? 100_000));
  const row = (name: string, r: { ms: number; bytesPer: number }) =>
    `| ${name.padEnd(56)} | ${r.ms.toFixed(0).padStart(8)} | ${r.bytesPer.toFixed(0).padStart(11)} |`;
  console.log(`${count.toLocaleString('en')} parameters, Node ${process.version}`);
  console.log(`| ${'what'.padEnd(56)} | start ms | bytes/param |`);
  console.log(`|${'-'.repeat(58)}|----------|-------------|`);
  console.log(row('patchbay dummy connection and rest-api (validate + start)', hub));
  console.log(row('then every parameter made (first use of each)', made));
  console.log(row('baseline: Map of BehaviorSubjects', baseline));
  console.log(
    `ratio: ${(hub.ms / baseline.ms).toFixed(1)}× the time, ${(hub.bytesPer / baseline.bytesPer).toFixed(1)}× the heap of the baseline`,
  );
}
