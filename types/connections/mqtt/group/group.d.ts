import type { IClientPublishOptions } from 'mqtt';
import { type Result, type Json } from '../../../sdk/index.ts';
import type { GroupControl, RedundancyDetails, Role, ServingContext } from '../../serving.ts';
import type { BrokerLink } from '../broker-link.ts';
import type { HubSettings, MqttSettings } from '../settings.ts';
import type { GroupDirectory } from './directory.ts';
import type { RoleRecord } from './record.ts';
import type { GroupSharing } from './sharing.ts';
export declare class RedundancyGroup implements GroupControl {
    private readonly context;
    private readonly settings;
    private readonly hub;
    private readonly link;
    private readonly directory;
    private readonly roles;
    private readonly renewals;
    private readonly takeover;
    private readonly voting;
    private readonly removeControl;
    sharing: GroupSharing | undefined;
    constructor(context: ServingContext, settings: MqttSettings, hub: HubSettings & {
        readonly group: string;
    }, link: BrokerLink, directory: GroupDirectory);
    role(): Role;
    /** The hub that is active now, as this hub knows it: itself, or the holder of the latest epoch while it is here and renews. */
    activeHub(): string | undefined;
    /** The hub whose connections this hub shows: the holder of the lease, or while this hub claims it, the one that held it until then. */
    owner(): string | undefined;
    /** True for a hub of this group (its role record says so), this one too. */
    isPeer(hubId: string): boolean;
    failover(): Result<string>;
    recordsChanged(connectionId: string, records: readonly (readonly [string, Json])[]): void;
    replicated(done: (acknowledged: boolean) => void): void;
    details(): RedundancyDetails;
    private waitingForOperator;
    /** With `hub.voters`: the group's vote runs from now (vote.ts). Rejects when its port cannot be had. */
    startVoting(siteKey: Buffer): Promise<void>;
    /** Connected, every retained message in: this hub joins as a standby, and looks for an active hub. */
    up(): void;
    /**
     * The broker link closed. With voters nothing changes for the lease: the active hub drives on
     * (R-AV1). Without them the lease belongs to one broker session, so it ends now.
     */
    down(reason: string): void;
    /** A hub's presence, signed by it: one that went is no longer heard from. */
    presence(hubId: string, online: boolean): void;
    /** A renewal of a hub of the group, signed by it and bound to this hub's session: it is here now. */
    renewalHeard(hubId: string): void;
    /** Why a role record that names this group is not taken (undefined when it is): refusal.ts says the rules. */
    refusal(hubId: string, record: RoleRecord, own: boolean): string | 'unconfirmed' | undefined;
    /** Says this hub's role again: its record on the broker was overwritten. */
    republishRecord(): void;
    /** A hub's role record as the directory took it (this hub's own come back too: their order decides claims). */
    record(hubId: string, record: RoleRecord): void;
    /**
     * Stops; what to publish before disconnecting: this hub no longer holds the lease (ended
     * here first), so a standby that claims may drive devices at once.
     */
    stop(): {
        topic: string;
        payload: string;
        options: IClientPublishOptions;
    }[];
}
