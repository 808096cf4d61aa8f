/**
 * R-T3: a number ≥ 1 (or its text) is the duration in ms; any other write (a boolean, a
 * trigger, other text, 0 or less) runs the configured duration. Either way the duration
 * used is what the start parameter remembers (R-P6).
 */
export declare function durationOf(raw: unknown, configured: number): number;
export declare const timerType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    timers: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        duration: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    }>>>;
    pulses: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        enabled: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
        interval: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    }>>>;
    onRestart: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"fire">, import("@sinclair/typebox").TLiteral<"skip">]>>;
}>, {
    timers: ({
        duration: number;
    } & {})[];
    pulses: ({
        enabled: boolean;
        interval: number;
    } & {})[];
    onRestart: "fire" | "skip";
} & {}>;
