import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import { type Parameter } from '../../sdk/index.ts';
import type { Carried, ServingContext } from '../serving.ts';
import type { BrokerLink, MessageProperties } from './broker-link.ts';
import { NO_HUB, type Publishing, REJECTED } from './bridge.ts';
import type { MqttOverruns } from './settings.ts';
import type { HubSettings, MqttSettings } from './settings.ts';
import type { Signer, Verifier } from './signing.ts';
import type { TopicLayout } from './topics.ts';
import { GroupDirectory, type GroupSharing, type RedundancyGroup } from './group.ts';
/** The site key at work: what signs this hub's messages and checks the others'. */
export interface SiteTrust {
    readonly signer: Signer;
    readonly verifier: Verifier;
}
export declare class HubShare implements Publishing, GroupSharing {
    private readonly context;
    private readonly settings;
    private readonly hub;
    private readonly link;
    private readonly trust;
    private readonly overruns;
    /** Who holds each redundancy group's lease: a hub of a group owns connections only while it does (R-B1). */
    readonly groups: GroupDirectory;
    /** This hub's own group, when it is in one. */
    group: RedundancyGroup | undefined;
    /** The last values of the active hub's connections, kept when it went away: a takeover starts from them. */
    private leftValues;
    /** The records each hub of the group publishes of its connections, while it is active. */
    private readonly recordsOf;
    private readonly others;
    private readonly mirrors;
    /** This hub's shared connections: confirmed once the claim came back from the broker before any other hub's. */
    private readonly claims;
    /** Its connections with something to share, as of the latest review. */
    private shareable;
    private heard;
    /** Its connections another hub owns: failed here, never claimed again by this run. */
    private readonly refused;
    private readonly early;
    private readonly waiting;
    private sweep;
    private readonly ageing;
    /** Topics of this hub's someone else published on, and when each was last put back. */
    private readonly corrections;
    private readonly ignored;
    private lastMeta;
    private reviewQueued;
    private readonly watches;
    /**
     * This hub's broker session, new at every connect and said in its presence: the other hubs
     * bind the writes they forward to it, and their lease renewals, so that none of them played
     * back later (after a restart, a takeover, a reconnect) is taken (R-AV3).
     */
    private session;
    /** `scheduler.now()` when the session began: the others may bind to the one before for a moment. */
    private sessionSince;
    /** Role records of the group's hubs whose epoch is more than one step ahead: taken once that hub's own fresh renewals say the same epoch. */
    private readonly unconfirmed;
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
    private groupRuns;
    isLocal(connectionId: string): boolean;
    /** Who changed it; the signature adds which hub. */
    valueProperties(parameter: Parameter): Record<string, string>;
    /** Who sent a write on a `set` topic: a hub's write counts only when it is bound to this hub's session now (R-AV3). */
    sender(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED;
    /** The hub that signed a message; `none` when unsigned, `rejected` (counted) when it does not verify or was taken before. */
    private verified;
    /** Counts a message that is not taken, and says so: at most one line in ten seconds (all are counted in /metrics). */
    private unverified;
    /** Counts a signed message that is not taken: played back (`replayed`), or a role record the group's rules do not allow (`refused`). */
    private refuse;
    /** The hub that signed a message on a hub or value topic; undefined (counted) for anything else. */
    private signedBy;
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
    /**
     * A renewal of a hub of the group: it counts when it is bound to this hub's session (one
     * played back from before is not), and it confirms a record of that hub's that was more
     * than one epoch ahead.
     */
    private renewal;
    /** The hubs whose records say they are active in a later epoch than this hub knows, not confirmed yet. */
    unconfirmedActive(): string[];
    /** The broker sessions of the other hubs of the group that are here: a renewal names them, bound to each. */
    sessions(): Record<string, string>;
    /** A hub's role in a redundancy group, as the group's rules allow it: who owns a group's connections may have changed. */
    private roleRecord;
    private takeRecord;
    /** Records of a hub's connections, signed by it: kept, in case it is the active hub of this hub's group when it goes (R-B4). */
    private records;
    /** The values this hub shows of the connections only its group's active hub runs, and that hub's records: what a takeover starts from (R-B2, R-B4). */
    carried(owner: string | undefined): Carried;
    private carriedValues;
    private valuesOf;
    roleChanged(): void;
    private passSigned;
    /** True when the message was signed by this run of this hub (not one before a restart). */
    private fromThisRun;
    /**
     * A message on this hub's own presence or description topic: its own coming back confirms
     * the claims it carries; anyone else's (or one from before a restart, once up) is put right.
     */
    private ownTopic;
    /** Publishes again what someone else overwrote: at once, then at most once a second per topic. */
    private correct;
    /** Its own description came back: the claims in it came before any other hub's claim not yet heard. */
    private confirm;
    /** True when another hub may be shown: it is known already, or there is room under `limits.hubs`. */
    private admits;
    /** Holds a value for a parameter not shown yet, within `limits.heldValues`. */
    private hold;
    /** Drops held values older than a minute: their parameters did not come. Oldest first, in the order they came. */
    private ageHeld;
    private presence;
    private described;
    private other;
    /**
     * Decides every id some other hub claims. This hub's own shared connection keeps the id
     * when its claim came back from the broker before the other's (its values go out again,
     * over the other's), and is refused when the other's came first; a connection it runs but
     * shares nothing of is left alone. The connections it does not run are mirrored from the
     * hub whose claim it heard first.
     */
    private resolveClaims;
    /** Shows `id` as its owner describes it: parameters added, removed or retyped to match. */
    private mirror;
    private describe;
    private show;
    /** A value signed by `from`: taken when it is the owner's (a hub that lost the id may have sent one too). */
    private follow;
    private forward;
    /** An answer signed by `from`: taken only from the hub the write went to. */
    private answer;
    private expire;
}
