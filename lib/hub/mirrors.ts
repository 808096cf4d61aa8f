import { type Observable, Subject } from 'rxjs';
import { fail, ok, type Result } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { ConnectionInfo, MirroredConnection } from '../connections/connection.ts';
import { canonicalJson, Status } from '../connections/connection.ts';

/**
 * The connections other hubs run that this hub shows (R-M5), kept beside its own: one
 * place for their listing, and for the rule that an id is this hub's or a mirror, never both.
 */
export class Mirrors {
  private readonly shown = new Map<string, ConnectionInfo>();
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
}
