import type { AddressPatterns } from '../core/address-pattern.ts';
import { type ClientAccess } from './access.ts';
/** A named token with the addresses it may read and write (R-A1). */
export interface ScopedToken {
    readonly name: string;
    /** The token, or `sha256:<hex>` of it, so a flow file need not hold the secret. */
    readonly token: string;
    readonly read: AddressPatterns;
    readonly write: AddressPatterns;
    /** May read `/metrics`. */
    readonly metrics?: boolean;
    /** May ask a standby to take over (`POST /failover`). */
    readonly admin?: boolean;
}
export interface Credentials {
    readonly username: string;
    readonly password: string;
    readonly token: string;
    readonly tokens?: readonly ScopedToken[];
}
/** Where a request's credentials may be: the header, a `?access_token=`, the session cookie's value. */
export interface Offered {
    readonly authorization: string;
    readonly accessToken?: string;
    readonly session?: string;
}
/** What signs session cookies besides the credentials. */
export interface SessionSigning {
    /** The key now, read at each use so that a new key signs every browser out at once; default: one of this process alone. */
    readonly key?: () => Buffer;
    /** What the cookie is good for (the connection's id): a cookie of one rest-api does not sign in at another. */
    readonly scope?: string;
}
/**
 * R-H5, R-H11, R-A1: Basic (username + password), Bearer tokens — the `token` with full
 * access and scoped tokens with theirs — and browser sessions signed in with a token. With
 * nothing configured every request has full access. Secrets are hashed before they are
 * compared, in constant time, so a comparison takes the same time whatever is offered.
 */
export declare class Authenticator {
    /** True when requests need credentials. */
    readonly required: boolean;
    /** One `WWW-Authenticate` value per configured scheme, for 401 answers. */
    readonly challenges: readonly string[];
    /** Tokens are configured: a browser may sign in with one. */
    readonly offersTokens: boolean;
    /** A user name and password are configured. */
    readonly offersBasic: boolean;
    private readonly basic;
    private readonly holders;
    private readonly sessionKey;
    private readonly scope;
    constructor({ username, password, token, tokens }: Credentials, { key, scope }?: SessionSigning);
    /** The access the credentials grant, or undefined when they grant none. */
    identify({ authorization, accessToken, session }: Offered): ClientAccess | undefined;
    /** The access of a token, or undefined. Every holder is compared, so the time says nothing of which. */
    byToken(token: string): ClientAccess | undefined;
    /** The value of a session cookie for this access: its name, signed. */
    sessionFor(access: ClientAccess): string;
    private bySession;
    /**
     * The signature of a session: the key, what it is good for, the token's digest and its
     * name. A token changed in the flow file ends the sessions it began, as a new key ends all.
     */
    private sign;
}
