export declare const xmlFileOutputType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    filename: import("@sinclair/typebox").TString;
    template: import("@sinclair/typebox").TString;
    renderAtStart: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
}>, {
    filename: string;
    template: string;
    renderAtStart: boolean;
} & {}>;
