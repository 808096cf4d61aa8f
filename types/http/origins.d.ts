/**
 * R-H10: which browser pages may change parameters. A browser says where a request comes
 * from (`Origin`, `Sec-Fetch-Site`); clients that are not browsers send neither and are
 * not affected. The hub's own origin is its scheme (`http://`, or `https://` with TLS) and
 * the request's `Host`, which the edge has already checked against the names the hub
 * answers under (hosts.ts): a `Host` that an attacker chose never gets this far.
 */
export interface OriginVerdict {
    /** True for a request a page of another origin sent, whose origin is not allowed. */
    readonly foreign: boolean;
    /** The origin to name in CORS headers: an allowed origin other than the hub's own. */
    readonly cors: string | undefined;
}
/** A request from the hub's own pages, or from a client that is not a browser. */
export declare const SAME_ORIGIN: OriginVerdict;
export declare class OriginPolicy {
    private readonly scheme;
    private readonly allowed;
    /** `allowedOrigins` as checked by the flow file: `scheme://host[:port]`, compared case-insensitively. */
    constructor(allowedOrigins: readonly string[], scheme?: 'http' | 'https');
    /** True when some origin besides the hub's own is allowed: only then do reads need judging (for their CORS headers). */
    get allowsOthers(): boolean;
    /** Judges a request by its `Origin`, `Sec-Fetch-Site` and `Host` headers; `host` must be one the hub answers under. */
    judge(origin: string, fetchSite: string, host: string): OriginVerdict;
}
/** The headers of an answer to an allowed origin (R-H10). */
export declare function corsHeaders(origin: string): [string, string][];
/** The extra headers of a preflight answer for an allowed origin. */
export declare const preflightHeaders: readonly [string, string][];
