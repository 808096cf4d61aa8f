import type { ServingContext } from '../../serving.ts';
import type { BrokerLink } from '../broker-link.ts';
import type { HubSettings, MqttSettings } from '../settings.ts';
import type { Roles } from './roles.ts';
import type { GroupSharing } from './sharing.ts';
export interface Peer {
    online: boolean;
    /** `performance.now()` when its latest renewal came. */
    heardAt: number | undefined;
}
/** What the renewals need of the group that sends them (group.ts). */
export interface RenewalsHost {
    /** The hub's sharing (site/site-share.ts), once it is set: each renewal is bound to the sessions it knows. */
    sharing(): GroupSharing | undefined;
    /** Looks again at whether to claim (takeover.ts): a renewal came back, so what this hub hears is current. */
    decide(): void;
}
export declare class Renewals {
    private readonly context;
    private readonly settings;
    private readonly hub;
    private readonly link;
    private readonly roles;
    private readonly host;
    private readonly peers;
    /** `performance.now()` until which the broker's acknowledgements keep the lease. */
    acknowledgedUntil: number;
    /** When the latest of this hub's renewals that came back acknowledged was sent. */
    private freshSince;
    private renewals;
    constructor(context: ServingContext, settings: MqttSettings, hub: HubSettings, link: BrokerLink, roles: Roles, host: RenewalsHost);
    /** Every 200 ms a renewal: the active hub's lease, and every hub's proof that what it hears is current. */
    start(): void;
    stop(): void;
    /** What this hub knows of another hub's being here (this one is online from the start). */
    peer(hubId: string): Peer;
    /** True while the hub is here and renews; false once it went, or fell silent while this hub's own renewals came back. */
    alive(hubId: string): boolean;
}
