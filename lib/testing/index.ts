/**
 * `patchbay-hub/testing`: checks a connection type of a package the way a studio's hub will run
 * it, against a device (or simulator) its author runs for the check (R-PK2). The package is
 * loaded as a flow's `plugins` loads it, its connection runs in a real hub (in the hub's own
 * process, so that what it leaves behind can be counted), and the lifecycle every type owes
 * is checked:
 *
 * - the package loads and declares the type; the settings given are taken;
 * - each of `refused` is refused, with a mistake at its path;
 * - the connection reaches `reaches` (default `ok`) within `timeoutMs`;
 * - `exercise`, the author's own checks, passes while it runs;
 * - the parameters it keeps are the ones it declares (`declared`, which `patchbay state import`
 *   and the flow's checks read), of the types it declares;
 * - `changed` settings, when given, are taken while it runs (in place when it has `update`,
 *   else by a restart), and it reaches its status again;
 * - a stop leaves no timer, socket, server or watcher of its own behind (those that keep the
 *   process alive: a timer made `unref()` is not seen);
 * - it starts again after a stop (ports and files released), and stops clean again.
 *
 * It resolves with what passed and what failed; `assertConnectionType` throws when anything failed.
 * What a stop leaves behind is counted for the whole process: run one check at a time
 * (`test.serial` in ava, the default in node:test and most runners), with the device in
 * another process or started before the check.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadFlowFile } from '../config/flow-file.ts';
import { reasonOf } from '../core/errors.ts';
import type { Issue } from '../core/issue.ts';
import { pino } from 'pino';
import type { Logger } from '../core/log.ts';
import type { SetResult } from '../core/parameter.ts';
import { after, realTime } from '../core/scheduler.ts';
import type { Value } from '../core/value.ts';
import { Hub } from '../hub/hub.ts';
import type { StatusReport } from '../sdk/context.ts';
import type { DeclaredParameter, ParameterDoc } from '../sdk/type.ts';

/** What to check: a type of a package, the settings that work with the author's device, and those that must not. */
export interface TypeCheck {
  /** The package's folder (its package.json declares the type), absolute or relative to the working folder. */
  readonly package: string;
  /** The type, one the package declares. */
  readonly type: string;
  /** Settings of a connection of the type that work with the device the author runs for the check. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Settings that must be refused, each with the path of the mistake in them (`"port"`, `"displays/0/text"`). */
  readonly refused?: readonly { readonly settings: Readonly<Record<string, unknown>>; readonly path: string }[];
  /** The status the connection must reach with `settings`; default `ok`. */
  readonly reaches?: 'ok' | 'degraded' | 'disabled';
  /** Milliseconds to wait for it, and for a stop to release what the start took; default 10,000. */
  readonly timeoutMs?: number;
  /** The author's own checks while the connection runs: throw (or reject) to fail. */
  readonly exercise?: (connection: RunningConnection) => void | Promise<void>;
  /**
   * Other settings that work with the device: after `exercise` the check reloads the hub with
   * them, as an operator's edit of the flow file would, and the connection must take them and
   * reach its status again.
   */
  readonly changed?: Readonly<Record<string, unknown>>;
}

/** The connection under check, while it runs: its parameters by id (without the connection's id). */
export interface RunningConnection {
  /** A parameter's value; undefined when it has none or does not exist. */
  read(id: string): Value | undefined;
  /** Writes as a client does; resolves with the answer (a device's confirmation or refusal). */
  write(id: string, value: unknown): Promise<SetResult>;
  /** Resolves once `accept` holds for the parameter's value; rejects after `ms` (default `timeoutMs`). */
  waitFor(id: string, accept: (value: Value | undefined) => boolean, ms?: number): Promise<void>;
  /** The ids of its parameters now. */
  parameters(): string[];
  /** Its statuses so far, in order, each with its reason. */
  readonly statuses: readonly StatusReport[];
}

export interface TypeCheckReport {
  readonly passed: readonly string[];
  /** Each check that failed, with why. */
  readonly failed: readonly string[];
  /** The hub's log lines, for a failure's story. */
  readonly log: readonly string[];
}

/** The connection's id in the hub the check runs. */
const SUBJECT = 'subject';
/** Kinds of Node resources a connection can leave behind (`process.getActiveResourcesInfo()`). */
const HELD = /^(Timeout|Immediate|TCPSocketWrap|TCPServerWrap|UDPWrap|PipeWrap|FSEventWrap|StatWatcher|FSReqCallback|TTYWrap|ProcessWrap)$/;

