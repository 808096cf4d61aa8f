/**
 * `http-client`: calls a device's or a service's HTTP API and puts the answers into
 * parameters (R-J1, R-G1, R-G4), on Node's built-in `fetch`. Each entry of `requests` is
 * sent when its `send` trigger fires, and every `every` ms when given; `{{connection/
 * parameter}}` in its URL, headers and body is that parameter's value when it is sent.
 * A value cannot steer a request elsewhere: placeholders are refused in the scheme, host and
 * port, a value in the path is never `.` or `..`, and redirects are followed only when the
 * request says so, on its own origin or one it lists, never with its headers to another.
 *
 * The connection is `degraded` with the reason of a failure (a network failure, a timeout, a
 * status of 400 or more, an answer over `maxBodyBytes`, a value `extract` did not find) until
 * the device answers again: a polled request's failure until that request succeeds (it is
 * asked again within `every`), a sent-once request's until any request succeeds (nothing
 * asks it again, and its writer heard the failure). What is shown
 * of a request — in `/connections`, in reasons, in the log — is its method and its URL
 * without user info or query, never its headers or body: that is where secrets go.
 *
 * Parameters, for each request <id>:
 *   <id>/send     T   write-only   sends the request; a write is answered when the answer came
 *   <id>/status   I   read-only    the HTTP status of the latest answer
 *   <id>/body     S   read-only    the latest answer's body, as text
 *   <id>/<name>   extract's type   read-only   the value at the pointer of `extract.<name>`
 */
import { Type } from '@sinclair/typebox';
import type { Subscription } from 'rxjs';
import { parseAddress } from '../../core/address.ts';
import {
  Access,
  after,
  checked,
  defineConnectionType,
  every,
  HubError,
  type Issue,
  type OwnedParameter,
  reasonOf,
  Status,
  withDefault,
} from '../../sdk/index.ts';
import { parsePointer, resolvePointer } from '../../core/json-pointer.ts';
import { SparseLog } from '../../core/sparse-log.ts';
import type { ValueType } from '../../core/value.ts';

const valueType = Type.Union([Type.Literal('S'), Type.Literal('B'), Type.Literal('I'), Type.Literal('F')], {
  description: 'The type of the parameter: S string, B boolean, I integer, F float.',
});

