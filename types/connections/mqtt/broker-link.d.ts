import { type IClientPublishOptions, type ISubscriptionMap } from 'mqtt';
import { type ConnectionContext, type Logger, type Scheduler } from '../../sdk/index.ts';
import type { Signer } from './signing.ts';
/** The longest wait between two attempts to reach the broker. */
export declare const BROKER_RETRY_MS = 1000;
export interface LinkSettings {
    readonly url: string;
    /** The client id of each new session. */
    readonly clientId: () => string;
    readonly username: string;
    readonly password: string;
    readonly keepalive: number;
    readonly ca?: Buffer;
    readonly cert?: Buffer;
    readonly key?: Buffer;
    /** The last will, for hubs sharing the broker: their presence (R-M5). */
    readonly will?: {
        readonly topic: string;
        readonly payload: string;
    };
    /** Where the marker of a session goes (a random token names it, not the client id); the link subscribes to it. */
    readonly syncTopic: (token: string) => string;
    /** The largest payload taken; the broker is asked not to send packets over `maxPacket` at all. */
    readonly maxPayload: number;
    /** A larger bound for some topics (a hub's description), asked only of messages over `maxPayload`. */
    readonly maxPayloadOf?: (topic: string) => number;
    readonly maxPacket: number;
    /** Signs every message it publishes, for hubs sharing the broker. */
    readonly signer?: Signer;
}
export interface LinkOwner {
    /** What to subscribe to at every connect. */
    subscriptions(): ISubscriptionMap;
    message(topic: string, payload: Buffer, properties: MessageProperties): void;
    /** Connected and every retained message is in: publish what the broker must have again. */
    up(): void;
    /** The link is down (or never came up) for this reason; it is retrying. */
    down(reason: string): void;
    /** A message over `maxPayload` was dropped. */
    tooLarge(topic: string, size: number, limit: number): void;
}
export interface MessageProperties {
    readonly userProperties?: Readonly<Record<string, string | string[]>>;
    readonly responseTopic?: string;
    readonly correlationData?: Buffer;
}
/** What to do with a message published while the broker is away. */
export type WhileDown = 'drop' | 'keep';
export declare class BrokerLink {
    private readonly settings;
    private readonly owner;
    private readonly log;
    private readonly scheduler;
    private client;
    private isUp;
    private stopped;
    /** The link's attempt now: told when the broker is up (every retained message in) and when it closed. */
    private attempt;
    private readonly link;
    /** The marker of the latest connect: when it comes back, every retained message before it is in. */
    private pendingMarker;
    private pendingSync;
    private readonly kept;
    private lastReason;
    /** Messages handed to the broker and received from it since the start (`/metrics`). */
    readonly counts: {
        published: number;
        received: number;
    };
    constructor(settings: LinkSettings, owner: LinkOwner, log: Logger, scheduler: Scheduler, status: ConnectionContext['setStatus']);
    /** Why the broker cannot be reached, while it cannot. */
    get downReason(): string;
    get up(): boolean;
    /** Whether the broker speaks MQTT 5 (user properties, response topics, No Local). */
    get mqtt5(): boolean;
    /** Starts connecting; resolves once up, or once the first attempt failed (it goes on trying). */
    start(): Promise<void>;
    /** One attempt of the link: the client's first connect, or a reconnect of it. */
    private open;
    /** Subscribes, sends the marker and waits for it: then every retained message is in. */
    private synchronise;
    private received;
    private cameUp;
    private closed;
    /**
     * Publishes now when up. While down, `keep` holds the message (the latest per topic
     * replaces an earlier one, whose `sent` is told when the latest goes) and `drop` drops
     * it: for what `up` publishes again anyway.
     */
    publish(topic: string, payload: string, options: IClientPublishOptions, whileDown: WhileDown, sent?: (error?: Error) => void): void;
    private send;
    /**
     * Calls `done(true)` once the broker has acknowledged every message published so far
     * (QoS 1 and 2), at once when none waits; `done(false)` when the link closes first: what
     * was published then may not have reached the broker (R-B2).
     */
    whenAcknowledged(done: (acknowledged: boolean) => void): void;
    private settleWaiters;
    /** The link closed: whatever was not acknowledged may be lost, and the next session counts afresh. */
    private dropUnacknowledged;
    private issued;
    private session;
    private readonly unacknowledged;
    private waiters;
    /** The last will of a new session, signed when the link signs. */
    private will;
    /** The options with the message signed, when the link signs. */
    private signed;
    /** Publishes the last messages (presence) and disconnects; gives up waiting after a second. */
    stop(last?: readonly {
        topic: string;
        payload: string;
        options: IClientPublishOptions;
    }[]): Promise<void>;
    private last;
    private close;
}
/** The broker's URL as reasons and logs show it: without the user and password it may carry. */
export declare function shownUrl(url: string): string;
