/**
 * The settings of the `http-client` connection (R-J1): their schema, and the requests they
 * are once parsed, checked so that no value can steer a request elsewhere.
 */
import { Type } from '@sinclair/typebox';
import { checked, type Issue, withDefault, parsePointer, type ValueType, valueTypeSetting } from '../../sdk/index.ts';
import { shownUrl } from './shown-url.ts';
import { PLACEHOLDER, type Template, templateOf } from './template.ts';

const valueType = valueTypeSetting('The type of the parameter: S string, B boolean, I integer, F float.', ['S', 'B', 'I', 'F']);

export const httpClientSettings = Type.Object({
  requests: Type.Array(
    Type.Object(
      {
        id: Type.String({
          pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(/[A-Za-z0-9_.-]{1,64})*$',
          description: 'Names the request: its parameters are <id>/send, <id>/status, <id>/body and <id>/<extract name>.',
        }),
        url: Type.String({
          minLength: 1,
          description:
            'http:// or https://; {{connection/parameter}} in the path or query is that value, URL-encoded, when the request is sent (never . or .. in the path); the scheme, host and port are written out.',
        }),
        method: withDefault(
          Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')], {
            description: 'The HTTP method.',
          }),
          'GET',
        ),
        headers: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description:
              'Request headers; {{connection/parameter}} is that value. Put secrets here through ${VARIABLE}: headers are never shown.',
          }),
        ),
        body: Type.Optional(Type.String({ description: 'The request body; {{connection/parameter}} is that value as it is.' })),
        every: Type.Optional(
          Type.Integer({
            minimum: 100,
            description: 'Sends the request again every this many ms (while the previous one is answered, a turn is skipped).',
          }),
        ),
        timeout: withDefault(
          Type.Integer({
            minimum: 100,
            maximum: 300_000,
            description: 'Milliseconds the whole answer may take; past it the request fails (504 to a writer of send).',
          }),
          5000,
        ),
        followRedirects: withDefault(
          Type.Boolean({
            description:
              'Follows a redirect (3xx with Location), at most 5, on the same origin (scheme, host and port) only, unless the other is in `redirectOrigins`; off, a redirect is a failure with where it pointed.',
          }),
          false,
        ),
        redirectOrigins: withDefault(
          Type.Array(Type.String({ minLength: 1 }), {
            description:
              'Origins besides the URL\'s own that a followed redirect may go to ("https://cdn.example.com"); the request\'s headers are never sent to another origin.',
          }),
          [],
        ),
        extract: withDefault(
          Type.Record(
            Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' }),
            Type.Object(
              {
                pointer: Type.String({
                  description: 'A JSON Pointer into the answer: "/data/level", "/items/0/name"; "" is the whole answer.',
                }),
                type: valueType,
              },
              { additionalProperties: false },
            ),
            { description: 'Parameters <id>/<name> set from the JSON answer at each pointer, converted to the type.' },
          ),
          {},
        ),
      },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 256, description: 'The requests this connection sends.' },
  ),
  maxInFlight: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 64,
      description: 'Requests of this connection waiting for their answers at once at most; a send past it is refused (503).',
    }),
    4,
  ),
  maxBodyBytes: withDefault(
    Type.Integer({
      minimum: 1024,
      maximum: 64 * 1024 * 1024,
      description: 'The largest answer read; a larger one is cut off and the request fails (R-G4).',
    }),
    1024 * 1024,
  ),
});

export interface Extract {
  readonly name: string;
  readonly tokens: readonly string[];
  readonly type: ValueType;
}

export interface Request {
  readonly id: string;
  readonly method: string;
  readonly url: Template;
  /** Of each placeholder of the URL, whether it stands in the path (its value may not be `.` or `..`). */
  readonly inPath: readonly boolean[];
  readonly followRedirects: boolean;
  /** Origins besides the URL's own that a redirect may go to. */
  readonly redirectOrigins: readonly string[];
  /** The URL as shown: scheme, host and path, without user info or query. */
  readonly shown: string;
  readonly headers: readonly (readonly [string, Template])[];
  readonly body: Template | undefined;
  readonly every: number | undefined;
  readonly timeout: number;
  readonly extracts: readonly Extract[];
}

