/**
 * Tables of parameters (R-G2's dummy lines, a router's crosspoints): one connection's
 * parameters defined together by `Graph.defineTable`, made on first use, and read by walks
 * without being made. The graph keeps them (graph.ts); this is what a table is.
 */
import type { Access, LastChange, OwnedParameter, Parameter, ParameterMeta, ParameterSpec } from './parameter.ts';
import { wallClockOfTurn } from './scheduler.ts';
import type { TextIndex } from './text-index.ts';
import type { Value, ValueType } from './value.ts';

/** One row of a table: a parameter's id and spec. */
export interface ParameterRow extends ParameterSpec {
  readonly id: string;
}

/**
 * The parameters of one connection as it parsed them (a dummy's lines), defined together
 * by `Graph.defineTable`: the rows, and an index of their ids (`ids[i]` is `rows[i].id`).
 * Ids must have been checked (`checkParameterId`) and be distinct.
 */
export interface ParameterTable {
  readonly rows: readonly ParameterRow[];
  readonly ids: TextIndex;
}

/** A table defined or removed: one event for all its parameters. */
export interface TableChange {
  readonly connectionId: string;
  readonly added: boolean;
  /** Whether the table has, or had, a parameter of this id. */
  has(id: string): boolean;
  /** Its parameters, each made as it is met; of a removed table, those that had been made. */
  parameters(): Iterable<Parameter>;
  /** Its rows as a walk meets them, none made; of a removed table, those that had been made. */
  readings(): Iterable<Reading>;
}

/**
 * A parameter as a walk through the graph meets it (`Graph.readings`): the parameter
 * itself, or a table's row never made, read as the parameter it would be.
 */
export type Reading = Pick<Parameter, 'address' | 'connectionId' | 'id' | 'type' | 'access' | 'meta' | 'value' | 'lastChange'>;

/**
 * How a table's row reads for a walk, when it was never made: its spec's initial value (it
 * has never changed). Short-lived: a walk through a million rows leaves nothing behind.
 */
export class UnmadeRow implements Reading {
  readonly address: string;
  readonly type: ValueType;
  readonly access: Access;
  readonly meta: ParameterMeta | undefined;
  readonly value: Value | undefined;
  readonly lastChange: LastChange | undefined;

  constructor(
    readonly table: Table,
    readonly position: number,
    readonly id: string,
    spec: ParameterSpec,
  ) {
    this.address = `${table.connectionId}/${id}`;
    this.type = spec.type;
    this.access = spec.access;
    this.meta = spec.meta;
    this.value = spec.type === 'T' ? undefined : spec.initial;
    this.lastChange = spec.initialBy === undefined ? undefined : { by: spec.initialBy, at: table.definedAt };
  }

  get connectionId(): string {
    return this.table.connectionId;
  }
}

/**
 * A table in the graph. Its parameters are made on first use, so a million of them cost
 * their rows and one slot each until someone uses one: no Map entry, no address string, no
 * parameter object (a Map of a million addresses alone takes most of a second to fill here).
 */
export class Table {
  /** Each row's parameter once made; null once removed. */
  readonly made: (OwnedParameter | null | undefined)[];
  /** Rows not removed. */
  live: number;
  /** Set when the whole table is removed: its iterators end. */
  dropped = false;
  /** When it was defined: when a value restored with it was set. */
  readonly definedAt = wallClockOfTurn();

  constructor(
    readonly connectionId: string,
    readonly source: ParameterTable,
    private readonly specOf: (row: ParameterRow) => ParameterSpec,
    private readonly make: (id: string, spec: ParameterSpec, address: string) => OwnedParameter,
  ) {
    // Filled, not `new Array(n)`: a large holey array is a dictionary in V8.
    this.made = new Array<undefined>(source.rows.length).fill(undefined);
    this.live = source.rows.length;
  }

  /** The position of the row of `id`, or -1 when there is none or it was removed. */
  find(id: string): number {
    const at = this.source.ids.indexOf(id);
    return at < 0 || this.made[at] === null ? -1 : at;
  }

  /** The parameter of a row not removed, made now if need be. */
  at(position: number): OwnedParameter {
    const made = this.made[position];
    if (made) return made;
    const row = this.source.rows[position] as ParameterRow;
    const spec = this.specOf(row);
    const restored = spec.initialBy === undefined ? spec : { ...spec, initialAt: this.definedAt };
    return (this.made[position] = this.make(row.id, restored, `${this.connectionId}/${row.id}`));
  }

  /** A row as a walk meets it: its parameter when made, else read from its spec; undefined once removed. */
  reading(position: number): Reading | undefined {
    const made = this.made[position];
    if (made !== undefined) return made ?? undefined;
    const row = this.source.rows[position] as ParameterRow;
    return new UnmadeRow(this, position, row.id, this.specOf(row));
  }

  /** Whether the table's addresses and those beginning with `prefix` can meet. */
  overlaps(prefix: string): boolean {
    const own = `${this.connectionId}/`;
    return own.startsWith(prefix) || prefix.startsWith(own);
  }

  /** Its parameters in row order, made as they are met: live (a row removed meanwhile is not met). */
  *parameters(): IterableIterator<OwnedParameter> {
    for (let position = 0; position < this.made.length && !this.dropped; position++) {
      if (this.made[position] !== null) yield this.at(position);
    }
  }

  /** Its rows in order as a walk meets them, nothing made: live, as `parameters`. */
  *readings(): IterableIterator<Reading> {
    for (let position = 0; position < this.made.length && !this.dropped; position++) {
      const reading = this.reading(position);
      if (reading) yield reading;
    }
  }

  change(added: boolean, made: readonly Parameter[] = []): TableChange {
    return {
      connectionId: this.connectionId,
      added,
      has: (id) => this.source.ids.indexOf(id) >= 0,
      parameters: () => (added ? this.parameters() : made),
      readings: () => (added ? this.readings() : made),
    };
  }
}
