import { type Value, type ValueType } from '../../sdk/index.ts';
export declare const tslUmdSettings: import("@sinclair/typebox").TObject<{
    version: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"3.1">, import("@sinclair/typebox").TLiteral<"5.0">]>;
    mode: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"receive">, import("@sinclair/typebox").TLiteral<"send">]>;
    transport: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"udp">, import("@sinclair/typebox").TLiteral<"tcp">]>>;
    port: import("@sinclair/typebox").TInteger;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    host: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    displays: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TInteger, import("@sinclair/typebox").TString, import("@sinclair/typebox").TObject<{
        display: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TInteger, import("@sinclair/typebox").TString]>;
        text: import("@sinclair/typebox").TString;
    }>]>>>;
    repeat: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    connectTimeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxDisplays: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    forgetAfter: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxClients: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>;
/** A display's parameter: its id under the display, type and value before anything is heard or written. */
export interface Field {
    readonly id: string;
    readonly type: ValueType;
    readonly initial: Value;
    /** The largest value of an integer field (its smallest is 0). */
    readonly max?: number;
}
export declare const FIELDS: {
    readonly '3.1': readonly Field[];
    readonly '5.0': readonly Field[];
};
/** A display's key from a `displays` entry: the address (v3.1) or `<screen>/<index>` (v5.0), or what is wrong. */
export declare function displayKey(version: '3.1' | '5.0', display: number | string): string | {
    problem: string;
};
/** Whether display `key` is one that `screen`/`index` names, 0xFFFF naming every one. */
export declare function matches(key: string, screen: number, index: number): boolean;