export interface HttpClientSettings {
  readonly requests: readonly Request[];
  readonly maxInFlight: number;
  readonly maxBodyBytes: number;
}

export function parseRequests(written: {
  readonly requests: readonly {
    readonly id: string;
    readonly url: string;
    readonly method: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly every?: number;
    readonly timeout: number;
    readonly followRedirects: boolean;
    readonly redirectOrigins: readonly string[];
    readonly extract: Readonly<Record<string, { readonly pointer: string; readonly type: 'S' | 'B' | 'I' | 'F' }>>;
  }[];
  readonly maxInFlight: number;
  readonly maxBodyBytes: number;
}) {
  const issues: Issue[] = [];
  const ids = new Set<string>();
  const requests = written.requests.map((entry, index): Request => {
    const at = ['requests', index];
    if (ids.has(entry.id)) issues.push({ path: [...at, 'id'], message: `"${entry.id}" names an earlier request too` });
    ids.add(entry.id);
    const url = templateOf(entry.url, [...at, 'url'], issues);
    // Where the request goes is the flow's to say: a value may fill the path and the query,
    // never the scheme, the host or the port (whoever may write it would choose who gets the
    // request and its headers).
    const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(entry.url)?.[0] ?? '';
    if (authority === '' ? entry.url.trimStart().startsWith('{{') : authority.includes('{{'))
      issues.push({
        path: [...at, 'url'],
        message:
          'a {{placeholder}} in the scheme, host or port would let whoever writes that parameter choose where the request and its headers go: write them out',
      });
    const queryAt = entry.url.slice(authority.length).search(/[?#]/);
    const pathEnd = queryAt < 0 ? entry.url.length : authority.length + queryAt;
    const inPath = [...entry.url.matchAll(PLACEHOLDER)].map((found) => found.index >= authority.length && found.index < pathEnd);
    const redirectOrigins = entry.redirectOrigins.flatMap((origin, i) => {
      try {
        const parsed = new URL(origin);
        if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === origin.replace(/\/$/, ''))
          return [parsed.origin];
      } catch {
        // Said below.
      }
      issues.push({
        path: [...at, 'redirectOrigins', i],
        message: `"${origin}" is not an origin: scheme, host and port, as https://cdn.example.com`,
      });
      return [];
    });
    // The scheme and host are checked as written, placeholders standing for "x".
    try {
      const probe = new URL(url.parts.join('x'));
      if (probe.protocol !== 'http:' && probe.protocol !== 'https:')
        issues.push({ path: [...at, 'url'], message: `${probe.protocol} is not http: or https:` });
      else if (probe.username || probe.password)
        issues.push({
          path: [...at, 'url'],
          message: 'a URL cannot carry a user and password; send them in a header: headers: { authorization: "Basic ${CREDENTIALS}" }',
        });
    } catch {
      issues.push({ path: [...at, 'url'], message: `"${shownUrl(entry.url)}" is not a URL` });
    }
    const extracts = Object.entries(entry.extract).flatMap(([name, { pointer, type }]): Extract[] => {
      if (['send', 'status', 'body'].includes(name)) {
        issues.push({ path: [...at, 'extract', name], message: `"${name}" is one of the request's own parameters` });
        return [];
      }
      const tokens = parsePointer(pointer);
      if (!tokens.ok) {
        issues.push({ path: [...at, 'extract', name, 'pointer'], message: tokens.error.message });
        return [];
      }
      return [{ name, tokens: tokens.value, type }];
    });
    return {
      id: entry.id,
      method: entry.method,
      url,
      inPath,
      followRedirects: entry.followRedirects,
      redirectOrigins,
      shown: `${entry.method} ${shownUrl(entry.url)}`,
      headers: Object.entries(entry.headers ?? {}).map(
        ([name, value]) => [name, templateOf(value, [...at, 'headers', name], issues)] as const,
      ),
      body: entry.body === undefined ? undefined : templateOf(entry.body, [...at, 'body'], issues),
      every: entry.every,
      timeout: entry.timeout,
      extracts,
    };
  });
  return checked<HttpClientSettings>(issues, { requests, maxInFlight: written.maxInFlight, maxBodyBytes: written.maxBodyBytes });
}
