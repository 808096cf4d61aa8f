import type { OwnedParameter, Parameter } from './parameter.ts';
import { type Reading, Table, UnmadeRow } from './tables.ts';

/**
 * Where every parameter of the graph is, by address: the parameters defined one by one and
 * the connections' tables, in definition order, and the parameters of tables looked up so
 * far. It only keeps and finds; the graph checks what is defined and says what changed.
 */
export class AddressIndex {
  /** The parameters defined one by one, and the tables (keyed by themselves), in definition order. */
  private readonly entries = new Map<string | Table, OwnedParameter | Table>();
  /** Tables by connection id. */
  private readonly tables = new Map<string, Table>();
  /**
   * Parameters of tables looked up by address so far: found again as fast as the others.
   * Not those made by going through a table: a snapshot makes a million, and growing a Map
   * of a million in one go would hold the hub up for tens of milliseconds.
   */
  private readonly lookedUp = new Map<string, OwnedParameter>();
  /** Parameters there, made or not. */
  size = 0;

  add(parameter: OwnedParameter): void {
    this.entries.set(parameter.address, parameter);
    this.size++;
  }

  addTable(table: Table): void {
    this.entries.set(table, table);
    this.tables.set(table.connectionId, table);
    this.size += table.live;
  }

  tableOf(connectionId: string): Table | undefined {
    return this.tables.get(connectionId);
  }

  /** One lookup for every way in: defined one by one, made from a table, or in a table still. */
  find(address: string): OwnedParameter | undefined {
    const found = (this.entries.get(address) as OwnedParameter | undefined) ?? this.lookedUp.get(address);
    if (found !== undefined || this.tables.size === 0) return found;
    const row = this.rowOf(address);
    if (!row) return undefined;
    const parameter = row.table.at(row.position);
    this.lookedUp.set(address, parameter);
    return parameter;
  }

  /** Whether a parameter is at `address`, without making one of a table. */
  has(address: string): boolean {
    return this.entries.has(address) || this.lookedUp.has(address) || (this.tables.size > 0 && this.rowOf(address) !== undefined);
  }

  /** Takes the parameter at `address` out, and gives it (made now when it was a row); undefined when none is there. */
  remove(address: string): OwnedParameter | undefined {
    let parameter = this.entries.get(address) as OwnedParameter | undefined;
    if (parameter) this.entries.delete(address);
    else {
      const row = this.rowOf(address);
      if (!row) return undefined;
      parameter = row.table.at(row.position);
      row.table.made[row.position] = null;
      row.table.live--;
      this.lookedUp.delete(address);
    }
    this.size--;
    return parameter;
  }

  /** Takes a whole table out at once (its rows never made are never made), and gives the parameters it had made. */
  dropTable(table: Table): OwnedParameter[] {
    table.dropped = true;
    this.entries.delete(table);
    this.tables.delete(table.connectionId);
    this.size -= table.live;
    const made: OwnedParameter[] = [];
    for (const parameter of table.made) {
      if (!parameter) continue;
      made.push(parameter);
      this.lookedUp.delete(parameter.address);
    }
    return made;
  }

  /** Every parameter whose address starts with `prefix`, in definition order. */
  byPrefix(prefix: string): Parameter[] {
    const found: Parameter[] = [];
    for (const entry of this.entries.values()) {
      if (!(entry instanceof Table)) {
        if (entry.address.startsWith(prefix)) found.push(entry);
      } else if (entry.overlaps(prefix)) {
        for (const parameter of entry.parameters()) if (parameter.address.startsWith(prefix)) found.push(parameter);
      }
    }
    return found;
  }

  /** How many parameters each connection has, counted without making any. */
  countsByConnection(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.entries.values()) {
      const id = entry.connectionId;
      counts.set(id, (counts.get(id) ?? 0) + (entry instanceof Table ? entry.live : 1));
    }
    return counts;
  }

  /** Every parameter, in definition order, as a live iterator (see `Graph.values`). */
  *values(): IterableIterator<Parameter> {
    for (const entry of this.entries.values()) {
      if (entry instanceof Table) yield* entry.parameters();
      else yield entry;
    }
  }

  /** Every parameter or unmade row, in definition order, nothing made (see `Graph.readings`). */
  *readings(): IterableIterator<Reading> {
    for (const entry of this.entries.values()) {
      if (entry instanceof Table) yield* entry.readings();
      else yield entry;
    }
  }

  /** A reading as it is now, nothing made (see `Graph.current`). */
  current(reading: Reading): Reading | undefined {
    if (reading instanceof UnmadeRow) {
      const { table, position } = reading;
      const made = table.dropped ? null : table.made[position];
      return made === null ? undefined : (made ?? reading);
    }
    const address = reading.address;
    if (this.entries.get(address) === reading || this.lookedUp.get(address) === reading) return reading;
    const row = this.tables.size > 0 ? this.rowOf(address) : undefined;
    return row && row.table.made[row.position] === reading ? reading : undefined;
  }

  /** Where `address` is in a table, when it is there and not removed. */
  private rowOf(address: string): { table: Table; position: number } | undefined {
    const slash = address.indexOf('/');
    const table = slash < 0 ? undefined : this.tables.get(address.slice(0, slash));
    const position = table ? table.find(address.slice(slash + 1)) : -1;
    return table && position >= 0 ? { table, position } : undefined;
  }
}
