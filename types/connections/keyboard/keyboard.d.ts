import { type Combination } from './combination.ts';
export declare const keyboardType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    inputKeys: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    outputKeys: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    whenNoDisplay: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"fail">, import("@sinclair/typebox").TLiteral<"disable">]>>;
}>, {
    inputs: Combination[];
    outputs: Combination[];
    whenNoDisplay: "fail" | "disable";
}>;
