/**
 * The query of a `/ws` upgrade, parsed once at the edge into what the client asked for:
 * its filters (R-H3), batches (R-W1), a rate limit (R-W2), who changed each value (R-O2),
 * parameter events and a log level (R-U1), and a resume (R-W3). A pure function: the uWS glue only hands it the query string.
 */
import { Type } from '@sinclair/typebox';
import { logLevels } from '../../core/log.ts';
import type { Pattern } from '../../core/regex.ts';
import { compileFilters } from '../filters.ts';
import { rateAtOrBelow } from './rate-ladder.ts';
import type { CodedError } from '../respond.ts';
import { RESUME_TOKEN, UNKNOWN_TOKEN } from './resume.ts';

/** A query flag as `flag` reads it: `1` or `true` on, `0` or `false` off. */
export const flagSchema = (options: { description?: string } = {}) =>
  Type.Union([Type.Literal('1'), Type.Literal('0'), Type.Literal('true'), Type.Literal('false')], options);

/** The options of an upgrade, as `/asyncapi.json` describes them (R-DS1); `parseUpgradeQuery` reads each. */
export const upgradeOptions = Type.Object({
  filter: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Regular expressions (RE2, repeatable): only addresses any of them matches are sent (R-H3).',
    }),
  ),
  batch: Type.Optional(
    flagSchema({
      description: 'One JSON array of items per event-loop turn instead of a message per item (R-W1).',
    }),
  ),
  maxHz: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1000,
      description:
        'Each parameter at most this many times a second, its latest value always (R-W2); taken down to the rate ladder; 0: no limit.',
    }),
  ),
  origins: Type.Optional(
    flagSchema({
      description: 'Each value says who changed it last and when (`by`, `at`, R-O2).',
    }),
  ),
  meta: Type.Optional(
    flagSchema({
      description: 'Each value of the snapshot comes with what its parameter says of itself (`meta`: label, unit, range, choices, R-PK6).',
    }),
  ),
  events: Type.Optional(
    flagSchema({
      description: 'Also `{"event": "parameters"}` and `{"event": "connections"}` when they change (R-U1).',
    }),
  ),
  log: Type.Optional(
    Type.Union(
      logLevels.map((level) => Type.Literal(level)),
      { description: "Also the hub's log lines at this level and above (full access or a `metrics` token)." },
    ),
  ),
  resume: Type.Optional(
    Type.String({
      description: '`1` for a stream the client can come back to, or the token of its greeting to come back (R-W3).',
    }),
  ),
  seq: Type.Optional(Type.Integer({ minimum: 0, description: 'With `resume=<token>`: the last `seq` the client received (R-W3).' })),
  access_token: Type.Optional(Type.String({ description: 'The token, for clients that cannot send a header (R-H5).' })),
});

export interface UpgradeRequest {
  readonly filters: readonly Pattern[];
  readonly batch: boolean;
  /** At most this many times a second per parameter, a step of the rate ladder (`rate-ladder.ts`); 0: no limit. */
  readonly maxHz: number;
  /** `?origins=1`: each value comes with `by` and `at`, who changed it last and when (R-O2). */
  readonly origins: boolean;
  /** `?meta=1`: the snapshot's values come with their parameters' `meta` (R-PK6). */
  readonly meta: boolean;
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
  const meta = flag(params.get('meta'));
  if (meta === undefined) return bad('meta is 1 or 0 (true or false)');
  if (params.getAll('resume').length > 1 || params.getAll('seq').length > 1) return bad('resume and seq are given once each');
  const resume = resumeAsked(params.get('resume'), params.get('seq'));
  if (typeof resume === 'string') return bad(resume);
  return { ok: true, value: { filters: filters.value, batch, maxHz, origins, meta, events, logLevel, resume } };
}

/** `?resume=` and `?seq=`, or what is wrong with them. */
function resumeAsked(resume: string | null, seq: string | null): ResumeAsked | undefined | string {
  if (resume === null || resume === '0' || resume === 'false') return seq === null ? undefined : 'seq comes with resume=<token>';
  if (resume === '1' || resume === 'true') return seq === null ? {} : 'seq comes with resume=<token>, not resume=1';
  // A token this hub could not have given, or a `seq` that is none, is a token it does not
  // know, as one from before a restart is: a resync and a snapshot (R-W3), not a refusal.
  if (!RESUME_TOKEN.test(resume)) return { token: UNKNOWN_TOKEN };
  if (seq === null || !/^\d{1,16}$/.test(seq) || !Number.isSafeInteger(Number(seq))) return { token: resume };
  return { token: resume, seq: Number(seq) };
}

const isLogLevel = (value: string): value is (typeof logLevels)[number] => (logLevels as readonly string[]).includes(value);

/** A yes/no query parameter: absent is no; anything but 1/0/true/false is undefined. */
export function flag(value: string | null): boolean | undefined {
  if (value === null || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true' || value === '') return true;
  return undefined;
}
