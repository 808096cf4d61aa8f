/**
 * What `GET /connections` and `/problems` show of secrets: nothing. Connections report
 * their settings and reasons as they have them (a broker URL with its password, a device's
 * headers), and these answers go to any client with read access, so they are masked once
 * here, by shape, whatever the connection type:
 * - the user info of a URL anywhere in a text (`mqtt://user:pass@host` → `mqtt://***@host`);
 * - the value of a key whose last word names a secret (`password`, `apiKey`,
 *   `client_secret`, `accessToken`…; not `keys`, `keyboard` or `passphraseEnv`, which
 *   names a variable);
 * - every value of a `headers` object, where credentials travel under any name.
 * An empty value stays empty, so that "not set" still shows.
 */

const MASK = '***';
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
/** A URL's user info: scheme, `//`, then anything up to an `@` before the host. */
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

/** `value` with secrets masked (see above); a new value, the given one is not changed. */
export function redacted(value: unknown, key = ''): unknown {
  if (isEmpty(value)) return value;
  if (namesSecret(key)) return MASK;
  if (typeof value === 'string') return value.replace(USER_INFO, `$1${MASK}@`);
  if (Array.isArray(value)) return value.map((item) => redacted(item));
  if (typeof value !== 'object') return value;
  const headers = key.toLowerCase() === 'headers';
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([name, item]) => [name, headers && !isEmpty(item) ? MASK : redacted(item, name)]),
  );
}

function isEmpty(value: unknown): boolean {
  return value === '' || value === null || value === undefined;
}

/** True when the last word of `key` (camelCase, snake_case, kebab-case) names a secret. */
function namesSecret(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/);
  return SECRET_WORDS.has(words.at(-1) ?? '');
}
