import { PassThrough } from 'node:stream';
import type { ExecutionContext } from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { type ConnectionConfig, type ConnectionType, connectionTypeOf } from '../../lib/connections/connection.ts';
import type { ServingTypeDefinition } from '../../lib/connections/serving.ts';
import type { DefinedConnectionType } from '../../lib/sdk/index.ts';
import type { TObject } from '@sinclair/typebox';
import { createLogger, type Logger, type LogLevel } from '../../lib/core/log.ts';
import type { Parameter } from '../../lib/core/parameter.ts';
import type { Scheduler } from '../../lib/core/scheduler.ts';
import type { Value } from '../../lib/core/value.ts';
import { Hub, type HubOptions } from '../../lib/hub/hub.ts';
import type { StateStore } from '../../lib/state/store.ts';

/** Validates a flow document as a file in `dir` would be, failing the spec on mistakes. */
export function flowOf(document: unknown, dir = '/virtual') {
  const result = validateFlow(document, `${dir}/flow.json5`);
  if (!result.ok) throw result.error;
  return result.flow;
}

export interface SpecHubOptions {
  readonly scheduler?: Scheduler;
  readonly log?: Logger;
  readonly loopLimit?: number;
  readonly state?: StateStore;
  /** The folder the flow file stands in: relative paths resolve against it. */
  readonly dir?: string;
}

/**
 * A connection of a type the spec defines (one a flow file cannot name), ready to put into a
 * flow: its settings `{}`, enabled, nothing else unless `common` says so.
 */
export function configOf<S extends TObject, P>(
  id: string,
  typeOrDefinition: ConnectionType | DefinedConnectionType<S, P> | ServingTypeDefinition<S, P>,
  common: Partial<ConnectionConfig['common']> = {},
): ConnectionConfig {
  const type = 'prepare' in typeOrDefinition ? typeOrDefinition : connectionTypeOf(typeOrDefinition);
  const plan = type.prepare({}, { id, baseDir: '/virtual' });
  if (!plan.ok) throw new Error(`the ${type.type} type takes no settings`);
  const defaults = { enabled: true, description: '', location: '', group: '', debug: false, statusParameters: false, persist: false };
  return { id, plan: plan.value, common: { ...defaults, ...common } };
}

/** Starts a hub on `document` and stops it when the spec ends. */
export async function startHub(t: ExecutionContext, document: unknown, { dir, ...options }: SpecHubOptions = {}): Promise<Hub> {
  const hub = new Hub({ flow: flowOf(document, dir), ...(options as Omit<HubOptions, 'flow'>) });
  t.teardown(() => hub.stop());
  await hub.start();
  return hub;
}

export interface LogLine {
  readonly msg: string;
  readonly connection?: string;
  readonly level: number;
}

/** A JSON logger whose lines a spec can read. */
export function capturedLog(level: LogLevel = 'info'): { log: Logger; lines: () => LogLine[] } {
  const lines: LogLine[] = [];
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as LogLine),
    ),
  );
  return { log: createLogger({ destination, format: 'json', level }), lines: () => lines };
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
