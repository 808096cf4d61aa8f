import { type OscSettings } from './settings.ts';
export declare const oscType: import("../serving.ts").ServingTypeDefinition<import("../../sdk/index.ts").TObject<{
    transport: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"udp">, import("@sinclair/typebox").TLiteral<"tcp">]>>;
    port: import("@sinclair/typebox").TInteger;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    host: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    sendPort: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    addresses: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("../../sdk/index.ts").TObject<{
        id: import("@sinclair/typebox").TString;
        address: import("@sinclair/typebox").TString;
        type: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"S">, import("@sinclair/typebox").TLiteral<"B">, import("@sinclair/typebox").TLiteral<"I">, import("@sinclair/typebox").TLiteral<"F">, import("@sinclair/typebox").TLiteral<"T">]>;
        access: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"read-only">, import("@sinclair/typebox").TLiteral<"read-write">, import("@sinclair/typebox").TLiteral<"write-only">]>>;
    }>>>;
    learn: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    maxParameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxPacketBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    oscQuery: import("@sinclair/typebox").TOptional<import("../../sdk/index.ts").TObject<{
        port: import("@sinclair/typebox").TInteger;
        bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        expose: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        write: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        origins: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        hostnames: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    }>>;
}>, OscSettings>;
