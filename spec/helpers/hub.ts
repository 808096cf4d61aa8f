import type { ExecutionContext } from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import type { Parameter } from '../../lib/core/parameter.ts';
import type { Scheduler } from '../../lib/core/scheduler.ts';
import type { Value } from '../../lib/core/value.ts';
import { Hub } from '../../lib/hub.ts';

/** Validates a flow document as a file in `dir` would be, failing the spec on mistakes. */
export function flowOf(document: unknown, dir = '/virtual') {
  const result = validateFlow(document, `${dir}/flow.json5`);
  if (!result.ok) throw result.error;
  return result.flow;
}

/** Starts a hub on `document` and stops it when the spec ends. */
export async function startHub(t: ExecutionContext, document: unknown, scheduler?: Scheduler): Promise<Hub> {
  const hub = new Hub(scheduler ? { flow: flowOf(document), scheduler } : { flow: flowOf(document) });
  t.teardown(() => hub.stop());
  await hub.start();
  return hub;
}

/** The parameter at `address`, failing loudly when it is missing. */
export function param(hub: Hub, address: string): Parameter {
  const found = hub.graph.get(address);
  if (!found) throw new Error(`no parameter ${address}`);
  return found;
}

/** Records every value a parameter emits, with the time it came. */
export function record(t: ExecutionContext, parameter: Parameter, now: () => number = () => 0): [number, Value][] {
  const seen: [number, Value][] = [];
  const subscription = parameter.changes$.subscribe((v) => seen.push([now(), v]));
  t.teardown(() => subscription.unsubscribe());
  return seen;
}
