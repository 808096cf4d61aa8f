/**
 * A connection type of a package as the hub uses it (R-PK1, R-PK4), made from the description
 * its module gave in a thread of its own (type-host.ts): the flow file's checks run the
 * type's `parse()` there, and its connections run in processes of their own. Only a
 * connection with `isolate: "none"` imports the module into the hub's process, when it
 * starts: the operator chose to trust that package with the hub.
 */
import { pathToFileURL } from 'node:url';
import type { TObject } from '@sinclair/typebox';
import { Value as SchemaValue } from '@sinclair/typebox/value';
import { HubError } from '../core/errors.ts';
import type { ConnectionMetric, MetricSample } from '../core/counts.ts';
import {
  type ConnectionInstance,
  type ConnectionPlan,
  type ConnectionType,
  connectionTypeOf,
  fingerprintOf,
  type TypeOrigin,
} from '../connections/connection.ts';
import type { DefinedConnectionType, ParseContext } from '../sdk/type.ts';
import type { TypeDescription } from './type-host-messages.ts';
import type { TypeHost } from './type-host.ts';

/** Where a package type's instance puts its metrics' samples in its details: the hub cannot run its `samples`. */
export const SAMPLES_KEY = 'metricSamples';

/** A type's details with its metrics' samples, made where the instance runs. */
export function withSamples(
  definition: Pick<DefinedConnectionType, 'metrics'>,
  details: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> | undefined {
  if (!details || !definition.metrics?.length) return details;
  const samples: Record<string, readonly MetricSample[]> = {};
  for (const metric of definition.metrics) {
    try {
      samples[metric.name] = metric.samples(details);
    } catch {
      samples[metric.name] = [];
    }
  }
  return { ...details, [SAMPLES_KEY]: samples };
}

const isSample = (sample: unknown): sample is MetricSample =>
  typeof sample === 'object' && sample !== null && typeof (sample as MetricSample).value === 'number';

/** The type's type as the hub uses it; `failure` makes a plan of a connection that fails at start. */
export function packageTypeOf(
  description: TypeDescription,
  settings: TObject,
  host: TypeHost,
  origin: TypeOrigin & { readonly module: string },
  label: string,
): ConnectionType {
  const { type, summary } = description;
  const metrics: ConnectionMetric[] = description.metrics.map(({ name, help, kind, labelNames }) => ({
    name,
    help,
    kind,
    labelNames,
    samples: (details) => {
      const found = (details[SAMPLES_KEY] as Record<string, unknown> | undefined)?.[name];
      return Array.isArray(found) ? found.filter(isSample) : [];
    },
  }));
  return {
    type,
    summary,
    settings,
    metrics,
    errors: description.errors,
    parameters: description.parameters,
    origin,
    servesHub: false,
    prepare(written, connection) {
      if (!SchemaValue.Check(settings, written)) {
        return { ok: false, issues: [{ path: [], message: `settings do not match the ${type} schema` }] };
      }
      const checked = host.check({ t: 'prepare', type, settings: written, connection: { id: connection.id, baseDir: connection.baseDir } });
      if (!checked.ok && 'issues' in checked) return { ok: false, issues: checked.issues };
      if (!checked.ok || !('links' in checked)) {
        const reason = checked.ok ? 'it answered a check with something else' : checked.failure;
        return {
          ok: true,
          value: failedPlan(type, written, origin, new HubError('PB_PLUGIN_LOAD', `${label}: type "${type}": ${reason}`)),
        };
      }
      let fingerprint: string | undefined;
      const plan: ConnectionPlan = {
        type,
        origin,
        written,
        get fingerprint() {
          return (fingerprint ??= fingerprintOf(written));
        },
        links: checked.links,
        claims: checked.claims,
        writes: checked.writes ?? [],
        pathsAsWritten: checked.pathsAsWritten,
        discovers: checked.discovers,
        diagnostics: checked.diagnostics,
        warnings: checked.warnings,
        // A package's are as its check found them: its worker is asked once.
        ...(checked.settings ? { settingsOf: () => checked.settings } : {}),
        servesHub: false,
        runsOnStandby: false,
        redundancyGroup: undefined,
        declared: description.declares
          ? (id) => {
              const answer = host.check({
                t: 'declared',
                type,
                settings: written,
                connection: { id: connection.id, baseDir: connection.baseDir },
                id,
              });
              return answer.ok && 'declared' in answer ? answer.declared : undefined;
            }
          : undefined,
        create: (context) => inHubProcess(origin, type, written, { id: context.id, baseDir: context.baseDir }, context),
      };
      return { ok: true, value: plan };
    },
  };
}

/** A plan that fails at start with `error`: nothing of the package runs. */
function failedPlan(type: string, written: Readonly<Record<string, unknown>>, origin: TypeOrigin, error: HubError): ConnectionPlan {
  return {
    type,
    origin,
    written,
    refused: error,
    fingerprint: fingerprintOf(written),
    links: [],
    claims: [],
    pathsAsWritten: [],
    discovers: { parameters: false, connections: false },
    diagnostics: [],
    warnings: [],
    declared: undefined,
    servesHub: false,
    runsOnStandby: false,
    redundancyGroup: undefined,
    create: () => ({
      start() {
        throw error;
      },
      stop() {},
    }),
  };
}

/**
 * A connection run in the hub's process (`isolate: "none"`): its module imported here when it
 * starts, its settings parsed again by it, and the rest as a built-in type runs.
 */
function inHubProcess(
  origin: TypeOrigin & { readonly module: string },
  type: string,
  written: Readonly<Record<string, unknown>>,
  connection: ParseContext,
  context: Parameters<ConnectionPlan['create']>[0],
): ConnectionInstance {
  let running:
    | { readonly type: ConnectionType; readonly instance: ConnectionInstance; readonly definition: DefinedConnectionType }
    | undefined;
  const planOf = (made: ConnectionType, settings: Readonly<Record<string, unknown>>): ConnectionPlan => {
    const plan = made.prepare(settings, connection);
    if (!plan.ok) throw new HubError('PB_START_FAILED', `its settings were refused: ${plan.issues[0]?.message ?? 'no reason given'}`);
    return plan.value;
  };
  return {
    async start() {
      const exported = ((await import(pathToFileURL(origin.module).href)) as { default?: DefinedConnectionType }).default;
      if (!exported || exported.type !== type)
        throw new HubError('PB_PLUGIN_LOAD', `the module ${origin.module} does not export the type "${type}"`);
      const made = connectionTypeOf(exported, origin);
      const instance = planOf(made, written).create(context);
      running = { type: made, instance, definition: exported };
      await instance.start();
    },
    stop: (reason) => running?.instance.stop(reason),
    details: () => (running ? withSamples(running.definition, running.instance.details?.()) : undefined) ?? {},
    update(next) {
      if (!running?.instance.update || next.type !== type || next.origin?.module !== origin.module) return false;
      return running.instance.update(planOf(running.type, next.written));
    },
  };
}
