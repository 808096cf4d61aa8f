/**
 * The edge of every request of one rest-api connection: which name it was sent to (DNS
 * rebinding, hosts.ts), whose page it comes from (R-H10), who sends it (R-H5, R-A1) and the
 * sign-in of browsers by token (R-H11). It answers the requests it refuses; the others go
 * on with the access their credentials give.
 */
import { type ClientAccess } from './access.ts';
import type { Authenticator } from './auth.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';
export interface EdgeOptions {
    readonly auth: Authenticator;
    /** Origins besides the hub's own whose pages may change parameters (R-H10). */
    readonly allowedOrigins: readonly string[];
    /** Names besides IP literals, localhost and the machine's own that the hub answers under. */
    readonly hostnames: readonly string[];
    /** Served over TLS: the hub's origin is `https://`, and cookies are `Secure`. */
    readonly secure: boolean;
}
export declare class Edge {
    private auth;
    private readonly hosts;
    private readonly origins;
    private readonly secure;
    private challenges;
    /** The session cookie's name holds the port: browsers share cookies between the ports of a host. */
    private cookieName;
    constructor({ auth, allowedOrigins, hostnames, secure }: EdgeOptions);
    /** Takes new credentials in place: every request from now on is admitted by them. */
    useCredentials(auth: Authenticator): void;
    get sessionCookie(): string;
    /** The session cookie a request was let in by alone (no header, no token in the address); undefined otherwise. */
    sessionOnly(req: HttpRequest): string | undefined;
    /** Whether a session still signs its browser in: a new sign-in key, or its token changed, ends it. */
    signedIn(session: string): boolean;
    /** Names the session cookie after the port the connection listens on. */
    listeningOn(port: number): void;
    /**
     * A foreign page's state change is refused (R-H10), CORS headers go on every answer to an
     * allowed origin, and the credentials give the client its access; a GET with a valid
     * `?access_token=` signs a browser in (R-H11). Answers the request and returns undefined
     * when it goes no further; a refused `upgrade` closes the connection, since the client
     * was waiting for a socket, not more HTTP.
     */
    admitted(res: HttpResponse, req: HttpRequest, changesState: boolean, upgrade: boolean): ClientAccess | undefined;
    /** CORS preflights: allowed origins get their answer; foreign pages 403; anyone else learns the methods. */
    preflight(res: HttpResponse, req: HttpRequest): void;
    /**
     * A request without `Host` comes from no browser (they always send it), so it cannot be
     * a rebinding page; HTTP/1.0 probes are answered.
     */
    private answersTo;
    /** R-H11: the session cookie, and the same URL without the token, so it leaves the address bar and history. */
    private signIn;
}
/**
 * A path of this hub for a `Location`: `//evil.example/x` or `/\evil.example/x` would send
 * the browser to another site, and browsers drop tabs and line breaks from a URL before
 * reading it, so every slash, backslash or such character it begins with becomes one slash.
 */
export declare function pathOfHub(url: string): string;
