import { logLevels } from '../../core/log.ts';
import type { Pattern } from '../../core/regex.ts';
import type { CodedError } from '../respond.ts';
/** The options of an upgrade, as `/asyncapi.json` describes them (R-DS1); `parseUpgradeQuery` reads each. */
export declare const upgradeOptions: import("@sinclair/typebox").TObject<{
    filter: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    batch: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"1">, import("@sinclair/typebox").TLiteral<"0">, import("@sinclair/typebox").TLiteral<"true">, import("@sinclair/typebox").TLiteral<"false">]>>;
    maxHz: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TNumber>;
    origins: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"1">, import("@sinclair/typebox").TLiteral<"0">, import("@sinclair/typebox").TLiteral<"true">, import("@sinclair/typebox").TLiteral<"false">]>>;
    events: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"1">, import("@sinclair/typebox").TLiteral<"0">, import("@sinclair/typebox").TLiteral<"true">, import("@sinclair/typebox").TLiteral<"false">]>>;
    log: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<"error" | "trace" | "fatal" | "warn" | "info" | "debug">[]>>;
    resume: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    seq: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    access_token: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
}>;
export interface UpgradeRequest {
    readonly filters: readonly Pattern[];
    readonly batch: boolean;
    /** At most this many times a second per parameter, a step of the rate ladder (`rate-ladder.ts`); 0: no limit. */
    readonly maxHz: number;
    /** `?origins=1`: each value comes with `by` and `at`, who changed it last and when (R-O2). */
    readonly origins: boolean;
    readonly events: boolean;
    /** The log level the client follows; "" for none. */
    readonly logLevel: (typeof logLevels)[number] | '';
    /** `?resume=1`, or `?resume=<token>&seq=<n>` to come back (R-W3); undefined when not asked. */
    readonly resume: ResumeAsked | undefined;
}
/** A client that may come back for what it missed (R-W3): `{}` for `?resume=1`, else the token it was given and the last `seq` it received. */
export interface ResumeAsked {
    readonly token?: string;
    /** Undefined when it received none after its greeting: it is sent a snapshot. */
    readonly seq?: number;
}
export type UpgradeQuery = {
    readonly ok: true;
    readonly value: UpgradeRequest;
} | {
    readonly ok: false;
    readonly error: CodedError;
};
/** Parses an upgrade's query; `mayReadLog` is false for a scoped token, which may not follow the log. */
export declare function parseUpgradeQuery(query: string, { mayReadLog }: {
    readonly mayReadLog: boolean;
}): UpgradeQuery;
