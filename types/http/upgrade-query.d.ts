/**
 * The query of a `/ws` upgrade, parsed once at the edge into what the client asked for:
 * its filters (R-H3), batches (R-W1), a rate limit (R-W2), who changed each value (R-O2),
 * parameter events and a log level (R-U1). A pure function: the uWS glue only hands it the query string.
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
