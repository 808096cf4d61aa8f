export declare const emberProviderType: import("../../sdk/type.ts").DefinedConnectionType<import("../../sdk/index.ts").TObject<{
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    expose: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    write: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    maxConsumers: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxQueuedBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxMessageBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    matrices: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("../../sdk/index.ts").TObject<{
        id: import("@sinclair/typebox").TString;
        targets: import("@sinclair/typebox").TInteger;
        sources: import("@sinclair/typebox").TInteger;
        type: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"oneToN">, import("@sinclair/typebox").TLiteral<"oneToOne">, import("@sinclair/typebox").TLiteral<"nToN">]>>;
    }>>>;
}>, import("./settings.ts").EmberProviderSettings>;
