export declare const emberConsumerType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    host: import("@sinclair/typebox").TString;
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    connectTimeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    paths: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxParameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxMessageBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, {
    paths: string[][];
    host: string;
    port: number;
    connectTimeout: number;
    timeout: number;
    maxParameters: number;
    maxMessageBytes: number;
}>;
