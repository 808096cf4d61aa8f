import { type Checked, type Parsed, Peers, AddressPatterns } from '../../sdk/index.ts';
export declare const emberProviderSettings: import("@sinclair/typebox").TObject<{
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    expose: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    write: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    maxConsumers: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxQueuedBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxMessageBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    matrices: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        targets: import("@sinclair/typebox").TInteger;
        sources: import("@sinclair/typebox").TInteger;
        type: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"oneToN">, import("@sinclair/typebox").TLiteral<"oneToOne">, import("@sinclair/typebox").TLiteral<"nToN">]>>;
    }>>>;
}>;
export type EmberProviderSettings = Parsed<typeof emberProviderSettings> & {
    /** `expose`, compiled: the parameters served. */
    readonly patterns: AddressPatterns;
    /** `write`, compiled: the served parameters a consumer may change. */
    readonly writable: AddressPatterns;
    /** `allow`, compiled: the consumers let in. */
    readonly peers: Peers;
};
/** Checks what the schema cannot: the address patterns, the peers, and matrix ids that are parameter ids and hold no other. */
export declare function parseEmberProviderSettings(written: Parsed<typeof emberProviderSettings>): Checked<EmberProviderSettings>;
