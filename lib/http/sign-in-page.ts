/**
 * The page a browser gets instead of a bare 401 (R-H11): it says the hub wants credentials
 * and, when tokens are configured, offers a token field. The form sends the token as
 * `?access_token=` to the same address, which signs the browser in and comes back without
 * it, as a link with the token would. Nothing on it runs a script.
 */
import { createHash } from 'node:crypto';

const STYLE = [
  'body{font:16px/1.4 system-ui,sans-serif;background:#111418;color:#e6e8eb;display:grid;place-items:center;min-height:90vh;margin:0}',
  'main{max-width:22rem;padding:1.5rem;border:1px solid #2c323a;border-radius:8px;background:#181c21}',
  'h1{font-size:1.2rem;margin:0 0 .5rem}p{color:#a9b0b8;margin:.5rem 0}',
  'input{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;margin:.5rem 0;background:#0d0f12;color:inherit;border:1px solid #3a414a;border-radius:4px}',
  'button{font:inherit;padding:.5rem 1rem;background:#2f6fde;color:#fff;border:0;border-radius:4px}.refused{color:#ff8080}',
].join('');

/** The page's Content-Security-Policy: its one inline style by hash, forms to the hub alone, nothing else. */
export const signInPolicy = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

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
export function signInPage({ token, basic, refused, query }: SignInPageOptions): string {
  const kept = [...new URLSearchParams(query)]
    .filter(([name]) => name !== 'access_token')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const form = token
    ? `<form method="get">${kept}<label for="token">token</label><input id="token" name="access_token" type="password" autocomplete="current-password" required autofocus><button>sign in</button></form>`
    : '';
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>patchbay: sign in</title><style>${STYLE}</style></head><body><main>`,
    '<h1>patchbay: sign in</h1>',
    refused ? '<p class="refused">That token was not accepted.</p>' : '',
    token ? '<p>This hub asks for a token. It signs this browser in; the address keeps no trace of it.</p>' : '',
    basic ? `<p>${token ? 'Or reload' : 'Reload'} the page to be asked for a user name and password.</p>` : '',
    form,
    '</main></body></html>',
  ].join('');
}
