/**
 * What of a URL is shown — in `/connections`, in reasons, in the log: never its user info or
 * query, where secrets go.
 */

/** What a URL shows of itself: no user info, no query, no fragment (and the placeholders as written). */
export function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1').replace(/[?#].*$/s, '');
}

/** `message` with any URL in it cut to what `shownUrl` shows, `url` itself first. */
export function withoutUrl(message: string, url: string): string {
  const cut = url ? message.split(url).join(shownUrl(url)) : message;
  return cut.replace(/\bhttps?:\/\/[^\s'"]+/gi, (found) => shownUrl(found));
}
