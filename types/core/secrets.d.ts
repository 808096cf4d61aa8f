/**
 * What counts as a secret in settings, by shape, whatever the connection type: what
 * `GET /connections` masks (lib/http/redact.ts) and what the flow editor never sends to a
 * browser (lib/config/flow-secrets.ts).
 * - the value of a key whose last word names a secret (`password`, `apiKey`,
 *   `client_secret`, `accessToken`…; not `keys`, `keyboard` or `passphraseEnv`, which
 *   names a variable);
 * - every value of a `headers` object, where credentials travel under any name;
 * - the user info of a URL anywhere in a text (`mqtt://user:pass@host`).
 */
/** A URL's user info: scheme, `//`, then anything up to an `@` before the host. */
export declare const URL_USER_INFO: RegExp;
/** True when the last word of `key` (camelCase, snake_case, kebab-case) names a secret. */
export declare function namesSecret(key: string): boolean;
/** True for the value of a property `key` of an object that is itself the value of `parentKey`: a secret by its name, or a header. */
export declare function holdsSecret(key: string, parentKey: string): boolean;
