/**
 * Who follows the presence of which address (`Graph.follow`): whatever names an address
 * before it exists — a rule, a code flow's watch — is told the parameter there now, and
 * again as one is defined there (alone or in a table), removed or replaced (R-G2).
 */
import type { Parameter } from './parameter.ts';
import type { Table } from './tables.ts';

/** Told what parameter is at a followed address: see `Graph.follow`. */
export type Presence = (parameter: Parameter | undefined) => void;

export class Followers {
  private readonly byAddress = new Map<string, Set<Presence>>();

  /** How many addresses are followed: while none is, the graph tells no one. */
  get size(): number {
    return this.byAddress.size;
  }

  /** Follows `address`, told at once what `find` finds there. Returns what stops it. */
  add(address: string, present: Presence, find: () => Parameter | undefined): () => void {
    let set = this.byAddress.get(address);
    if (!set) this.byAddress.set(address, (set = new Set()));
    const own = set;
    // A listener per call (the same function may follow twice and stop once), told only of a change.
    let last: Parameter | undefined;
    const listener: Presence = (parameter) => {
      if (parameter === last) return;
      last = parameter;
      present(parameter);
    };
    own.add(listener);
    present((last = find()));
    return () => {
      own.delete(listener);
      if (own.size === 0 && this.byAddress.get(address) === own) this.byAddress.delete(address);
    };
  }

  /** What is at `address` now, for its followers. */
  tell(address: string, parameter: Parameter | undefined): void {
    const set = this.byAddress.get(address);
    if (set) for (const present of [...set]) present(parameter);
  }

  /** A table came or went: its followers learn what is at their address now. */
  tellTable(table: Table, find: (address: string) => Parameter | undefined): void {
    if (this.byAddress.size === 0) return;
    const prefix = `${table.connectionId}/`;
    for (const address of [...this.byAddress.keys()]) {
      if (address.startsWith(prefix) && table.source.ids.indexOf(address.slice(prefix.length)) >= 0) this.tell(address, find(address));
    }
  }
}
