import { type Observable, Subject } from 'rxjs';
import { fail, type HubError, ok, type Result } from '../core/errors.ts';
import type { Graph, ParameterRow, Reading } from '../core/graph.ts';
import { TextIndex } from '../core/text-index.ts';
import type { ConnectionInfo } from '../connections/connection.ts';
import type { MirroredConnection } from '../connections/serving.ts';
import { canonicalJson, Status } from '../connections/connection.ts';

/**
 * The connections other hubs run that this hub shows (R-M5), kept beside its own: one
 * place for their listing, and for the rule that an id is this hub's or a mirror, never both.
 * Also the connections a hub of a redundancy group stopped when it stood down, shown as it
 * last had them until the active hub's take their place (`keep`).
 */
export class Mirrors {
  private readonly shown = new Map<string, ConnectionInfo>();
  /** The ids `keep` shows: given up to the active hub's mirror (`open`), or to this hub's own connection when it takes over. */
  private readonly kept = new Set<string>();
  private readonly changed = new Subject<ConnectionInfo>();

  /** Each mirrored connection's report as it changes, for the hub's problems. */
  readonly changes$: Observable<ConnectionInfo> = this.changed.asObservable();

  constructor(
    private readonly graph: Graph,
    /** True when the hub runs a connection of this id itself. */
    private readonly ownsId: (id: string) => boolean,
  ) {}

  infos(): ConnectionInfo[] {
    return [...this.shown.values()];
  }

  open(id: string, owner: string): Result<MirroredConnection> {
    this.release(id);
    if (this.ownsId(id)) return fail('PB_CONNECTION_OWNED', `this hub runs a connection "${id}" itself`);
    if (this.shown.has(id)) return fail('PB_CONNECTION_OWNED', `connection "${id}" is shown here already`);
    const { graph, shown } = this;
    graph.registerConnection(id);
    shown.set(id, { id, owner, type: '', status: Status.Starting, reason: '', description: '', location: '', group: '' });
    let open = true;
    return ok({
      id,
      define: (parameterId, spec) => {
        const defined = graph.define(id, parameterId, spec);
        if (!defined.ok) throw defined.error;
        return defined.value;
      },
      remove: (parameterId) => {
        graph.remove(`${id}/${parameterId}`);
      },
      show: (info) => {
        if (!open) return;
        const next = { id, owner, ...info };
        // Only a change is news: the hub tells its clients of each, and the sharing that shows
        // this connection reviews its mirrors on every change, showing each again as it goes.
        if (canonicalJson(next) === canonicalJson(shown.get(id))) return;
        shown.set(id, next);
        this.changed.next(next);
      },
      forget: (parameter) => graph.forget(parameter),
      close: () => {
        if (!open) return;
        open = false;
        graph.removeParameters(id);
        graph.unregisterConnection(id);
        shown.delete(id);
      },
    });
  }

  /**
   * Shows a connection this hub stopped when it stood down (R-AV1): every parameter at the
   * value, and with the last writer, it had then, and every write refused (`refusal`:
   * PB_NOT_ACTIVE), so that dashboards go on reading while no mirror of the active hub has
   * come (the broker away, or this hub cut off). One table, so a large connection costs a
   * row each and no parameter until one is read.
   */
  keep(info: ConnectionInfo, readings: readonly Reading[], refusal: () => HubError): void {
    if (this.shown.has(info.id) || this.ownsId(info.id)) return;
    const forward = () => ({ ok: false as const, error: refusal() });
    const rows: ParameterRow[] = readings.map(({ id, type, access, value, lastChange }) => ({
      id,
      type,
      access,
      forward,
      ...(value === undefined ? {} : { initial: value }),
      ...(lastChange ? { initialBy: lastChange.by, initialAt: lastChange.at } : {}),
    }));
    // Its parameters only: the connection is no longer this hub's (sharing then shows the active hub's in its place).
    const defined = this.graph.defineTable(info.id, { rows, ids: new TextIndex(rows.map((row) => row.id)) });
    if (!defined.ok) return;
    this.kept.add(info.id);
    const { details: _running, ...described } = info;
    const next: ConnectionInfo = {
      ...described,
      status: Status.Degraded,
      reason: `${refusal().message}; its values as this hub last had them, until the active hub's are shown`,
      code: 'PB_NOT_ACTIVE',
    };
    this.shown.set(info.id, next);
    this.changed.next(next);
  }

  /** Stops showing what `keep` showed of `id` (every id without one): the active hub's mirror, or this hub's own connection, takes its place. */
  release(id?: string): void {
    for (const kept of id === undefined ? [...this.kept] : this.kept.has(id) ? [id] : []) {
      this.kept.delete(kept);
      this.graph.removeParameters(kept);
      this.shown.delete(kept);
    }
  }
}
