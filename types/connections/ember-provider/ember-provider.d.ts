import { AddressPatterns } from '../../core/address-pattern.ts';
import { Peers } from '../../sdk/index.ts';
export declare const emberProviderType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
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
}>, {
    patterns: AddressPatterns;
    writable: AddressPatterns;
    peers: Peers;
    port: number;
    bindIp: string;
    expose: string[];
    write: string[];
    allow: string[];
    maxConsumers: number;
    maxQueuedBytes: number;
    maxMessageBytes: number;
    matrices: ({
        id: string;
        targets: number;
        sources: number;
        type: "oneToN" | "oneToOne" | "nToN";
    } & {})[];
}>;
