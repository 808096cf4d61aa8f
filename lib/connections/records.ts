/**
 * A running connection's records (a timer's deadline, a schedule's progress, scenes: the
 * `Records` of its context): in the state folder, or in the hub's memory without one. In a
 * redundancy group they start from what a takeover carries, and each change is told with all
 * of them, for the standbys to keep (R-B4).
 */
import type { Json } from '../core/value.ts';
import type { Records } from '../sdk/context.ts';
import type { KeptState } from './connection.ts';

/** Where records are kept, as the hub gives it to its connections. */
export interface RecordsEnvironment {
  /** What the hub keeps across restarts, when it has a state folder. */
  readonly state?: KeptState;
  /**
   * Without a state folder: the records of a connection, kept in memory by the hub, so that a
   * reload that starts it again keeps them as the folder would. Absent: each start begins empty.
   */
  readonly memory?: (connectionId: string) => Map<string, Json>;
  /**
   * In a redundancy group: the records a takeover carries into a connection (they replace
   * its own), and where each change of its records goes, with all of them (R-B4).
   */
  readonly replicas?: {
    carried(connectionId: string): readonly (readonly [string, Json])[] | undefined;
    changed(connectionId: string, records: readonly (readonly [string, Json])[]): void;
  };
}

export class ConnectionRecords {
  /** The records of a connection whose hub keeps nothing, while it runs. */
  private memory: Map<string, Json> | undefined;
  /** In a redundancy group, every record now: what is told to the standbys. */
  private recorded: Map<string, Json> | undefined;

  constructor(
    private readonly id: string,
    private readonly env: RecordsEnvironment,
  ) {}

  /** Every record of the connection now, as [key, record]; `persist`: the connection keeps them in the state folder. */
  list(persist: boolean): [string, Json][] {
    if (this.recorded) return [...this.recorded];
    if (this.env.state && persist) return this.env.state.recordsOf(this.id);
    return [...(this.memory ?? [])];
  }

  /** Every record of the running connection in a redundancy group, as [key, record]: what a standby keeps of it. */
  entries(): [string, Json][] {
    return [...(this.recorded ?? [])];
  }

  /** The records a start of the connection gets: in the state folder (`keeping`) or in memory. */
  open(keeping: KeptState | undefined): Records {
    const id = this.id;
    this.memory = keeping ? undefined : (this.env.memory?.(id) ?? new Map());
    const base = keeping ? keptRecords(keeping, id) : memoryRecords(this.memory as Map<string, Json>);
    const replicas = this.env.replicas;
    if (!replicas) return base;
    const carried = replicas.carried(id);
    const recorded = new Map<string, Json>(keeping?.recordsOf(id) ?? []);
    if (carried) {
      for (const key of recorded.keys()) base.set(key, undefined);
      recorded.clear();
      for (const [key, record] of carried) {
        base.set(key, record);
        recorded.set(key, record);
      }
    }
    this.recorded = recorded;
    return {
      get: (key) => base.get(key),
      set: (key, record) => {
        base.set(key, record);
        if (record === undefined) recorded.delete(key);
        else recorded.set(key, record);
        replicas.changed(id, [...recorded]);
      },
    };
  }
}

function keptRecords(state: KeptState, connectionId: string): Records {
  return {
    get: (key) => state.record(connectionId, key),
    set: (key, value) => state.setRecord(connectionId, key, value),
  };
}

function memoryRecords(records: Map<string, Json>): Records {
  return {
    get: (key) => records.get(key),
    set: (key, value) => void (value === undefined ? records.delete(key) : records.set(key, value)),
  };
}
