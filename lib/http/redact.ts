/**
 * What `GET /connections` and `/problems` show of secrets: nothing. Connections report
 * their settings and reasons as they have them (a broker URL with its password, a device's
 * headers), and these answers go to any client with read access, so they are masked once
 * here, by the shape lib/core/secrets.ts gives (a key that names a secret, a value of
 * `headers` or `secrets`, in a text a URL's user info — `mqtt://user:pass@host` →
 * `mqtt://***@host` — and secret-named parameters and JSON members), whatever the
 * connection type. An empty value stays empty, so that "not set" still shows.
 */

import { hiddenInText, holdsSecret, namesSecret } from '../core/secrets.ts';

const MASK = '***';

/** `value` with secrets masked (see above); a new value, the given one is not changed. */
export function redacted(value: unknown, key = ''): unknown {
  if (isEmpty(value)) return value;
  if (namesSecret(key)) return MASK;
  if (typeof value === 'string') return hiddenInText(value, MASK);
  if (Array.isArray(value)) return value.map((item) => redacted(item));
  if (typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([name, item]) => [
      name,
      holdsSecret(name, key) && !isEmpty(item) ? MASK : redacted(item, name),
    ]),
  );
}

function isEmpty(value: unknown): boolean {
  return value === '' || value === null || value === undefined;
}
