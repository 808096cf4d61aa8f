/**
 * The edge of every request of one rest-api connection: which name it was sent to (DNS
 * rebinding, hosts.ts), whose page it comes from (R-H10), who sends it (R-H5, R-A1) and the
 * sign-in of browsers by token (R-H11). It answers the requests it refuses; the others go
 * on with the access their credentials give.
 */
import { anonymousAccess, type ClientAccess } from './access.ts';
import type { Authenticator } from './auth.ts';
import { HostAllowList } from './hosts.ts';
import { corsHeaders, OriginPolicy, preflightHeaders, SAME_ORIGIN } from './origins.ts';
import { answerWith, type CodedError, jsonClient, sendEmpty, sendError, wantsPage, withPolicy } from './respond.ts';
import { signInPage, signInPolicy } from './sign-in-page.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

const UNAUTHORIZED: CodedError = { code: 'PB_UNAUTHORIZED', message: 'authentication required' };
const CROSS_ORIGIN: CodedError = { code: 'PB_CROSS_ORIGIN', message: 'a page of another origin may not change parameters here' };

export interface EdgeOptions {
  readonly auth: Authenticator;
  /** Origins besides the hub's own whose pages may change parameters (R-H10). */
  readonly allowedOrigins: readonly string[];
  /** Names besides IP literals, localhost and the machine's own that the hub answers under. */
  readonly hostnames: readonly string[];
  /** Served over TLS: the hub's origin is `https://`, and cookies are `Secure`. */
  readonly secure: boolean;
}

export class Edge {
  private auth: Authenticator;
  private readonly hosts: HostAllowList;
  private readonly origins: OriginPolicy;
  private readonly secure: boolean;
  private challenges: readonly (readonly [string, string])[];
  /** The session cookie's name holds the port: browsers share cookies between the ports of a host. */
  private cookieName = 'patchbay';

  constructor({ auth, allowedOrigins, hostnames, secure }: EdgeOptions) {
    this.auth = auth;
    this.hosts = new HostAllowList(hostnames);
    this.origins = new OriginPolicy(allowedOrigins, secure ? 'https' : 'http');
    this.secure = secure;
    this.challenges = auth.challenges.map((challenge) => ['WWW-Authenticate', challenge] as const);
  }

  /** Takes new credentials in place: every request from now on is admitted by them. */
  useCredentials(auth: Authenticator): void {
    this.auth = auth;
    this.challenges = auth.challenges.map((challenge) => ['WWW-Authenticate', challenge] as const);
  }

  get sessionCookie(): string {
    return this.cookieName;
  }

  /** The session cookie a request was let in by alone (no header, no token in the address); undefined otherwise. */
  sessionOnly(req: HttpRequest): string | undefined {
    if (!this.auth.required || req.getHeader('authorization') !== '' || (req.getQuery('access_token') ?? '') !== '') return undefined;
    const session = cookieValue(req.getHeader('cookie'), this.cookieName);
    return session === '' ? undefined : session;
  }

  /** Whether a session still signs its browser in: a new sign-in key, or its token changed, ends it. */
  signedIn(session: string): boolean {
    return this.auth.identify({ authorization: '', session }) !== undefined;
  }

  /** Names the session cookie after the port the connection listens on. */
  listeningOn(port: number): void {
    this.cookieName = `patchbay-${port}`;
  }

