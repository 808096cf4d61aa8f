/**
 * What of a URL is shown — in `/connections`, in reasons, in the log: never its user info or
 * query, where secrets go.
 */
/** What a URL shows of itself: no user info, no query, no fragment (and the placeholders as written). */
export declare function shownUrl(url: string): string;
/** `message` with any URL in it cut to what `shownUrl` shows, `url` itself first. */
export declare function withoutUrl(message: string, url: string): string;
