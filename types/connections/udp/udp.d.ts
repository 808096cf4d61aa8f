export declare const udpType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    parameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>]>>;
    delimiter: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    length: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    lengthPrefix: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<1>, import("@sinclair/typebox").TLiteral<2>, import("@sinclair/typebox").TLiteral<4>]>>;
    encoding: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"utf8">, import("@sinclair/typebox").TLiteral<"latin1">, import("@sinclair/typebox").TLiteral<"hex">]>>;
    maxFrameBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxFramesPerSecond: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    receive: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        match: import("@sinclair/typebox").TString;
        each: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        set: import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>;
    }>>>;
    send: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        parameter: import("@sinclair/typebox").TString;
        frame: import("@sinclair/typebox").TString;
        values: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
    }>>>;
    poll: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        frame: import("@sinclair/typebox").TString;
        every: import("@sinclair/typebox").TInteger;
    }>>>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    host: import("@sinclair/typebox").TString;
    sendPort: import("@sinclair/typebox").TInteger;
    acceptFrom: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"host">, import("@sinclair/typebox").TLiteral<"any">]>>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
}>, import("../../sdk/index.ts").LineTypeSettings<import("@sinclair/typebox").TObject<{
    parameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>]>>;
    delimiter: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    length: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    lengthPrefix: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<1>, import("@sinclair/typebox").TLiteral<2>, import("@sinclair/typebox").TLiteral<4>]>>;
    encoding: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"utf8">, import("@sinclair/typebox").TLiteral<"latin1">, import("@sinclair/typebox").TLiteral<"hex">]>>;
    maxFrameBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxFramesPerSecond: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    receive: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        match: import("@sinclair/typebox").TString;
        each: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        set: import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>;
    }>>>;
    send: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        parameter: import("@sinclair/typebox").TString;
        frame: import("@sinclair/typebox").TString;
        values: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
    }>>>;
    poll: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        frame: import("@sinclair/typebox").TString;
        every: import("@sinclair/typebox").TInteger;
    }>>>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    host: import("@sinclair/typebox").TString;
    sendPort: import("@sinclair/typebox").TInteger;
    acceptFrom: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"host">, import("@sinclair/typebox").TLiteral<"any">]>>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
}>>>;
