import type { ISubscriptionMap } from 'mqtt';
import { type ConnectionContext, type Parameter } from '../../sdk/index.ts';
import type { BrokerLink, MessageProperties } from './broker-link.ts';
import type { MqttSettings } from './settings.ts';
/** What an answer to a write carries: `{"ok":true}` or the error with its code. */
export type WriteAnswer = {
    readonly ok: true;
} | {
    readonly ok: false;
    readonly error: string;
    readonly code: string;
};
/** Who decides what is published: the patterns, and for shared parameters the owner of their connection. */
export interface Publishing {
    /** True when this hub publishes the parameter and takes writes for it from the broker. */
    publishes(parameter: Parameter): boolean;
    /** True when the connection runs on this hub (not a mirror of another's). */
    isLocal(connectionId: string): boolean;
    /** User properties of value messages (the hub and who changed it), for hubs sharing the broker. */
    valueProperties?(parameter: Parameter): Record<string, string>;
    /**
     * Who sent a message, for hubs sharing the broker: the hub whose signature it carries, `none`
     * when it carries none (a plain client), `rejected` when it carries one that does not verify.
     */
    sender?(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED;
    /** True when the other hubs may write the parameter: this hub shares it with them. */
    sharesWithHubs?(parameter: Parameter): boolean;
}
export declare const NO_HUB: unique symbol;
export declare const REJECTED: unique symbol;
export declare class Bridge {
    private readonly context;
    private readonly settings;
    private readonly link;
    private readonly publishing;
    private readonly followed;
    private readonly mapped;
    private readonly graphWatch;
    private readonly warned;
    /** `set` writes refused since the start (`details`, `/metrics`). */
    refusedWrites: number;
    /** Refusals, logged at most one line in ten seconds: a flood of bad writes is one line. */
    private readonly refusals;
    constructor(context: ConnectionContext, settings: MqttSettings, link: BrokerLink, publishing: Publishing);
    subscriptions(): ISubscriptionMap;
    /** Publishes every published parameter's value: the broker has them all again. */
    up(): void;
    /** Publishes the values of a connection again: another hub may have overwritten them. */
    republishConnection(connectionId: string): void;
    /** Publishes a parameter's value again, when it is published. */
    republish(address: string): void;
    /** Follows or stops following every parameter again: what is published changed (a claim was won or lost). */
    review(): void;
    private follow;
    private unfollow;
    private publishValue;
    /** A message on a mapped topic or a write topic; false when it is neither. */
    message(topic: string, payload: Buffer, properties: MessageProperties): boolean;
    /** A mapped topic's payload becomes the value; one that does not convert is logged once per topic and kept out. */
    private follows;
    /**
     * A write from the broker: made when `setAccess` allows it (or, from another hub whose
     * signature verifies, when this hub shares the parameter), answered when asked — a hub on its
     * own answer topic, a plain client only under `<prefix>/$answers/`, never anywhere else.
     */
    private written;
    private answer;
    private takesWrites;
    /** Where an answer may go: never a topic of someone else's (a presence, a device's command topic). */
    private answersGoTo;
    /** Counts a refused `set` write and logs it, at most one line in ten seconds with the number left unlogged. */
    private refused;
    /** A write to a mapped topic's parameter: published to its command topic, kept while the broker is away. */
    private command;
    stop(): void;
}
