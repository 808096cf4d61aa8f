import { type ValueType } from '../../sdk/index.ts';
import { type Template } from './template.ts';
export declare const httpClientSettings: import("@sinclair/typebox").TObject<{
    requests: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        url: import("@sinclair/typebox").TString;
        method: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"GET">, import("@sinclair/typebox").TLiteral<"POST">, import("@sinclair/typebox").TLiteral<"PUT">, import("@sinclair/typebox").TLiteral<"PATCH">, import("@sinclair/typebox").TLiteral<"DELETE">]>>;
        headers: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
        body: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        every: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
        timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        followRedirects: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
        redirectOrigins: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        extract: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TObject<{
            pointer: import("@sinclair/typebox").TString;
            type: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<"S" | "B" | "I" | "F">[]>;
        }>>>;
    }>>;
    maxInFlight: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxBodyBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>;
export interface Extract {
    readonly name: string;
    readonly tokens: readonly string[];
    readonly type: ValueType;
}
export interface Request {
    readonly id: string;
    readonly method: string;
    readonly url: Template;
    /** Of each placeholder of the URL, whether it stands in the path (its value may not be `.` or `..`). */
    readonly inPath: readonly boolean[];
    readonly followRedirects: boolean;
    /** Origins besides the URL's own that a redirect may go to. */
    readonly redirectOrigins: readonly string[];
    /** The URL as shown: scheme, host and path, without user info or query. */
    readonly shown: string;
    readonly headers: readonly (readonly [string, Template])[];
    readonly body: Template | undefined;
    readonly every: number | undefined;
    readonly timeout: number;
    readonly extracts: readonly Extract[];
}
export interface HttpClientSettings {
    readonly requests: readonly Request[];
    readonly maxInFlight: number;
    readonly maxBodyBytes: number;
}
export declare function parseRequests(written: {
    readonly requests: readonly {
        readonly id: string;
        readonly url: string;
        readonly method: string;
        readonly headers?: Readonly<Record<string, string>>;
        readonly body?: string;
        readonly every?: number;
        readonly timeout: number;
        readonly followRedirects: boolean;
        readonly redirectOrigins: readonly string[];
        readonly extract: Readonly<Record<string, {
            readonly pointer: string;
            readonly type: 'S' | 'B' | 'I' | 'F';
        }>>;
    }[];
    readonly maxInFlight: number;
    readonly maxBodyBytes: number;
}): import("../../core/issue.ts").Checked<HttpClientSettings>;