  /**
   * A foreign page's state change is refused (R-H10), CORS headers go on every answer to an
   * allowed origin, and the credentials give the client its access; a GET with a valid
   * `?access_token=` signs a browser in (R-H11). Answers the request and returns undefined
   * when it goes no further; a refused `upgrade` closes the connection, since the client
   * was waiting for a socket, not more HTTP.
   */
  admitted(res: HttpResponse, req: HttpRequest, changesState: boolean, upgrade: boolean): ClientAccess | undefined {
    const close = upgrade;
    const host = req.getHeader('host');
    if (!this.answersTo(host)) {
      sendError(res, badHost(host), jsonClient(req), { close });
      return undefined;
    }
    // A read from a page of another origin is answered without CORS headers (the page
    // cannot see it), so reads need judging only when other origins are allowed.
    const verdict =
      changesState || this.origins.allowsOthers
        ? this.origins.judge(req.getHeader('origin'), req.getHeader('sec-fetch-site'), host)
        : SAME_ORIGIN;
    if (verdict.cors) answerWith(res, corsHeaders(verdict.cors));
    if (verdict.foreign && changesState) {
      sendError(res, CROSS_ORIGIN, jsonClient(req), { close });
      return undefined;
    }
    const { auth } = this;
    if (!auth.required) return anonymousAccess;
    const accessToken = req.getQuery('access_token') ?? '';
    if (accessToken !== '' && !upgrade) {
      const access = auth.byToken(accessToken);
      if (access) {
        this.signIn(res, req, access);
        return undefined;
      }
    }
    const access = auth.identify({
      authorization: req.getHeader('authorization'),
      accessToken: upgrade ? accessToken : '',
      session: cookieValue(req.getHeader('cookie'), this.cookieName),
    });
    if (access) return access;
    const json = jsonClient(req);
    // A person at a browser gets a page to sign in on, not the bare reason (R-H11).
    if (!upgrade && !json && wantsPage(req)) {
      withPolicy(res, signInPolicy);
      const html = signInPage({
        token: auth.offersTokens,
        basic: auth.offersBasic,
        refused: accessToken !== '',
        query: req.getQuery() ?? '',
      });
      sendError(res, UNAUTHORIZED, false, { headers: this.challenges, html });
      return undefined;
    }
    sendError(res, UNAUTHORIZED, json, { headers: this.challenges, close });
    return undefined;
  }

  /** CORS preflights: allowed origins get their answer; foreign pages 403; anyone else learns the methods. */
  preflight(res: HttpResponse, req: HttpRequest): void {
    const host = req.getHeader('host');
    if (!this.answersTo(host)) return sendError(res, badHost(host), jsonClient(req));
    const verdict = this.origins.judge(req.getHeader('origin'), req.getHeader('sec-fetch-site'), host);
    if (verdict.cors) return sendEmpty(res, 204, [...corsHeaders(verdict.cors), ...preflightHeaders]);
    if (verdict.foreign) return sendError(res, CROSS_ORIGIN, jsonClient(req));
    sendEmpty(res, 204, [['Allow', 'GET, POST, OPTIONS']]);
  }

  /**
   * A request without `Host` comes from no browser (they always send it), so it cannot be
   * a rebinding page; HTTP/1.0 probes are answered.
   */
  private answersTo(host: string): boolean {
    return host === '' || this.hosts.allows(host);
  }

  /** R-H11: the session cookie, and the same URL without the token, so it leaves the address bar and history. */
  private signIn(res: HttpResponse, req: HttpRequest, access: ClientAccess): void {
    const query = new URLSearchParams(req.getQuery() ?? '');
    query.delete('access_token');
    const rest = query.toString();
    const cookie = `${this.cookieName}=${this.auth.sessionFor(access)}; HttpOnly; SameSite=Strict; Path=/${this.secure ? '; Secure' : ''}`;
    sendEmpty(res, 303, [
      ['Location', `${pathOfHub(req.getUrl())}${rest ? `?${rest}` : ''}`],
      ['Set-Cookie', cookie],
      ['Cache-Control', 'no-store'],
    ]);
  }
}

/** The refusal of a `Host` the hub does not answer under; the name is cut short, as a client wrote it. */
function badHost(host: string): CodedError {
  const shown = JSON.stringify(host.length > 100 ? `${host.slice(0, 100)}…` : host);
  return {
    code: 'PB_BAD_HOST',
    message: `this hub does not answer under the name ${shown}; use its address, or add the name to the rest-api's hostnames`,
  };
}

/**
 * A path of this hub for a `Location`: `//evil.example/x` or `/\evil.example/x` would send
 * the browser to another site, and browsers drop tabs and line breaks from a URL before
 * reading it, so every slash, backslash or such character it begins with becomes one slash.
 */
export function pathOfHub(url: string): string {
  return `/${url.replace(/^[/\\\t\n\r]+/, '')}`;
}

/** The value of one cookie in a `Cookie` header, or "". */
function cookieValue(header: string, name: string): string {
  if (header === '') return '';
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return '';
}
