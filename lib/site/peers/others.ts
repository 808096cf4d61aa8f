/**
 * The other hubs of the site as this hub knows them: whether each is here (its retained
 * presence, with its broker session) and the connections it describes — within the limits
 * of hubs, connections and parameters shown (`limits`), what is over them counted and left
 * out.
 */
import type { Logger } from '../../sdk/index.ts';
import type { SiteLimits, SiteOverruns } from '../settings.ts';
import { type Claimed, type OtherHub, parseJson, readShared } from './description.ts';

export class OtherHubs {
  readonly byId = new Map<string, OtherHub>();

  constructor(
    private readonly limits: SiteLimits,
    private readonly overruns: SiteOverruns,
    private readonly log: Logger,
  ) {}

  /** True when another hub may be shown: it is known already, or there is room under `limits.hubs`. */
  admits(hubId: string): boolean {
    if (this.byId.has(hubId)) return true;
    const { hubs } = this.limits;
    if (this.byId.size < hubs) return true;
    this.overruns.dropped('hubs', `hub ${hubId} is one more than the ${hubs} other hubs shown`);
    return false;
  }

  /** A hub's presence, signed by it: true when it came or went. */
  presence(hubId: string, payload: Buffer): boolean {
    const data = payload.length > 0 ? parseJson(payload) : undefined;
    const online = data?.['online'] === true;
    const other = this.of(hubId);
    other.session = online && typeof data?.['session'] === 'string' ? data['session'] : undefined;
    if (other.online === online) return false;
    other.online = online;
    this.log.info(`hub ${hubId} ${online ? 'is here' : 'went away'}`);
    return true;
  }

  /** A hub's description of the connections it shares, signed by it; a claim heard for the first time takes its place from `nextHeard`. */
  described(hubId: string, payload: Buffer, nextHeard: () => number): void {
    const data = payload.length > 0 ? parseJson(payload) : { connections: [] };
    const list = Array.isArray(data?.['connections']) ? (data['connections'] as unknown[]).flatMap(readShared) : [];
    const { connectionsPerHub, parametersPerHub } = this.limits;
    if (list.length > connectionsPerHub)
      this.overruns.dropped(
        'connections',
        `hub ${hubId} describes ${list.length} connections, over ${connectionsPerHub}`,
        list.length - connectionsPerHub,
      );
    const other = this.of(hubId);
    const kept = new Map<string, Claimed>();
    let room = parametersPerHub;
    for (const shared of list.slice(0, connectionsPerHub)) {
      const parameters = shared.parameters.slice(0, Math.max(room, 0));
      room -= shared.parameters.length;
      kept.set(shared.id, { ...shared, parameters, heard: other.connections.get(shared.id)?.heard ?? nextHeard() });
    }
    if (room < 0)
      this.overruns.dropped('parameters', `hub ${hubId} describes ${parametersPerHub - room} parameters, over ${parametersPerHub}`, -room);
    other.connections = kept;
  }

  private of(hubId: string): OtherHub {
    let other = this.byId.get(hubId);
    if (!other) this.byId.set(hubId, (other = { online: false, session: undefined, connections: new Map() }));
    return other;
  }
}
