/**
 * The other hubs of the site as this hub knows them: whether each is here (its retained
 * presence, with its broker session) and the connections it describes — within the limits
 * of hubs, connections and parameters shown (`limits`), what is over them counted and left
 * out.
 */
import type { Logger } from '../../../sdk/index.ts';
import type { Limits, MqttOverruns } from '../settings.ts';
import { type OtherHub } from './description.ts';
export declare class OtherHubs {
    private readonly limits;
    private readonly overruns;
    private readonly log;
    readonly byId: Map<string, OtherHub>;
    constructor(limits: Limits, overruns: MqttOverruns, log: Logger);
    /** True when another hub may be shown: it is known already, or there is room under `limits.hubs`. */
    admits(hubId: string): boolean;
    /** A hub's presence, signed by it: true when it came or went. */
    presence(hubId: string, payload: Buffer): boolean;
    /** A hub's description of the connections it shares, signed by it; a claim heard for the first time takes its place from `nextHeard`. */
    described(hubId: string, payload: Buffer, nextHeard: () => number): void;
    private of;
}
