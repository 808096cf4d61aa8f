import type { IClientPublishOptions } from 'mqtt';
import { type Result } from '../../sdk/index.ts';
import type { Carried, GroupControl, RedundancyDetails, Role, ServingContext } from '../serving.ts';
import type { Json } from '../../core/value.ts';
import type { BrokerLink } from './broker-link.ts';
import type { HubSettings, MqttSettings } from './settings.ts';
/**
 * How long a renewal the broker acknowledged keeps the lease. An active hub whose event loop
 * stalls for longer loses it (and takes it again when no other hub took it meanwhile).
 */
export declare const LEASE_MS = 1000;
/** How long after its claim came back a hub waits before it drives devices: the old lease has run out by then. */
export declare const FENCE_WAIT_MS: number;
/** How long the active hub may be silent (no renewal heard, while this hub's own came back) before a standby claims. */
export declare const SILENCE_MS = 1000;
/**
 * The keep-alive of a group hub's broker link, in seconds: Mosquitto's last will for a hub it
 * no longer hears comes within seconds, but a standby does not wait for it (see `SILENCE_MS`).
 */
export declare const GROUP_KEEPALIVE_S = 1;
/** A hub's role in its group, as its record on the broker says. */
export interface RoleRecord {
    readonly group: string;
    readonly role: Role;
    readonly epoch: number;
}
/**
 * The role records of every hub on the broker, in the order heard: who holds each group's
 * lease. Every hub that shares keeps one, in a group or not: a hub of a group owns
 * connections only while it holds the lease (site/site-share.ts asks `owns`).
 */
export declare class GroupDirectory {
    private readonly records;
    /** The first hub heard claiming each epoch of each group: the broker's order decides. */
    private readonly firstClaims;
    /** A hub's record, signed by it, as the group's rules allow it (site/site-share.ts asks `RedundancyGroup.refusal`). */
    heard(hubId: string, record: RoleRecord): void;
    recordOf(hubId: string): RoleRecord | undefined;
    /** The hub heard first claiming this epoch of the group. */
    firstClaim(group: string, epoch: number): string | undefined;
    /** The hub that won the latest epoch claimed in the group and has not stood down since, if any. */
    holder(group: string): {
        readonly hubId: string;
        readonly epoch: number;
    } | undefined;
    /** True when the hub may own connections: it is in no group, or it holds its group's lease. */
    owns(hubId: string): boolean;
}
/** What the group needs of the hub's sharing (site/site-share.ts). */
export interface GroupSharing {
    /** The last values and records of the connections the active hub `owner` ran, as this standby has them. */
    carried(owner: string | undefined): Carried;
    /** The role or the active hub changed: mirror the active hub's connections, or stop mirroring them. */
    roleChanged(): void;
    /** The sessions of the other hubs of the group that are here: each renewal is bound to them (R-AV3). */
    sessions(): Record<string, string>;
    /** Hubs whose records say they are active in an epoch more than one step ahead, not confirmed by their renewals yet. */
    unconfirmedActive(): readonly string[];
}
export declare class RedundancyGroup implements GroupControl {
    private readonly context;
    private readonly settings;
    private readonly hub;
    private readonly link;
    private readonly directory;
    private current;
    /** The highest epoch this hub knows of. */
    private epoch;
    private readonly peers;
    private claim;
    /** `performance.now()` until which the broker's acknowledgements keep the lease. */
    private acknowledgedUntil;
    /** When the latest of this hub's renewals that came back acknowledged was sent. */
    private freshSince;
    private renewals;
    private upSince;
    /** The hub that last held the lease other than this one: whose values and records a takeover carries on. */
    private lastHolder;
    /** The active hub as last logged, so that each change is said once. */
    private shownActive;
    private stopped;
    private changing;
    private waitingLogged;
    /**
     * The epoch this hub held when its own lease ran out (it was starved of CPU, or its
     * renewals were not acknowledged), while no other hub had claimed it: in a manual group it
     * takes its lease back with the next epoch, since that is no failover, only the same hub
     * driving on. Any later epoch (another hub's claim) ends that.
     */
    private lapsedEpoch;
    private readonly parameters;
    private readonly removeControl;
    sharing: GroupSharing | undefined;
    /**
     * The group's vote, when `hub.voters` lists its voters (R-AV1, R-AV2): the lease comes from a
     * majority of them over UDP, and the broker carries only roles, values and records.
     */
    private vote;
    /** An operator asked this hub to take over (a manual group's failover), until it holds the lease. */
    private operatorAsked;
    /** With voters: until when the takeover an operator asked of this hub may take (`performance.now()`); 0 when none was asked. */
    private failoverUntil;
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
    /**
     * Why a role record that names this group is not taken (undefined when it is): it comes from
     * a hub that is not one of the group's members, it is this hub's own from before (someone
     * else put it there: `own`), or it says an epoch more than one step ahead of what this hub
     * knows (`unconfirmed`: taken once that hub's renewals say the same epoch). An epoch grows
     * one claim at a time; a hub that missed some, away, learns them from the hubs that are here.
     */
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
    /** The hub that won the latest epoch claimed, while it has not stood down; this hub too. */
    private holder;
    /** True while the hub is here and renews; false once it went, or fell silent while this hub's own renewals came back. */
    private alive;
    private decide;
    private waitingForOperator;
    private claimNext;
    /** Its own claim came back: won when no other hub's claim of the epoch came first. */
    private claimCameBack;
    /**
     * Takes over once the old lease has surely run out: `FENCE_WAIT_MS` after the claim came
     * back, or at once when the hub that held it said it stood down for this claim.
     */
    private tryActivate;
    /** Takes over: the lease granted until `until`, the connections started from what `previous` ran. */
    private becomeActive;
    /** Ends the lease now, and stops the connections only the active hub runs. */
    private standDown;
    private learnEpoch;
    private showActive;
    private peer;
    private publishRecord;
    /** With `hub.voters`: votes on a UDP port of its own, and asks the voters every round. Rejects when its port cannot be had. */
    startVoting(siteKey: Buffer): Promise<void>;
    private stopVoting;
    /** Whether this hub may claim the lease when no voter names a holder: always in an auto group; in a manual one, at the first start, at an operator's word, or to take back its own lapse. */
    private mayClaim;
    /** After a round or an answer: takes over, renews, or stands down, as the majority says. */
    private voteChanged;
    /** Which voters this hub heard from within a lease, and whether each granted it the last time. */
    private votersReached;
    /** Every 200 ms a renewal: the active hub's lease, and every hub's proof that what it hears is current. */
    private startRenewing;
    private stopRenewing;
}
/** A role record, when the payload reads as one. */
export declare function readRecord(payload: Buffer): RoleRecord | undefined;
