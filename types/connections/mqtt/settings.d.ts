import { type Access, type Checked, type Overruns, type ParseContext, type Parsed, AddressPatterns, type ValueType } from '../../sdk/index.ts';
import type { KeySource } from './signing.ts';
import { TopicLayout } from './topics.ts';
/** A broker topic as a parameter of the connection (R-M3). */
export interface MappedTopic {
    readonly id: string;
    readonly topic: string;
    readonly type: ValueType;
    readonly access: Access;
    readonly commandTopic: string;
}
export declare const mqttSettings: import("@sinclair/typebox").TObject<{
    url: import("@sinclair/typebox").TString;
    username: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    password: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    clientId: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    prefix: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    qos: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<0>, import("@sinclair/typebox").TLiteral<1>, import("@sinclair/typebox").TLiteral<2>]>>;
    ca: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    cert: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    key: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    keepalive: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    publish: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    homeAssistant: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TObject<{
        expose: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        prefix: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    }>>;
    setAccess: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    limits: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TObject<{
        payloadBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        hubs: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        connectionsPerHub: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        parametersPerHub: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        heldValues: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    }>>;
    topics: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        topic: import("@sinclair/typebox").TString;
        type: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<ValueType>[]>;
        access: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"read-only">, import("@sinclair/typebox").TLiteral<"read-write">, import("@sinclair/typebox").TLiteral<"write-only">]>>;
        commandTopic: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    }>>>;
    hub: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        share: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        group: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        failover: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"auto">, import("@sinclair/typebox").TLiteral<"manual">]>>;
        members: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        voters: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
        key: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TObject<{
            file: import("@sinclair/typebox").TString;
        }>, import("@sinclair/typebox").TObject<{
            env: import("@sinclair/typebox").TString;
        }>]>>;
    }>>;
}>;
/** `homeAssistant` once parsed: which parameters are announced, under which prefix (see home-assistant.ts). */
export interface HomeAssistantSettings {
    readonly expose: {
        matches(address: string): boolean;
    };
    /** The discovery prefix Home Assistant listens on. */
    readonly prefix: string;
}
export interface MqttSettings {
    readonly url: string;
    readonly username: string;
    readonly password: string;
    readonly clientId: string;
    readonly qos: 0 | 1 | 2;
    readonly layout: TopicLayout;
    readonly files: {
        readonly ca?: string;
        readonly cert?: string;
        readonly key?: string;
    };
    readonly keepalive: number;
    readonly publish: AddressPatterns;
    /** What `set` topics may write. */
    readonly setAccess: AddressPatterns;
    readonly limits: Limits;
    readonly topics: readonly MappedTopic[];
    readonly hub: HubSettings | undefined;
    /** Home Assistant discovery (R-DS3); undefined when the flow does not ask for it. */
    readonly homeAssistant: HomeAssistantSettings | undefined;
}
export interface HubSettings {
    readonly id: string;
    readonly share: AddressPatterns;
    /** The redundancy group, if any (R-B1). */
    readonly group: string | undefined;
    readonly failover: 'auto' | 'manual';
    /** The hubs of the group, when the flow lists them: no other hub's role record counts. */
    readonly members: readonly string[] | undefined;
    /** Undefined only in a flow file with a mistake: `diagnose` says so. */
    readonly key: KeySource | undefined;
    /** Who votes on the group's lease, and where (UDP); undefined: the broker decides. */
    readonly voters: Readonly<Record<string, {
        readonly host: string;
        readonly port: number;
    }>> | undefined;
}
export type Limits = Parsed<typeof mqttSettings>['limits'];
export declare function parseMqttSettings({ url, username, password, clientId, prefix, qos, ca, cert, key, keepalive, publish, setAccess, limits, topics, hub, homeAssistant, }: Parsed<typeof mqttSettings>, { baseDir }: ParseContext): Checked<MqttSettings>;
/** What a broker may send past `limits`, by kind. */
export declare const OVERRUN_KINDS: readonly ["payload", "hubs", "connections", "parameters", "held", "unverified", "replayed", "refused"];
export type MqttOverruns = Overruns<(typeof OVERRUN_KINDS)[number]>;
