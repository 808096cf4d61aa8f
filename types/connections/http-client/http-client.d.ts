export declare const httpClientType: import("../../sdk/type.ts").DefinedConnectionType<import("../../sdk/index.ts").TObject<{
    requests: import("@sinclair/typebox").TArray<import("../../sdk/index.ts").TObject<{
        id: import("@sinclair/typebox").TString;
        url: import("@sinclair/typebox").TString;
        method: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"GET">, import("@sinclair/typebox").TLiteral<"POST">, import("@sinclair/typebox").TLiteral<"PUT">, import("@sinclair/typebox").TLiteral<"PATCH">, import("@sinclair/typebox").TLiteral<"DELETE">]>>;
        headers: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
        body: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        every: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
        timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        followRedirects: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
        redirectOrigins: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        extract: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("../../sdk/index.ts").TObject<{
            pointer: import("@sinclair/typebox").TString;
            type: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<"S" | "B" | "I" | "F">[]>;
        }>>>;
    }>>;
    maxInFlight: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxBodyBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, import("./settings.ts").HttpClientSettings>;
