import type { ConnectionContext } from '../../sdk/index.ts';
import type { BrokerLink } from './broker-link.ts';
import type { HomeAssistantSettings, MqttSettings } from './settings.ts';
/** Where an entity reads whether the hub is there. */
export interface Availability {
    readonly topic: string;
    /** For a JSON presence (`{"online": true}`): how Home Assistant reads it. */
    readonly template?: string;
}
/** Whether configs were announced and not yet removed: a connection whose option is gone still removes them. */
export declare const hasAnnounced: (records: ConnectionContext["records"]) => boolean;
/** The last will and the first message of the availability topic of a connection without `hub`. */
export declare const OFFLINE = "offline";
export declare const ONLINE = "online";
/** An id Home Assistant takes in a topic and as `unique_id`: `[a-zA-Z0-9_-]`, every other character written as `_<hex>`, so two addresses never meet. */
export declare function discoveryId(text: string): string;
export declare class HomeAssistant {
    private readonly context;
    private readonly settings;
    private readonly options;
    private readonly link;
    private readonly availability;
    private readonly node;
    private readonly watching;
    /** Config topic of each exposed parameter, by address. */
    private readonly configs;
    private up;
    constructor(context: ConnectionContext, settings: MqttSettings, options: HomeAssistantSettings | undefined, link: BrokerLink, availability: Availability, nodeId: string);
    /** Connected: every config is published again, and those recorded but no longer wanted removed. */
    connected(): void;
    disconnected(): void;
    stop(): void;
    /** Publishes the config of a parameter the option exposes. */
    private announce;
    /** Removes the config of a parameter that went. */
    private withdraw;
    private config;
    /** What each component needs beyond the common keys; values travel as the bridge writes them (`true`, `42`, `0.5`, text). */
    private componentKeys;
    private publish;
    private record;
}
