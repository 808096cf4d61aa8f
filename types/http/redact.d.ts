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
/** `value` with secrets masked (see above); a new value, the given one is not changed. */
export declare function redacted(value: unknown, key?: string): unknown;
