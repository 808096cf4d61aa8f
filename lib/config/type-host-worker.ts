/**
 * The thread that loads a package's type modules for the hub (R-PK1, R-PK4): it imports each
 * module, tells the hub what the type is (its name, summary, settings schema, metrics), and
 * runs its `parse()` and the checks of its settings when the hub asks. A module that throws
 * later, loops or exits ends this thread, never the hub (type-host.ts). Its answers to the
 * checks go through `answers` and wake the hub, which waits for them with a deadline.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { declaredStatuses, reasonOf } from '../core/errors.ts';
import type { Issue } from '../core/issue.ts';
import { fillDefaults } from '../sdk/settings.ts';
import type { DeclaredParameter, DefinedConnectionType } from '../sdk/type.ts';
import { encodeSchema } from './schema-wire.ts';
import type { CheckRequest, Checked, HostRequest, TypeDescription } from './type-host-messages.ts';

const { answers, signal } = workerData as { answers: MessagePort; signal: Int32Array };
const definitions = new Map<string, DefinedConnectionType>();

parentPort?.on('message', (request: HostRequest) => {
  if (request.t === 'describe') {
    void describe(request.module, request.type).then((answer) => parentPort?.postMessage({ t: 'described', n: request.n, ...answer }));
    return;
  }
  let answer: Checked;
  try {
    answer = check(request);
  } catch (error) {
    answer = { ok: false, failure: `its ${request.t === 'prepare' ? 'parse()' : 'declared()'} threw: ${reasonOf(error)}` };
  }
  try {
    answers.postMessage({ n: request.n, answer });
  } catch (error) {
    answers.postMessage({ n: request.n, answer: { ok: false, failure: `its answer cannot be carried: ${reasonOf(error)}` } });
  }
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});

async function describe(module: string, type: string): Promise<{ ok: true; description: TypeDescription } | { ok: false; reason: string }> {
  let exported: unknown;
  try {
    exported = ((await import(pathToFileURL(module).href)) as { default?: unknown }).default;
  } catch (error) {
    return { ok: false, reason: `failed to load: ${reasonOf(error)}` };
  }
  const definition = exported as Partial<DefinedConnectionType> | undefined;
  if (
    typeof definition !== 'object' ||
    definition === null ||
    typeof definition.create !== 'function' ||
    typeof definition.parse !== 'function'
  )
    return { ok: false, reason: 'does not export a connection type as its default (export default defineConnectionType({ … }))' };
  if (typeof definition.settings !== 'object' || definition.settings === null || !(Symbol.for('TypeBox.Kind') in definition.settings))
    return {
      ok: false,
      reason:
        'has settings that are not a TypeBox schema: write them with the Type that patchbay-hub/connection exports (Type.Object({ … }))',
    };
  if (definition.type !== type)
    return { ok: false, reason: `exports the type "${String(definition.type)}"; the names in package.json and in the module must be one` };
  const badStatus = Object.entries(definition.errors ?? {}).find(([, declared]) => !declaredStatuses.includes(declared?.status as never));
  if (badStatus)
    return {
      ok: false,
      reason: `declares the error code ${JSON.stringify(badStatus[0])} with the status ${JSON.stringify(badStatus[1]?.status ?? null)}: a refusal answers with one of ${declaredStatuses.join(', ')}`,
    };
  try {
    const description: TypeDescription = {
      type,
      summary: typeof definition.summary === 'string' ? definition.summary : '',
      settings: encodeSchema(definition.settings),
      metrics: (definition.metrics ?? []).map(({ name, help, kind, labelNames }) => ({
        name: String(name),
        help: String(help),
        kind: kind === 'counter' ? 'counter' : 'gauge',
        labelNames: Array.isArray(labelNames) ? labelNames.map(String) : [],
      })),
      declares: typeof definition.declared === 'function',
      // Checked against the description's schema in the hub: what is wrong refuses the package there.
      parameters: (definition.parameters ?? []).map(({ id, type, access, description, unit }) => ({
        id: String(id),
        type,
        access,
        description: String(description ?? ''),
        ...(unit === undefined ? {} : { unit: String(unit) }),
      })),
      errors: Object.fromEntries(
        Object.entries(definition.errors ?? {}).map(([code, { status, text }]) => [code, { status, text: String(text) }]),
      ) as TypeDescription['errors'],
    };
    definitions.set(type, definition as DefinedConnectionType);
    return { ok: true, description };
  } catch (error) {
    return { ok: false, reason: `cannot be described: ${reasonOf(error)}` };
  }
}

/** Issues as plain data: what a type returns may hold anything. */
const plainIssues = (issues: readonly Issue[] | undefined): { path: (string | number)[]; message: string }[] =>
  (issues ?? []).map(({ path, message }) => ({
    path: Array.isArray(path) ? path.map((key) => (typeof key === 'number' ? key : String(key))) : [],
    message: String(message),
  }));

/** The last settings parsed for `declared`, which asks one id at a time. */
let lastDeclared: { key: string; find: (id: string) => DeclaredParameter | undefined } | undefined;

function check(request: CheckRequest): Checked {
  const definition = definitions.get(request.type);
  if (!definition) return { ok: false, failure: `its type "${request.type}" was not loaded` };
  const { settings, connection } = request;
  const parse = () => definition.parse(fillDefaults(definition.settings, settings) as never, connection);
  if (request.t === 'declared') {
    const key = JSON.stringify([settings, connection]);
    if (lastDeclared?.key !== key) {
      const parsed = parse();
      const find = parsed.ok ? (definition.declared?.(parsed.value) ?? (() => undefined)) : () => undefined;
      lastDeclared = { key, find };
    }
    const found = lastDeclared.find(request.id);
    return { ok: true, declared: found ? { type: found.type, persist: found.persist === true } : undefined };
  }
  const parsed = parse();
  if (!parsed.ok) return { ok: false, issues: plainIssues(parsed.issues) };
  const value = parsed.value;
  return {
    ok: true,
    links: (definition.links?.(value) ?? []).map(({ output, inputs, path }) => ({ output, inputs: [...inputs], path: [...path] })),
    claims: (definition.claims?.(value) ?? []).map(({ what, on, path }) => ({ what, on, path: [...path] })),
    writes: (definition.writes?.(value) ?? []).map(({ address, path }) => ({ address, path: [...path] })),
    pathsAsWritten: [...(definition.pathsAsWritten?.(value) ?? [])],
    discovers: { parameters: false, connections: false, ...definition.discovers?.(value) },
    diagnostics: plainIssues(definition.diagnose?.(value, connection)),
    warnings: plainIssues(definition.warn?.(value, connection)),
    ...(definition.settingsOf ? { settings: structuredClone(definition.settingsOf(value, connection) ?? {}) } : {}),
  };
}

// The public face a package's module imports, loaded before the hub is told the thread is
// ready: the deadline of a description then counts the package's own code, not this thread's
// start (a cold start under load took seconds of it).
await import(new URL(`../sdk/index.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href);
parentPort?.postMessage({ t: 'ready' });
