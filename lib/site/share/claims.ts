/**
 * Who owns a connection id that more than one hub of the site runs (R-M5, R-M6): what the
 * broker ordered. This hub claims each connection it shares by describing it; a claim is
 * confirmed once its description came back before any other hub's claim of the id, and lost
 * when another's came first — every hub hears the claims in the same order. A lost claim
 * fails this hub's connection with PB_CONNECTION_OWNED, and it never claims it again this
 * run. Only a connection this hub shares can lose: never its rest-api, its mqtt connection or
 * a connection with nothing shared.
 */
import type { Access, ValueType } from '../../sdk/index.ts';
import { HubError } from '../../sdk/index.ts';
import type { SiteContext } from '../hub-port.ts';
import type { ConnectionInfo } from '../../core/api-shapes.ts';
import type { GroupDirectory } from '../group/directory.ts';
import type { RedundancyGroup } from '../group/group.ts';
import { type OtherHub, parseJson, type SharedConnection } from '../peers/description.ts';

/** `[id, type, access]` of each parameter a connection shares, by connection. */
export type SharedParameters = Map<string, (readonly [string, ValueType, Access])[]>;

/** Who owns each id another hub claims, as decided. */
export type Owners = ReadonlyMap<string, { readonly hubId: string; readonly heard: number }>;

/** What deciding the claims reads: the other hubs, who holds each lease, this hub's group, and what runs here. */
export interface ClaimsInputs {
  readonly others: ReadonlyMap<string, OtherHub>;
  readonly directory: GroupDirectory;
  /** This hub's group, when it is in one. */
  readonly group: RedundancyGroup | undefined;
  /** Whether this hub runs the connection itself (not shown from another hub). */
  isLocal(connectionId: string): boolean;
}

export class Claims {
  /** This hub's shared connections: confirmed once the claim came back from the broker before any other hub's. */
  private readonly own = new Map<string, { confirmed: boolean }>();
  /** Its connections with something to share, as of the latest review. */
  private shareable = new Set<string>();
  /** Its connections another hub owns: failed here, never claimed again by this run. */
  readonly refused = new Set<string>();
  /** Claims of other hubs heard so far: the order they came in decides who owns an id. */
  private heard = 0;

  constructor(
    private readonly context: SiteContext,
    private readonly inputs: ClaimsInputs,
  ) {}

  /** The ids this hub claims. */
  ids(): string[] {
    return [...this.own.keys()];
  }

  /** The place of a claim heard now among all heard: an earlier one owns the id. */
  nextHeard(): number {
    return ++this.heard;
  }

  /** The connections this hub has something to share of now: only those can lose a claim. */
  sharing(connectionIds: Iterable<string>): void {
    this.shareable = new Set(connectionIds);
  }

  /**
   * This hub's shared connections as the others read them (`shared`: what each shares now),
   * claiming those it shares for the first time and letting go of those that went.
   */
  describe(shared: SharedParameters, connections: readonly ConnectionInfo[]): SharedConnection[] {
    const described: SharedConnection[] = [];
    for (const info of connections) {
      const parameters = shared.get(info.id) ?? [];
      if (parameters.length === 0 && !this.own.has(info.id)) continue;
      if (!this.own.has(info.id)) this.own.set(info.id, { confirmed: false });
      const { id, type, status, reason, code, description, location, group } = info;
      described.push({ id, type, status, reason, ...(code ? { code } : {}), description, location, group, parameters });
    }
    const present = new Set(connections.map((c) => c.id));
    for (const id of this.own.keys()) if (!present.has(id)) this.own.delete(id);
    return described;
  }

  /** Its own description came back: the claims in it came before any other hub's claim not yet heard. */
  confirm(payload: Buffer): void {
    const listed = parseJson(payload)?.['connections'];
    if (!Array.isArray(listed)) return;
    for (const item of listed) {
      const id = (item as { id?: unknown } | null)?.id;
      const claim = typeof id === 'string' ? this.own.get(id) : undefined;
      if (claim) claim.confirmed = true;
    }
  }

  /**
   * Decides every id some other hub claims. This hub's own shared connection keeps the id
   * when its claim came back from the broker before the other's (`republish`: its values go
   * out again, over the other's), and is refused when the other's came first (`refusedAny`);
   * a connection it runs but shares nothing of is left alone. The others are owned by the
   * hub whose claim was heard first (`owners`).
   */
  decide(): { owners: Owners; republish: string[]; refusedAny: boolean } {
    const { others, directory, group } = this.inputs;
    const owners = new Map<string, { hubId: string; heard: number }>();
    for (const [hubId, other] of others) {
      // A hub of a redundancy group runs its group's connections only while it holds the lease.
      if (group?.isPeer(hubId) ? group.owner() !== hubId : !directory.owns(hubId)) continue;
      for (const shared of other.connections.values()) {
        const first = owners.get(shared.id);
        if (!first || shared.heard < first.heard) owners.set(shared.id, { hubId, heard: shared.heard });
      }
    }
    const republish: string[] = [];
    let refusedAny = false;
    for (const [id, owner] of owners) {
      // The hubs of one group run the same flow: what serves each hub runs on all of them.
      if (!this.inputs.isLocal(id) || this.refused.has(id) || group?.isPeer(owner.hubId)) continue;
      const mine = this.own.get(id);
      if (mine?.confirmed) {
        republish.push(id);
        continue;
      }
      // Never the rest-api, the mqtt connection or any connection with nothing shared.
      if (!mine && !this.shareable.has(id)) continue;
      this.refused.add(id);
      this.own.delete(id);
      refusedAny = true;
      this.context.hub.refuse(
        id,
        new HubError(
          'PB_CONNECTION_OWNED',
          `hub ${owner.hubId} runs a connection "${id}" already; connection ids are unique among the hubs on the broker`,
        ),
      );
    }
    return { owners, republish, refusedAny };
  }
}
