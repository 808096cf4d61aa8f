export declare const dummyType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    parameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>]>>;
}>, import("../../sdk/parameter-lines.ts").ParameterLines>;
