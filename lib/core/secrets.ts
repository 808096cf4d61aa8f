/**
 * What counts as a secret in settings, by shape, whatever the connection type: what
 * `GET /connections` masks (lib/http/redact.ts) and what the flow editor never sends to a
 * browser (lib/config/flow-secrets.ts).
 * - the value of a key whose last word names a secret (`password`, `apiKey`,
 *   `client_secret`, `accessToken`…; not `keys`, `keyboard` or `passphraseEnv`, which
 *   names a variable, nor the `key` of an entry of `keys`, a surface's key by its number);
 * - every value of a `headers` object, where credentials travel under any name, and of a
 *   `secrets` object (a Companion module's secret fields);
 * - in any text: the user info of a URL (`mqtt://user:pass@host`), the value of a query or
 *   form parameter whose name names a secret (`?api_key=…`, `user=a&password=…`), and that of
 *   a JSON member written in the text (an http-client's body, `"password": "…"`).
 */

const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'passphrase',
  'secret',
  'token',
  'key',
  'apikey',
  'credentials',
  'authorization',
  'cookie',
]);

/**
 * A URL's user info: scheme, `//`, then anything up to the last `@` before the path, as a URL
 * parser reads it (a password may hold `@`: up to the first, its tail was shown).
 */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** A query or form parameter (`?name=value`, `&name=value`, or one that begins the text). */
const PARAMETER = /(^|[?&])([^=&#\s]{1,64})=([^&#\s]*)/g;
/** A member of JSON written in a text, whose value is a text: its quoted name and value. */
const JSON_MEMBER = /("([^"\\]{1,64})"\s*:\s*")((?:[^"\\]|\\.)*)"/g;

/** `text` with what holds a secret in it (see above) replaced by `mask`; an empty value stays empty. */
export function hiddenInText(text: string, mask: string): string {
  return text
    .replace(URL_USER_INFO, `$1${mask}@`)
    .replace(PARAMETER, (whole, before: string, name: string, value: string) =>
      value !== '' && namesSecret(name) ? `${before}${name}=${mask}` : whole,
    )
    .replace(JSON_MEMBER, (whole, head: string, name: string, value: string) =>
      value !== '' && namesSecret(name) ? `${head}${mask}"` : whole,
    );
}

/** True when the last word of `key` (camelCase, snake_case, kebab-case) names a secret. */
export function namesSecret(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/);
  return SECRET_WORDS.has(words.at(-1) ?? '');
}

/** Objects whose every value is a secret, whatever its name: headers, and a Companion module's `secrets`. */
const SECRET_HOLDERS = new Set(['headers', 'secrets']);

/** True for the value of a property `key` of an object that is itself the value of `parentKey`: a secret by its name, or a value of a holder of secrets. */
export function holdsSecret(key: string, parentKey: string): boolean {
  // A surface's key, by its number (an entry of a satellite's `keys`), is no secret.
  if (key === 'key' && parentKey === 'keys') return false;
  return namesSecret(key) || SECRET_HOLDERS.has(parentKey.toLowerCase());
}
