/**
 * The query of a `/ws` upgrade, parsed once at the edge into what the client asked for:
 * its filters (R-H3), batches (R-W1), a rate limit (R-W2), who changed each value (R-O2),
 * parameter events and a log level (R-U1). A pure function: the uWS glue only hands it the query string.
 */
import { logLevels } from '../core/log.ts';
import type { Pattern } from '../core/regex.ts';
import { compileFilters } from './filters.ts';
import { rateAtOrBelow } from './rate-ladder.ts';
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

export type UpgradeQuery = { readonly ok: true; readonly value: UpgradeRequest } | { readonly ok: false; readonly error: CodedError };

const bad = (message: string): UpgradeQuery => ({ ok: false, error: { code: 'PB_BAD_REQUEST', message } });

/** Parses an upgrade's query; `mayReadLog` is false for a scoped token, which may not follow the log. */
export function parseUpgradeQuery(query: string, { mayReadLog }: { readonly mayReadLog: boolean }): UpgradeQuery {
  const params = new URLSearchParams(query);
  const filters = compileFilters(params.getAll('filter'));
  if (!filters.ok) return { ok: false, error: filters.error };
  const batch = flag(params.get('batch'));
  if (batch === undefined) return bad('batch is 1 or 0 (true or false)');
  const maxHz = rateAtOrBelow(Number(params.get('maxHz') ?? 0));
  if (maxHz === undefined) return bad('maxHz is a number of times a second, 0.1 to 1000 (0: no limit)');
  const logLevel = params.get('log') ?? '';
  if (logLevel !== '' && !isLogLevel(logLevel)) return bad(`log is one of ${logLevels.join(', ')}`);
  // The log names every address and client: only for full access, not for scoped tokens.
  if (logLevel !== '' && !mayReadLog) return { ok: false, error: { code: 'PB_FORBIDDEN', message: 'this token may not read the log' } };
  const events = flag(params.get('events'));
  if (events === undefined) return bad('events is 1 or 0 (true or false)');
  const origins = flag(params.get('origins'));
  if (origins === undefined) return bad('origins is 1 or 0 (true or false)');
  return { ok: true, value: { filters: filters.value, batch, maxHz, origins, events, logLevel } };
}

const isLogLevel = (value: string): value is (typeof logLevels)[number] => (logLevels as readonly string[]).includes(value);

/** A yes/no query parameter: absent is no; anything but 1/0/true/false is undefined. */
function flag(value: string | null): boolean | undefined {
  if (value === null || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true' || value === '') return true;
  return undefined;
}
