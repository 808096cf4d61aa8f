/**
 * The edge of every request of one rest-api connection: whose page it comes from (R-H10),
 * who sends it (R-H5, R-A1) and the sign-in of browsers by token (R-H11). It answers the
 * requests it refuses; the others go on with the access their credentials give.
 */
import { type Access, fullAccess } from './access.ts';
import type { Authenticator } from './auth.ts';
import { corsHeaders, OriginPolicy, preflightHeaders, SAME_ORIGIN } from './origins.ts';
import { answerWith, type CodedError, jsonClient, sendEmpty, sendError } from './respond.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

const UNAUTHORIZED: CodedError = { code: 'PB_UNAUTHORIZED', message: 'authentication required' };
const CROSS_ORIGIN: CodedError = { code: 'PB_CROSS_ORIGIN', message: 'a page of another origin may not change parameters here' };

export class Edge {
  private readonly origins: OriginPolicy;
  private readonly challenges: readonly (readonly [string, string])[];
  /** The session cookie's name holds the port: browsers share cookies between the ports of a host. */
  private cookieName = 'patchbay';

  constructor(
    private readonly auth: Authenticator,
    allowedOrigins: readonly string[],
  ) {
    this.origins = new OriginPolicy(allowedOrigins);
    this.challenges = auth.challenges.map((challenge) => ['WWW-Authenticate', challenge] as const);
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
  admitted(res: HttpResponse, req: HttpRequest, changesState: boolean, upgrade: boolean): Access | undefined {
    // A read from a page of another origin is answered without CORS headers (the page
    // cannot see it), so reads need judging only when other origins are allowed.
    const verdict =
      changesState || this.origins.allowsOthers
        ? this.origins.judge(req.getHeader('origin'), req.getHeader('sec-fetch-site'), req.getHeader('host'))
        : SAME_ORIGIN;
    if (verdict.cors) answerWith(res, corsHeaders(verdict.cors));
    const close = upgrade;
    if (verdict.foreign && changesState) {
      sendError(res, CROSS_ORIGIN, jsonClient(req), { close });
      return undefined;
    }
    const { auth } = this;
    if (!auth.required) return fullAccess;
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
    sendError(res, UNAUTHORIZED, jsonClient(req), { headers: this.challenges, close });
    return undefined;
  }

  /** CORS preflights: allowed origins get their answer; foreign pages 403; anyone else learns the methods. */
  preflight(res: HttpResponse, req: HttpRequest): void {
    const verdict = this.origins.judge(req.getHeader('origin'), req.getHeader('sec-fetch-site'), req.getHeader('host'));
    if (verdict.cors) return sendEmpty(res, 204, [...corsHeaders(verdict.cors), ...preflightHeaders]);
    if (verdict.foreign) return sendError(res, CROSS_ORIGIN, jsonClient(req));
    sendEmpty(res, 204, [['Allow', 'GET, POST, OPTIONS']]);
  }

  /** R-H11: the session cookie, and the same URL without the token, so it leaves the address bar and history. */
  private signIn(res: HttpResponse, req: HttpRequest, access: Access): void {
    const query = new URLSearchParams(req.getQuery() ?? '');
    query.delete('access_token');
    const rest = query.toString();
    const cookie = `${this.cookieName}=${this.auth.sessionFor(access)}; HttpOnly; SameSite=Strict; Path=/`;
    sendEmpty(res, 303, [
      ['Location', `${req.getUrl()}${rest ? `?${rest}` : ''}`],
      ['Set-Cookie', cookie],
      ['Cache-Control', 'no-store'],
    ]);
  }
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
