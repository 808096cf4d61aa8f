/**
 * What the hub and the thread that loads a package's types (type-host-worker.ts) say to each
 * other. What comes back is the package's: the hub checks each answer against its schema
 * here before it uses any of it.
 */
import { type Static } from '@sinclair/typebox';
/** What the hub asks: a type described (answered when ready), or a connection's settings checked (answered at once). */
export type HostRequest = {
    readonly t: 'describe';
    readonly n: number;
    readonly module: string;
    readonly type: string;
} | CheckRequest;
export type CheckRequest = {
    readonly t: 'prepare';
    readonly n: number;
    readonly type: string;
    readonly settings: unknown;
    readonly connection: Where;
} | {
    readonly t: 'declared';
    readonly n: number;
    readonly type: string;
    readonly settings: unknown;
    readonly connection: Where;
    readonly id: string;
};
interface Where {
    readonly id: string;
    readonly baseDir: string;
}
declare const Description: import("@sinclair/typebox").TObject<{
    type: import("@sinclair/typebox").TString;
    summary: import("@sinclair/typebox").TString;
    settings: import("@sinclair/typebox").TUnknown;
    metrics: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        name: import("@sinclair/typebox").TString;
        help: import("@sinclair/typebox").TString;
        kind: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"gauge">, import("@sinclair/typebox").TLiteral<"counter">]>;
        labelNames: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
    }>>;
    declares: import("@sinclair/typebox").TBoolean;
}>;
export type TypeDescription = Static<typeof Description>;
declare const Described: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TObject<{
    t: import("@sinclair/typebox").TLiteral<"described">;
    n: import("@sinclair/typebox").TNumber;
    ok: import("@sinclair/typebox").TLiteral<true>;
    description: import("@sinclair/typebox").TObject<{
        type: import("@sinclair/typebox").TString;
        summary: import("@sinclair/typebox").TString;
        settings: import("@sinclair/typebox").TUnknown;
        metrics: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
            name: import("@sinclair/typebox").TString;
            help: import("@sinclair/typebox").TString;
            kind: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"gauge">, import("@sinclair/typebox").TLiteral<"counter">]>;
            labelNames: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        }>>;
        declares: import("@sinclair/typebox").TBoolean;
    }>;
}>, import("@sinclair/typebox").TObject<{
    t: import("@sinclair/typebox").TLiteral<"described">;
    n: import("@sinclair/typebox").TNumber;
    ok: import("@sinclair/typebox").TLiteral<false>;
    reason: import("@sinclair/typebox").TString;
}>]>;
export type DescribedAnswer = Static<typeof Described>;
declare const CheckedAnswer: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<true>;
    links: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        output: import("@sinclair/typebox").TString;
        inputs: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        path: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TNumber]>>;
    }>>;
    claims: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        what: import("@sinclair/typebox").TString;
        on: import("@sinclair/typebox").TString;
        path: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TNumber]>>;
    }>>;
    pathsAsWritten: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
    discovers: import("@sinclair/typebox").TObject<{
        parameters: import("@sinclair/typebox").TBoolean;
        connections: import("@sinclair/typebox").TBoolean;
    }>;
    diagnostics: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        path: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TNumber]>>;
        message: import("@sinclair/typebox").TString;
    }>>;
    warnings: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        path: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TNumber]>>;
        message: import("@sinclair/typebox").TString;
    }>>;
}>, import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<true>;
    declared: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TUndefined, import("@sinclair/typebox").TObject<{
        type: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<import("../core/value.ts").ValueType>[]>;
        persist: import("@sinclair/typebox").TBoolean;
    }>]>;
}>, import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<false>;
    issues: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        path: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TNumber]>>;
        message: import("@sinclair/typebox").TString;
    }>>;
}>, import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<false>;
    failure: import("@sinclair/typebox").TString;
}>]>;
export type Checked = Static<typeof CheckedAnswer>;
/** A `described` answer, or undefined for anything else. */
export declare const describedOf: (message: unknown) => DescribedAnswer | undefined;
/** A checked answer of request `n`, or why it is none. */
export declare function checkedOf(message: unknown, n: number): Checked | string;
export {};
