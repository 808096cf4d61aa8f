/**
 * This hub's standing in its redundancy group: its role, the highest epoch it knows, and the
 * moves between standby and active (taking over, standing down), with what it shows of them:
 * its `_hub/*` parameters, its log lines and its role record on the broker. When to move is
 * decided elsewhere (takeover.ts over the broker, vote.ts with voters); this is the one place
 * that moves.
 */
import type { OwnedParameter } from '../../../sdk/index.ts';
import type { Role, ServingContext } from '../../serving.ts';
import type { BrokerLink } from '../broker-link.ts';
import type { HubSettings, MqttSettings } from '../settings.ts';
import type { GroupDirectory } from './directory.ts';
import type { GroupSharing } from './sharing.ts';
/** What the moves need of the group that holds them (group.ts): passed in, since the group's parts sit above this file. */
export interface RolesHost {
    /** The hub that is active now, as this hub knows it: what `_hub/active` shows. */
    activeHub(): string | undefined;
    /** Looks again at whether to claim (takeover.ts), once a stand-down is done. */
    decide(): void;
    /** True when the group has voters: then a hub that takes over says so on the broker at once. */
    voting(): boolean;
    /** The hub's sharing (site/site-share.ts), once it is set. */
    sharing(): GroupSharing | undefined;
}
export declare class Roles {
    private readonly context;
    private readonly settings;
    private readonly hub;
    private readonly link;
    private readonly directory;
    private readonly host;
    current: Role;
    /** The highest epoch this hub knows of (`learnEpoch` raises it). */
    epoch: number;
    /** `performance.now()` when the broker link came up, every retained message in; undefined while it is down. */
    upSince: number | undefined;
    /** The hub that last held the lease other than this one: whose values and records a takeover carries on. */
    lastHolder: string | undefined;
    /** The active hub as last logged, so that each change is said once. */
    private shownActive;
    stopped: boolean;
    private changing;
    /** The log said that no hub is active and failover is manual: said once until that changes. */
    waitingLogged: boolean;
    /**
     * The epoch this hub held when its own lease ran out (it was starved of CPU, or its
     * renewals were not acknowledged), while no other hub had claimed it: in a manual group it
     * takes its lease back with the next epoch, since that is no failover, only the same hub
     * driving on. Any later epoch (another hub's claim) ends that.
     */
    lapsedEpoch: number | undefined;
    readonly parameters: {
        role: OwnedParameter;
        epoch: OwnedParameter;
        active: OwnedParameter;
        voters?: OwnedParameter;
    };
    constructor(context: ServingContext, settings: MqttSettings, hub: HubSettings & {
        readonly group: string;
    }, link: BrokerLink, directory: GroupDirectory, host: RolesHost);
    /** The hub that won the latest epoch claimed, while it has not stood down; this hub too. */
    holder(): string | undefined;
    /** Takes over: the lease granted until `until`, the connections started from what `previous` ran. */
    becomeActive(epoch: number, until: number, previous: string | undefined): void;
    /** Ends the lease now, and stops the connections only the active hub runs. */
    standDown(why: string, epoch?: number): void;
    learnEpoch(epoch: number): void;
    showActive(): void;
    publishRecord(role: Role, epoch: number): void;
}
