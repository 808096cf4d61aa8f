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
export const SAME_ORIGIN: OriginVerdict = { foreign: false, cors: undefined };
const FOREIGN: OriginVerdict = { foreign: true, cors: undefined };

export class OriginPolicy {
  private readonly allowed: ReadonlySet<string>;

  /** `allowedOrigins` as checked by the flow file: `scheme://host[:port]`, compared case-insensitively. */
  constructor(
    allowedOrigins: readonly string[],
    private readonly scheme: 'http' | 'https' = 'http',
  ) {
    this.allowed = new Set(allowedOrigins.map((origin) => origin.toLowerCase()));
  }

  /** True when some origin besides the hub's own is allowed: only then do reads need judging (for their CORS headers). */
  get allowsOthers(): boolean {
    return this.allowed.size > 0;
  }

  /** Judges a request by its `Origin`, `Sec-Fetch-Site` and `Host` headers; `host` must be one the hub answers under. */
  judge(origin: string, fetchSite: string, host: string): OriginVerdict {
    if (origin === '' && fetchSite === '') return SAME_ORIGIN;
    if (origin !== '') {
      const lower = origin.toLowerCase();
      if (this.allowed.has(lower)) return { foreign: false, cors: origin };
      if (host === '' || lower !== `${this.scheme}://${host.toLowerCase()}`) return FOREIGN;
    }
    // `same-site` is another port or subdomain: another origin, as far as the hub is concerned.
    return fetchSite === 'cross-site' || fetchSite === 'same-site' ? FOREIGN : SAME_ORIGIN;
  }
}

/** The headers of an answer to an allowed origin (R-H10). */
export function corsHeaders(origin: string): [string, string][] {
  return [
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Allow-Credentials', 'true'],
    ['Access-Control-Expose-Headers', 'X-Patchbay-Code'],
    ['Vary', 'Origin'],
  ];
}

/** The extra headers of a preflight answer for an allowed origin. */
export const preflightHeaders: readonly [string, string][] = [
  ['Access-Control-Allow-Methods', 'GET, POST, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Authorization, Content-Type, Accept'],
  ['Access-Control-Max-Age', '600'],
];