/** Runs every check; resolves with what passed and what failed. */
export async function checkConnectionType(check: TypeCheck): Promise<TypeCheckReport> {
  const passed: string[] = [];
  const failed: string[] = [];
  const log: string[] = [];
  const timeoutMs = check.timeoutMs ?? 10_000;
  const reaches = check.reaches ?? 'ok';
  const folder = await mkdtemp(join(tmpdir(), 'patchbay-check-'));
  const outcome = (name: string, why: string | undefined) => (why === undefined ? passed.push(name) : failed.push(`${name}: ${why}`));
  try {
    const flowOf = async (settings: Readonly<Record<string, unknown>>, name: string) => {
      const file = join(folder, `${name}.json5`);
      const connection = { ...settings, type: check.type, isolate: 'none' };
      await writeFile(file, JSON.stringify({ plugins: [resolve(check.package)], connections: { [SUBJECT]: connection } }));
      return loadFlowFile(file, process.env, { start: true });
    };

    const taken = await flowOf(check.settings, 'settings');
    if (!taken.ok) {
      outcome('the package loads and the settings are taken', taken.error.message);
      return { passed, failed, log };
    }
    const plan = taken.flow.connections.find((connection) => connection.id === SUBJECT)?.plan;
    outcome('the package loads and the settings are taken', plan?.origin ? undefined : `type "${check.type}" is not one of the package's`);

    for (const [index, { settings, path }] of (check.refused ?? []).entries()) {
      const refused = await flowOf(settings, `refused-${index}`);
      const at = ['connections', SUBJECT, ...path.split('/').filter(Boolean)].join('/');
      // Mistakes the file refuses, or that keep the connection alone from starting.
      const issues: readonly Issue[] = refused.ok ? refused.flow.diagnostics : refused.issues;
      const hit = issues.some((issue) => issue.path.map(String).join('/') === at);
      outcome(
        `settings ${JSON.stringify(settings)} are refused at ${path}`,
        hit ? undefined : issues.length === 0 ? 'taken' : `refused elsewhere: ${issues.map((issue) => issue.path.join('/')).join(', ')}`,
      );
    }

    const logger = collecting(log);
    for (const round of ['first start', 'a start after a stop']) {
      const before = heldResources();
      const hub = new Hub({ flow: taken.flow, log: logger, scheduler: realTime });
      const statuses: StatusReport[] = [];
      let running = false;
      try {
        await hub.start();
        const runner = hub.connection(SUBJECT);
        const watching = runner?.status$.subscribe((report) => statuses.push(report));
        running = await until(() => runner?.status.status === reaches, timeoutMs);
        watching?.unsubscribe();
        const seen = statuses.map((report) => report.status).join(' → ');
        outcome(
          `${round}: reaches ${reaches} within ${timeoutMs} ms`,
          running ? undefined : `${seen || 'no status'}${runner?.status.reason ? ` (${runner.status.reason})` : ''}`,
        );
        if (running && round === 'first start') {
          if (check.exercise) {
            try {
              await check.exercise(runningConnection(hub, statuses, timeoutMs));
              outcome('exercise passes while it runs', undefined);
            } catch (error) {
              outcome('exercise passes while it runs', reasonOf(error));
            }
          }
          outcome('the parameters it keeps are those it declares, of their types', undeclared(hub, plan?.declared));
          const pages = taken.flow.plugins.types.find((type) => type.type === check.type)?.parameters;
          // A type whose page lists no parameters says nothing to hold it to.
          if (pages && pages.length > 0)
            outcome('every parameter it makes is on its reference page, of its type and access', unlisted(hub, pages));
          if (check.changed) {
            const changed = await flowOf(check.changed, 'changed');
            const name = `changed settings are taken while it runs and it reaches ${reaches} again`;
            if (!changed.ok) outcome(name, `the changed settings are refused: ${changed.error.message}`);
            else {
              const summary = await hub.reload(changed.flow).catch((error: unknown) => new Error(reasonOf(error)));
              const how = summary instanceof Error ? undefined : summary.updated.includes(SUBJECT) ? 'in place' : 'by a restart';
              const again = await until(() => hub.connection(SUBJECT)?.status.status === reaches, timeoutMs);
              const now = hub.connection(SUBJECT)?.status;
              outcome(
                how ? name.replace('are taken', `are taken (${how})`) : name,
                summary instanceof Error
                  ? `the reload failed: ${summary.message}`
                  : again
                    ? undefined
                    : `it is ${now?.status ?? 'gone'}${now?.reason ? ` (${now.reason})` : ''}`,
              );
            }
          }
        }
      } finally {
        await hub.stop();
      }
      const left = await untilReleased(before, timeoutMs);
      outcome(`${round}: a stop releases what the start took`, left.length === 0 ? undefined : `left behind: ${left.join(', ')}`);
      if (!running) break;
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return { passed, failed, log };
}

/** `checkConnectionType`, throwing an error that lists every failed check (for any test runner). */
export async function assertConnectionType(check: TypeCheck): Promise<TypeCheckReport> {
  const report = await checkConnectionType(check);
  if (report.failed.length > 0)
    throw new Error(
      `${report.failed.length} of ${report.passed.length + report.failed.length} checks of "${check.type}" failed:\n- ${report.failed.join('\n- ')}\nlog:\n${report.log.join('\n')}`,
    );
  return report;
}

function runningConnection(hub: Hub, statuses: readonly StatusReport[], timeoutMs: number): RunningConnection {
  const address = (id: string) => `${SUBJECT}/${id}`;
  return {
    statuses,
    read: (id) => hub.graph.get(address(id))?.value,
    write: (id, value) =>
      new Promise((answer) => {
        const parameter = hub.graph.get(address(id));
        if (!parameter) return answer({ ok: false, error: new Error(`no parameter ${id}`) as never });
        const taken = parameter.set(value, 'check', answer);
        // A write answered later (a device's) answers through `answer`; the others answer now.
        if (!taken.ok || !parameter.answersLater) answer(taken);
      }),
    waitFor: async (id, accept, ms = timeoutMs) => {
      if (!(await until(() => accept(hub.graph.get(address(id))?.value), ms)))
        throw new Error(
          `${id} did not reach the value waited for within ${ms} ms (it is ${JSON.stringify(hub.graph.get(address(id))?.value)})`,
        );
    },
    parameters: () =>
      hub.graph
        .all()
        .filter((parameter) => parameter.address.startsWith(`${SUBJECT}/`))
        .map((parameter) => parameter.address.slice(SUBJECT.length + 1)),
  };
}

/**
 * What is wrong between the parameters the connection runs with and what its type declares
 * of them: a kept one it does not declare kept, or one of another type than declared.
 * Undefined when they agree. The hub's own parameters (`_status/…`) are not the type's.
 */
function undeclared(hub: Hub, declared: ((id: string) => DeclaredParameter | undefined) | undefined): string | undefined {
  const mistakes = hub.graph.byPrefix(`${SUBJECT}/`).flatMap((parameter) => {
    const id = parameter.address.slice(SUBJECT.length + 1);
    if (id.startsWith('_')) return [];
    const said = declared?.(id);
    if (parameter.persist && !said?.persist)
      return [`${id} is kept (persist: true) but ${declared ? 'not declared kept' : 'the type has no declared'}`];
    if (said && said.type !== parameter.type) return [`${id} is ${parameter.type}, declared ${said.type}`];
    if (said && said.persist !== parameter.persist) return [`${id} is not kept, declared kept`];
    return [];
  });
  return mistakes.length === 0 ? undefined : mistakes.join('; ');
}

/** Mistakes past which a check says how many more there are. */
const MOST_SAID = 5;

/**
 * What the connection makes that its reference page (the type's `parameters`, R-PK6) does not
 * say: a parameter no listed id matches (`<n>` and the like stand for any part of an id), or
 * one of another type or access than listed. Undefined when they agree.
 */
function unlisted(hub: Hub, pages: readonly ParameterDoc[]): string | undefined {
  const listed = pages.map((page) => ({
    page,
    pattern: new RegExp(
      `^${page.id
        .split(/<[^>]+>/)
        .map(escaped)
        .join('.+')}$`,
    ),
  }));
  const mistakes = hub.graph.byPrefix(`${SUBJECT}/`).flatMap((parameter) => {
    const id = parameter.address.slice(SUBJECT.length + 1);
    if (id.startsWith('_')) return [];
    const page = listed.find(({ pattern }) => pattern.test(id))?.page;
    if (!page) return [`${id} is not on its reference page`];
    if (page.type !== parameter.type || page.access !== parameter.access)
      return [`${id} is ${parameter.type} ${parameter.access}, its page (${page.id}) says ${page.type} ${page.access}`];
    return [];
  });
  if (mistakes.length === 0) return undefined;
  const more = mistakes.length - MOST_SAID;
  return `${mistakes.slice(0, MOST_SAID).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Polls `holds` until it is true or `ms` passed, on the time the checked hub runs on (its default, the real one). */
async function until(holds: () => boolean, ms: number): Promise<boolean> {
  const deadline = realTime.now() + ms;
  for (;;) {
    if (holds()) return true;
    if (realTime.now() > deadline) return false;
    await new Promise<void>((resolve) => after(realTime, 20, resolve));
  }
}

/** The resources of the kinds a connection holds, counted by kind. */
function heldResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) if (HELD.test(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** Waits until no kind is held more than `before`; what is still held beyond it after `ms`. */
async function untilReleased(before: ReadonlyMap<string, number>, ms: number): Promise<string[]> {
  let left: string[] = [];
  await until(() => {
    left = [...heldResources()].flatMap(([kind, count]) => {
      const extra = count - (before.get(kind) ?? 0);
      return extra > 0 ? [`${extra} × ${kind}`] : [];
    });
    return left.length === 0;
  }, ms);
  return left;
}

/** A logger that keeps its lines. */
function collecting(lines: string[]): Logger {
  return pino({ level: 'info' }, { write: (line: string) => void lines.push(line.trimEnd()) });
}
