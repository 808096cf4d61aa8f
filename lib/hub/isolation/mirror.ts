/**
 * The parameters in the hub of a connection in a process of its own (R-PK4): defined as the
 * process defines them, kept across its processes so their last values stay readable, and
 * removed once a new process has started without them. A process may define at most
 * MOST_PARAMETERS (a table's rows count each): one that defines without end would fill the
 * hub, so past it the definition is refused and the process fails.
 */
import { HubError } from '../../core/errors.ts';
import type { OwnedParameter, ParameterMeta, ParameterSpec } from '../../core/parameter.ts';
import { TextIndex } from '../../core/text-index.ts';
import type { Value } from '../../core/value.ts';
import type { IsolationHooks } from '../../connections/runner.ts';
import type { DefinedSpec } from './messages.ts';

/** The most parameters one process may define. */
export const MOST_PARAMETERS = 200_000;

export class Mirror {
  /** Its parameters in the hub, by id. */
  private readonly parameters = new Map<string, OwnedParameter>();
  private tableDefined = false;
  /** Parameters the current process defined; the others go once it has started. */
  private definedNow = new Set<string>();

  constructor(
    private readonly connectionId: string,
    private readonly context: IsolationHooks['context'],
    /** The hub's spec of one of the process's parameters. */
    private readonly specOf: (parameterId: string, spec: DefinedSpec) => ParameterSpec,
  ) {}

  /** A new process starts: what it does not define again goes once it has started. */
  newProcess(): void {
    this.definedNow = new Set();
  }

  define(parameterId: string, spec: DefinedSpec): void {
    if (!this.parameters.has(parameterId)) this.mayDefine(1);
    this.definedNow.add(parameterId);
    const existing = this.parameters.get(parameterId);
    if (existing && existing.type === spec.type && existing.access === spec.access && existing.persist === spec.persist) {
      existing.describe(spec.meta);
      if (spec.value !== undefined && spec.value !== existing.value) existing.report(spec.value);
      return;
    }
    if (existing) this.context.remove(parameterId);
    this.parameters.set(parameterId, this.context.define(parameterId, this.specOf(parameterId, spec)));
  }

  defineTable(rows: readonly (DefinedSpec & { readonly id: string })[]): void {
    if (!this.tableDefined) this.mayDefine(rows.length);
    for (const row of rows) this.definedNow.add(row.id);
    if (this.tableDefined) return;
    this.tableDefined = true;
    const specs = rows.map((row) => ({ id: row.id, ...this.specOf(row.id, row) }));
    this.context.defineTable({ rows: specs, ids: new TextIndex(specs.map((row) => row.id)) });
    for (const row of rows) {
      const parameter = this.context.graph.get(`${this.connectionId}/${row.id}`);
      if (parameter) this.parameters.set(row.id, parameter as OwnedParameter);
    }
  }

  remove(parameterId: string): void {
    this.parameters.delete(parameterId);
    this.context.remove(parameterId);
  }

  describe(parameterId: string, meta: ParameterMeta | undefined): void {
    this.parameters.get(parameterId)?.describe(meta);
  }

  report(parameterId: string, value: Value, by: string | undefined): void {
    this.parameters.get(parameterId)?.report(value, by);
  }

  /** The values a new process starts from: those of its kept parameters, as a restart of the hub would give them. */
  kept(): (readonly [string, Value])[] {
    return [...this.parameters].flatMap(([parameterId, parameter]) =>
      parameter.value === undefined || !parameter.persist ? [] : [[parameterId, parameter.value] as const],
    );
  }

  /** The process has started: the parameters it no longer defines go. */
  removeUndefined(): void {
    for (const parameterId of [...this.parameters.keys()]) {
      if (this.definedNow.has(parameterId)) continue;
      this.parameters.delete(parameterId);
      this.context.remove(parameterId);
    }
    this.definedNow = new Set();
  }

  private mayDefine(more: number): void {
    if (this.parameters.size + more > MOST_PARAMETERS)
      throw new HubError('PB_START_FAILED', `it defines more than ${MOST_PARAMETERS} parameters, the most one process may`);
  }
}
