export declare const virtualCoreType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    logics: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    functions: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        op: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<"and" | "or" | "xor" | "nand" | "nor" | "not" | "flipflop" | "latch" | "delay-on" | "delay-off" | "pulse">[]>;
        inputs: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        ms: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
        description: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    }>>>;
}>, {
    logics: number;
    functions: ({
        id: string;
        op: "and" | "or" | "xor" | "nand" | "nor" | "not" | "flipflop" | "latch" | "delay-on" | "delay-off" | "pulse";
        inputs: string[];
    } & {
        ms?: number;
        description?: string;
    })[];
}>;
