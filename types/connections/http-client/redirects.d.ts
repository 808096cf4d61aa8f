import type { Request } from './settings.ts';
/**
 * Sends the request, following redirects as the request allows: on its own origin, or to
 * one it lists, never with its headers to another origin; a 303, or a 301/302 of a POST,
 * goes on as a GET without the body, as browsers do.
 */
export declare function sendFollowing(request: Request, url: string, init: RequestInit & {
    headers: Record<string, string>;
}): Promise<Response>;
