/**
 * Fetching a request's answer, with its redirects followed only as far as the request allows:
 * a redirect is where a device could send the request, and its secrets, elsewhere.
 */
import { Failure } from './failure.ts';
import type { Request } from './settings.ts';
import { shownUrl } from './shown-url.ts';

/** The most redirects a request follows. */
const MAX_REDIRECTS = 5;

/**
 * Sends the request, following redirects as the request allows: on its own origin, or to
 * one it lists, never with its headers to another origin; a 303, or a 301/302 of a POST,
 * goes on as a GET without the body, as browsers do.
 */
export async function sendFollowing(request: Request, url: string, init: RequestInit & { headers: Record<string, string> }) {
  const origin = new URL(url).origin;
  let target = url;
  let next: RequestInit & { headers: Record<string, string> } = init;
  for (let hop = 0; ; hop++) {
    const response = await fetch(target, { ...next, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel();
    const to = new URL(location, target);
    const where = shownUrl(to.href);
    if (!request.followRedirects)
      throw new Failure('PB_BAD_ANSWER', `answered ${response.status}, a redirect to ${where}, and followRedirects is off`);
    if (hop >= MAX_REDIRECTS) throw new Failure('PB_BAD_ANSWER', `more than ${MAX_REDIRECTS} redirects (the last to ${where})`);
    if (to.protocol !== 'http:' && to.protocol !== 'https:')
      throw new Failure('PB_BAD_ANSWER', `redirected to ${to.protocol}, which is not http: or https:`);
    if (to.origin !== origin && !request.redirectOrigins.includes(to.origin))
      throw new Failure(
        'PB_BAD_ANSWER',
        `redirected to ${to.origin}, another origin, not followed: list it in redirectOrigins to follow it`,
      );
    const asGet = response.status === 303 || ((response.status === 301 || response.status === 302) && next.method === 'POST');
    const { body: _body, ...withoutBody } = next;
    next = {
      ...(asGet ? { ...withoutBody, method: 'GET' } : next),
      // The flow's headers (its secrets) stay with the flow's own origin.
      headers: to.origin === origin ? next.headers : {},
    };
    target = to.href;
  }
}
