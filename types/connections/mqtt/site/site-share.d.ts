import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import type { Parameter } from '../../../sdk/index.ts';
import type { Carried, ServingContext } from '../../serving.ts';
import type { BrokerLink, MessageProperties } from '../broker-link.ts';
import type { NO_HUB, Publishing, REJECTED } from '../bridge.ts';
import { GroupDirectory } from '../group/directory.ts';
import type { RedundancyGroup } from '../group/group.ts';
import type { GroupSharing } from '../group/sharing.ts';
import type { HubSettings, MqttOverruns, MqttSettings } from '../settings.ts';
import type { TopicLayout } from '../topics.ts';
import { type SiteTrust } from './checks.ts';
export type { SiteTrust } from './checks.ts';
export declare class SiteShare implements Publishing, GroupSharing {
    private readonly context;
    private readonly settings;
    private readonly hub;
    private readonly link;
    /** Who holds each redundancy group's lease: a hub of a group owns connections only while it does (R-B1). */
    readonly groups: GroupDirectory;
    /** This hub's own group, when it is in one. */
    group: RedundancyGroup | undefined;
    private readonly otherHubs;
    private readonly others;
    private readonly checks;
    private readonly corrections;
    private readonly early;
    private readonly mirrors;
    private readonly writes;
    private readonly records;
    private readonly claims;
    private lastMeta;
    private reviewQueued;
    private readonly watches;
    /** Told when what this hub publishes changed: a claim was lost or won. */
    onPublishingChanged: (republish: readonly string[]) => void;
    /** Told to publish a parameter's value again: someone else published on its value topic. */
    onValueOverwritten: (address: string) => void;
    /** The last will: this hub's presence, gone (the link signs it). */
    static will(layout: TopicLayout, hubId: string): {
        topic: string;
        payload: string;
    };
    constructor(context: ServingContext, settings: MqttSettings, hub: HubSettings, link: BrokerLink, trust: SiteTrust, overruns: MqttOverruns);
    private get layout();
    subscriptions(): ISubscriptionMap;
    /** Its own parameters that `publish` or `share` match, but none of a connection another hub owns. */
    publishes(parameter: Parameter): boolean;
    /** True when the other hubs see (and may write) this parameter: `share` matches it, and its connection is this hub's. */
    sharesWithHubs(parameter: Parameter): boolean;
    /** True for a connection only the active hub of this hub's group runs: the standbys show all of it, and carry it on at a takeover. */
    private readonly groupRuns;
    isLocal(connectionId: string): boolean;
    /** Who changed it; the signature adds which hub. */
    valueProperties(parameter: Parameter): Record<string, string>;
    /** Who sent a write on a `set` topic: a hub's write counts only when it is bound to this hub's session now (R-AV3). */
    sender(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED;
    /** Connected, every retained message in: say this hub is here, and what it runs. */
    up(): void;
    private publishPresence;
    down(reason: string): void;
    /** Stops sharing; what to publish before disconnecting: this hub is gone. */
    stop(): {
        topic: string;
        payload: string;
        options: IClientPublishOptions;
    }[];
    details(): Record<string, unknown>;
    private queueReview;
    /** Decides the claims against what this hub shares now, and publishes its description. */
    private review;
    /** `[id, type, access]` of each shared parameter, by connection: one pass over the graph, not one per connection. */
    private sharedParameters;
    /** This hub's shared connections as the others read them; claims what it shares for the first time. */
    private ownMeta;
    private publishMeta;
    /** Handles hub topics and the values of mirrored connections; false for anything else. */
    message(topic: string, payload: Buffer, properties: MessageProperties): boolean;
    /** The hubs whose records say they are active in a later epoch than this hub knows, not confirmed yet. */
    unconfirmedActive(): string[];
    /** The broker sessions of the other hubs of the group that are here: a renewal names them, bound to each. */
    sessions(): Record<string, string>;
    /** The values this hub shows of the connections only its group's active hub runs, and that hub's records: what a takeover starts from (R-B2, R-B4). */
    carried(owner: string | undefined): Carried;
    roleChanged(): void;
    /**
     * A message on this hub's own presence or description topic: its own coming back confirms
     * the claims it carries; anyone else's (or one from before a restart, once up) is put right.
     */
    private ownTopic;
    /** Decides who owns each id (`claims.ts`), and shows the connections of others as their owners describe them. */
    private resolveClaims;
    /** A hub came or went: its group (when it is of this hub's) and what this hub shows of it are told. */
    private presence;
    private forward;
}
