/**
 * What `GET /connections` and `/problems` show of secrets: nothing. Connections report
 * their settings and reasons as they have them (a broker URL with its password, a device's
 * headers), and these answers go to any client with read access, so they are masked once
 * here, by the shape lib/core/secrets.ts gives (a key that names a secret, a value of
 * `headers`, a URL's user info: `mqtt://user:pass@host` → `mqtt://***@host`), whatever the
 * connection type. An empty value stays empty, so that "not set" still shows.
 */
/** `value` with secrets masked (see above); a new value, the given one is not changed. */
export declare function redacted(value: unknown, key?: string): unknown;