const settings = Type.Object({
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

interface Extract {
  readonly name: string;
  readonly tokens: readonly string[];
  readonly type: ValueType;
}

/** Text with `{{address}}` in it, read once: literal parts, and the addresses between them. */
interface Template {
  readonly parts: readonly string[];
  readonly addresses: readonly string[];
}

interface Request {
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

interface Parsed {
  readonly requests: readonly Request[];
  readonly maxInFlight: number;
  readonly maxBodyBytes: number;
}

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

function templateOf(text: string, path: readonly (string | number)[], issues: Issue[]): Template {
  const parts: string[] = [];
  const addresses: string[] = [];
  let last = 0;
  for (const found of text.matchAll(PLACEHOLDER)) {
    const address = found[1] as string;
    const parsed = parseAddress(address);
    if (!parsed.ok) issues.push({ path, message: `{{${address}}}: ${parsed.error.message}` });
    parts.push(text.slice(last, found.index));
    addresses.push(address);
    last = found.index + found[0].length;
  }
  parts.push(text.slice(last));
  return { parts, addresses };
}

/** What a URL shows of itself: no user info, no query, no fragment (and the placeholders as written). */
export function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1').replace(/[?#].*$/s, '');
}

function parseRequests(written: {
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
  return checked<Parsed>(issues, { requests, maxInFlight: written.maxInFlight, maxBodyBytes: written.maxBodyBytes });
}

/** The most redirects a request follows. */
const MAX_REDIRECTS = 5;

/** How a request failed: the code a writer of `send` gets, and the reason the status shows. */
class Failure extends HubError {}

export const httpClientType = defineConnectionType({
  type: 'http-client',
  summary: 'Calls HTTP APIs of devices and services, and puts their answers into parameters.',
  settings,
  parse: (written) => parseRequests(written),
  create(context, { requests, maxInFlight, maxBodyBytes }) {
    const polls: Subscription[] = [];
    const inFlight = new Set<string>();
    const aborts = new Set<AbortController>();
    /** Each request's latest failure, while its latest answer was not a success. */
    const failing = new Map<string, string>();
    const counts = { sent: 0, failed: 0 };
    const log = new SparseLog(context.log, context.scheduler, 'failed');
    const parameters = new Map<string, OwnedParameter>();
    let stopped = false;

    // The latest failure is the one shown: `failing` keeps them in the order they came.
    const showStatus = () => {
      const latest = [...failing.values()].at(-1);
      if (latest === undefined) return context.setStatus(Status.Ok);
      const more = failing.size > 1 ? ` (and ${failing.size - 1} more request${failing.size > 2 ? 's' : ''} failing)` : '';
      context.setStatus(Status.Degraded, `${latest}${more}`, 'PB_DEVICE_UNAVAILABLE');
    };

    /**
     * The device answered: this request's failure is over, and so is every failure of a
     * request sent only on demand, which no poll would ever clear (R-J1 "until the next
     * success"). A polled request's failure stays until its own next answer: it says what
     * fails now, and does not flap with every success of another request.
     */
    const succeeded = (request: Request): void => {
      failing.delete(request.id);
      for (const other of requests) if (other.every === undefined) failing.delete(other.id);
      showStatus();
    };

    /** A template with each `{{address}}` replaced by that parameter's text; fails on an unknown value. */
    const fill = (template: Template, encode: (text: string) => string, inPath: readonly boolean[] = []): string => {
      let text = template.parts[0] as string;
      template.addresses.forEach((address, i) => {
        const value = context.graph.get(address)?.value;
        if (value === undefined) throw new Failure('PB_STATE_UNKNOWN', `{{${address}}} has no value (yet)`);
        const encoded = encode(String(value));
        // A path segment of `.` or `..` climbs the path (a `%` is encoded, so `%2e` stays text).
        if (inPath[i] && /^\.{1,2}$/.test(encoded))
          throw new Failure(
            'PB_CONVERSION',
            `{{${address}}} is "${String(value)}": a value in a URL's path cannot be . or .. (it would climb the path)`,
          );
        text += encoded + template.parts[i + 1];
      });
      return text;
    };

    /**
     * Sends the request, following redirects as the request allows: on its own origin, or to
     * one it lists, never with its headers to another origin; a 303, or a 301/302 of a POST,
     * goes on as a GET without the body, as browsers do.
     */
    const sendFollowing = async (request: Request, url: string, init: RequestInit & { headers: Record<string, string> }) => {
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
    };

    /** Reads at most `maxBodyBytes` of the answer: past it, the rest is not read. */
    const readBody = async (response: Response, controller: AbortController): Promise<string> => {
      if (!response.body) return '';
      const declared = Number(response.headers.get('content-length'));
      if (declared > maxBodyBytes) {
        controller.abort();
        throw new Failure('PB_OVER_LIMIT', `the answer has ${declared} bytes, more than maxBodyBytes (${maxBodyBytes})`);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > maxBodyBytes) {
          controller.abort();
          throw new Failure('PB_OVER_LIMIT', `the answer has more than maxBodyBytes (${maxBodyBytes})`);
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString('utf8');
    };

    const answered = (request: Request, status: number, body: string): void => {
      parameters.get(`${request.id}/status`)?.report(status);
      parameters.get(`${request.id}/body`)?.report(body);
      if (status >= 400) throw new Failure('PB_BAD_ANSWER', `answered ${status}`);
      if (request.extracts.length === 0) return;
      let document: unknown;
      try {
        document = JSON.parse(body);
      } catch {
        throw new Failure('PB_BAD_ANSWER', `the answer is not JSON, so nothing could be extracted (${body.length} characters)`);
      }
      const missing: string[] = [];
      for (const extract of request.extracts) {
        const found = resolvePointer(document, extract.tokens);
        const parameter = parameters.get(`${request.id}/${extract.name}`);
        if (found === undefined || found === null || !parameter) {
          missing.push(extract.name);
          continue;
        }
        const raw = extract.type === 'S' && typeof found === 'object' ? JSON.stringify(found) : found;
        const reported = parameter.report(raw);
        if (!reported.ok) missing.push(`${extract.name} (${reported.error.message})`);
      }
      if (missing.length > 0) throw new Failure('PB_BAD_ANSWER', `nothing to extract for ${missing.join(', ')}`);
    };

    /** Sends a request once; resolves with the outcome a writer of `send` hears. */
    const send = async (request: Request): Promise<HubError | undefined> => {
      if (stopped) return new HubError('PB_DEVICE_UNAVAILABLE', 'the connection stopped');
      // A request may be a command (a POST): only a hub that drives its devices sends it (R-B3).
      if (!context.fence.holds()) return context.fence.refusal();
      if (inFlight.has(request.id)) return new HubError('PB_DEVICE_UNAVAILABLE', `${request.shown} is still waiting for its answer`);
      if (inFlight.size >= maxInFlight)
        return new HubError('PB_OVER_LIMIT', `${maxInFlight} requests are waiting for their answers (maxInFlight)`);
      inFlight.add(request.id);
      counts.sent++;
      const controller = new AbortController();
      aborts.add(controller);
      const timer = after(context.scheduler, request.timeout, () =>
        controller.abort(new Failure('PB_DEVICE_TIMEOUT', `no answer within ${request.timeout} ms`)),
      );
      let url = '';
      try {
        url = fill(request.url, encodeURIComponent, request.inPath);
        const headers = Object.fromEntries(request.headers.map(([name, value]) => [name, fill(value, (text) => text)]));
        const body = request.body && fill(request.body, (text) => text);
        const response = await sendFollowing(request, url, {
          method: request.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: controller.signal,
        });
        answered(request, response.status, await readBody(response, controller));
        succeeded(request);
        return undefined;
      } catch (error) {
        if (stopped) return new HubError('PB_DEVICE_UNAVAILABLE', 'the connection stopped');
        // A timeout aborts whatever was under way: its reason is the one to tell.
        const failure = asFailure(error instanceof Failure ? error : (controller.signal.reason ?? error));
        counts.failed++;
        // A library's message may quote the URL whole, query and all: only its shown form may appear.
        const reason = `${request.shown}: ${withoutUrl(failure.message, url)}`;
        failing.delete(request.id);
        failing.set(request.id, reason);
        showStatus();
        log.warn(reason);
        return new HubError(failure.code, reason);
      } finally {
        timer.unsubscribe();
        aborts.delete(controller);
        inFlight.delete(request.id);
      }
    };

    return {
      start() {
        for (const request of requests) {
          const define = (id: string, type: ValueType) =>
            parameters.set(`${request.id}/${id}`, context.define(`${request.id}/${id}`, { type, access: Access.ReadOnly }));
          parameters.set(
            `${request.id}/send`,
            context.define(`${request.id}/send`, {
              type: 'T',
              access: Access.WriteOnly,
              device: true,
              forward: (_value, _origin, answer) => {
                void send(request).then((error) => answer?.(error ? { ok: false, error } : { ok: true, value: true }));
                return { ok: true, value: true };
              },
            }),
          );
          define('status', 'I');
          define('body', 'S');
          for (const extract of request.extracts) define(extract.name, extract.type);
          if (request.every !== undefined) polls.push(every(context.scheduler, request.every, () => void send(request)));
        }
        context.setStatus(Status.Ok);
        // The first answer comes as soon as the hub runs, not a whole interval later.
        context.whenRunning(() => {
          for (const request of requests) if (request.every !== undefined) void send(request);
        });
      },
      stop() {
        stopped = true;
        for (const poll of polls.splice(0)) poll.unsubscribe();
        for (const controller of aborts) controller.abort();
      },
      details: () => ({
        ...counts,
        inFlight: inFlight.size,
        requests: requests.map((request) => ({
          id: request.id,
          request: request.shown,
          ...(failing.has(request.id) ? { failing: true } : {}),
        })),
      }),
    };
  },
});

/** `message` with any URL in it cut to what `shownUrl` shows, `url` itself first. */
function withoutUrl(message: string, url: string): string {
  const cut = url ? message.split(url).join(shownUrl(url)) : message;
  return cut.replace(/\bhttps?:\/\/[^\s'"]+/gi, (found) => shownUrl(found));
}

/** A failure as a writer hears it: the request's own reasons kept, the network's made readable. */
function asFailure(error: unknown): Failure {
  if (error instanceof Failure) return error;
  if (error instanceof HubError) return new Failure(error.code, error.message);
  // fetch says "fetch failed" and puts what happened in `cause`: ECONNREFUSED, a reset, a bad certificate.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code
    ? `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
    : (cause?.message ?? reasonOf(error));
  return new Failure('PB_DEVICE_UNAVAILABLE', why);
}
