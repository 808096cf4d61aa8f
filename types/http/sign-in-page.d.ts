/** The page's Content-Security-Policy: its one inline style by hash, forms to the hub alone, nothing else. */
export declare const signInPolicy: string;
export interface SignInPageOptions {
    /** Tokens are configured: the page offers a token field. */
    readonly token: boolean;
    /** Basic is configured: the browser's own prompt asks for a user name and password. */
    readonly basic: boolean;
    /** A token was offered and not accepted. */
    readonly refused: boolean;
    /** The query of the request, kept through the sign-in (less any token). */
    readonly query: string;
}
/** The HTML of the sign-in page. */
export declare function signInPage({ token, basic, refused, query }: SignInPageOptions): string;
