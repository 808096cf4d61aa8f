export declare const satelliteType: import("../../sdk/type.ts").DefinedConnectionType<import("../../sdk/index.ts").TObject<{
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    keys: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("../../sdk/index.ts").TObject<{
        device: import("@sinclair/typebox").TString;
        key: import("@sinclair/typebox").TInteger;
        show: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        on: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        off: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        text: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        textColor: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        press: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"none">, import("@sinclair/typebox").TLiteral<"toggle">, import("@sinclair/typebox").TLiteral<"momentary">, import("@sinclair/typebox").TLiteral<"fire">]>>;
        target: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    }>>>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxClients: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxClientsPerAddress: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxDevices: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxDevicesPerClient: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxKeys: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxLineBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, {
    peers: import("../../sdk/index.ts").Peers;
    port: number;
    bindIp: string;
    allow: string[];
    keys: ({
        device: string;
        key: number;
        show: string;
        on: string;
        off: string;
        text: string;
        textColor: string;
        press: "none" | "toggle" | "momentary" | "fire";
        target: string;
    } & {})[];
    timeout: number;
    maxClients: number;
    maxClientsPerAddress: number;
    maxDevices: number;
    maxDevicesPerClient: number;
    maxKeys: number;
    maxLineBytes: number;
}>;
