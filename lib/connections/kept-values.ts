import type { HubError } from '../core/errors.ts';
import type { Logger } from '../core/log.ts';
import type { ParameterTable } from '../core/graph.ts';
import type { ParameterSpec } from '../core/parameter.ts';
import { convert, type Json, type Value } from '../core/value.ts';
import type { ConnectionConfig, KeptState } from './connection.ts';

/** The record of a connection with a table: the fingerprint of the settings its stored values were last checked against. */
const CHECKED_AGAINST = '~checked-against';

/** Where a connection's parameters start from besides their specs. */
export interface KeptSources {
  /** What the hub keeps across restarts, when it has a state folder. */
  readonly state?: KeptState;
  /** While a standby takes over: the active hub's last value of a parameter, which it starts from (R-B2). */
  readonly carried?: (address: string) => Value | undefined;
}

/**
 * A connection's parameters start from the values the hub kept of them (R-S3) or, in a
 * takeover, from the active hub's last values (R-B2): each spec seeded as it is defined, a
 * stored value that no longer fits its parameter said once, and whether the connection keeps
 * anything at all (what makes it show the store's trouble).
 */
export class KeptValues {
  /** True once the connection defined a parameter the hub keeps. */
  keeps = false;
  /** While the connection's start runs: the stored values of its parameters, read at once when the first is defined. */
  private restoring: { values?: ReadonlyMap<string, Json> } | undefined;

  constructor(
    private readonly id: string,
    private readonly sources: KeptSources,
    private readonly log: Logger,
    /** The connection's settings as they are now (they change in place). */
    private readonly config: () => ConnectionConfig,
  ) {}

  /**
   * Runs the connection's start: what it defines before its first await is restored from
   * one read of the store, made at the first `define` (a table's parameters read theirs as
   * they are made).
   */
  starting<T>(start: () => T): T {
    this.restoring = this.sources.state && this.config().common.persist ? {} : undefined;
    try {
      return start();
    } finally {
      this.restoring = undefined;
    }
  }

  /**
   * The spec with the stored value as its initial one, when the parameter persists and a
   * usable value is stored (R-S3); with `persist: false` on the connection it does not persist.
   * `quiet`: a table's row, whose stored value was checked when the table was defined.
   */
  seeded(parameterId: string, spec: ParameterSpec, quiet = false): ParameterSpec {
    const restored = this.restored(parameterId, spec, quiet);
    // A takeover goes on from the active hub's last values; a device's are read from it (R-B4, R-G3).
    const carried = this.sources.carried?.(`${this.id}/${parameterId}`);
    if (carried === undefined || spec.ownedHere || spec.type === 'T') return restored;
    const converted = convert(carried, spec.type);
    return converted.ok ? { ...restored, initial: converted.value, initialBy: 'takeover' } : restored;
  }

  /**
   * A table is about to be defined: whether the hub keeps any of its rows (read as each row
   * is made, so `keeps` cannot wait for that), and if so, every stored value of a kept row
   * that no longer fits it warned of now, as the connection starts: its rows are made when
   * first used, which may be never, and a warning an operator can rely on is in the log
   * before the hub serves anyone. Every value was stored converted to its row's type, so only
   * settings changed since the last pass (their fingerprint is kept as a record) can make one
   * misfit: reading back every stored value of a hundred thousand rows takes half a second.
   */
  table(table: ParameterTable): void {
    const state = this.sources.state;
    const { common, plan } = this.config();
    if (!state || !common.persist || !table.rows.some((row) => row.persist && row.type !== 'T')) return;
    this.keeps = true;
    if (state.record(this.id, CHECKED_AGAINST) === plan.fingerprint) return;
    const stored = this.restoring ? (this.restoring.values ??= state.valuesOf(this.id)) : state.valuesOf(this.id);
    const prefix = this.id.length + 1;
    for (const [address, value] of stored) {
      const row = table.rows[table.ids.indexOf(address.slice(prefix))];
      if (row?.persist !== true || row.type === 'T') continue;
      const converted = convert(value, row.type);
      if (!converted.ok) this.warnMisfit(address, converted.error, row);
    }
    state.setRecord(this.id, CHECKED_AGAINST, plan.fingerprint);
  }

  private restored(parameterId: string, spec: ParameterSpec, quiet: boolean): ParameterSpec {
    const state = this.sources.state;
    // Without a state folder nothing is kept, and the spec goes through as it is (no copy per parameter).
    if (!spec.persist || !state) return spec;
    const address = `${this.id}/${parameterId}`;
    // `persist` on a parameter means this hub keeps it: not with `persist: false` on its connection.
    if (!this.config().common.persist || spec.type === 'T') return { ...spec, persist: false };
    this.keeps = true;
    const stored = this.restoring ? (this.restoring.values ??= state.valuesOf(this.id)).get(address) : state.value(address);
    if (stored === undefined) return spec;
    const converted = convert(stored, spec.type);
    if (converted.ok) return { ...spec, initial: converted.value, initialBy: 'restore' };
    if (!quiet) this.warnMisfit(address, converted.error, spec);
    return spec;
  }

  private warnMisfit(address: string, error: HubError, spec: ParameterSpec): void {
    this.log.warn(
      `${address}: the stored value no longer fits (${error.message}); ${spec.initial === undefined ? 'it starts unknown' : 'the default is used'}`,
    );
  }
}
