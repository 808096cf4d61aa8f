import { Peers } from '../../sdk/index.ts';
export declare const tslUmdType: import("../../sdk/type.ts").DefinedConnectionType<import("../../sdk/index.ts").TObject<{
    version: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"3.1">, import("@sinclair/typebox").TLiteral<"5.0">]>;
    mode: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"receive">, import("@sinclair/typebox").TLiteral<"send">]>;
    transport: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"udp">, import("@sinclair/typebox").TLiteral<"tcp">]>>;
    port: import("@sinclair/typebox").TInteger;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    host: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    displays: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TInteger, import("@sinclair/typebox").TString, import("../../sdk/index.ts").TObject<{
        display: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TInteger, import("@sinclair/typebox").TString]>;
        text: import("@sinclair/typebox").TString;
    }>]>>>;
    repeat: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    connectTimeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxDisplays: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    forgetAfter: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxClients: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, {
    displays: string[];
    texts: Record<string, string>;
    peers: Peers;
    version: "3.1" | "5.0";
    mode: "receive" | "send";
    transport: "udp" | "tcp";
    port: number;
    bindIp: string;
    host: string;
    allow: string[];
    repeat: number;
    connectTimeout: number;
    maxDisplays: number;
    forgetAfter: number;
    maxClients: number;
}>;
