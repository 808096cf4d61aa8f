import type { Encoding } from './framing.ts';
export declare const DEFAULT_DELIMITER = "\r\n";
/** The settings every line-protocol type has, beside those of its transport. */
export declare const lineSettings: {
    parameters: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>]>>;
    delimiter: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    length: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    lengthPrefix: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<1>, import("@sinclair/typebox").TLiteral<2>, import("@sinclair/typebox").TLiteral<4>]>>;
    encoding: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"utf8">, import("@sinclair/typebox").TLiteral<"latin1">, import("@sinclair/typebox").TLiteral<"hex">]>>;
    maxFrameBytes: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxFramesPerSecond: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    receive: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        match: import("@sinclair/typebox").TString;
        each: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        set: import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>;
    }>>>;
    send: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        parameter: import("@sinclair/typebox").TString;
        frame: import("@sinclair/typebox").TString;
        values: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
    }>>>;
    poll: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        frame: import("@sinclair/typebox").TString;
        every: import("@sinclair/typebox").TInteger;
    }>>>;
    timeout: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
};
/** The shared settings as the schema fills them in. */
export interface LineSettingsWritten {
    readonly parameters: string | readonly string[];
    readonly delimiter?: string;
    readonly length?: number;
    readonly lengthPrefix?: 1 | 2 | 4;
    readonly encoding: Encoding;
    readonly maxFrameBytes: number;
    readonly maxFramesPerSecond: number;
    readonly receive: readonly {
        readonly match: string;
        readonly each?: string;
        readonly set: Readonly<Record<string, string>>;
    }[];
    readonly send: readonly {
        readonly parameter: string;
        readonly frame: string;
        readonly values?: Readonly<Record<string, string>>;
    }[];
    readonly poll: readonly {
        readonly frame: string;
        readonly every: number;
    }[];
    readonly timeout: number;
}
