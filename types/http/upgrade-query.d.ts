/**
 * The query of a `/ws` upgrade, parsed once at the edge into what the client asked for:
 * its filters (R-H3), batches (R-W1), a rate limit (R-W2), who changed each value (R-O2),
 * parameter events and a log level (R-U1), and a resume (R-W3). A pure function: the uWS glue only hands it the query string.
 */
import { logLevels } from '../core/log.ts';
import type { Pattern } from '../core/regex.ts';
import type { CodedError } from './respond.ts';
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
