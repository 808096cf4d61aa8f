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
import type { Subscription } from 'rxjs';
import {
  Access,
  after,
  defineConnectionType,
  every,
  HubError,
  type OwnedParameter,
  Status,
  SparseLog,
  type ValueType,
} from '../../sdk/index.ts';
import { answered, readBody } from './answer.ts';
import { FailingRequests } from './failing.ts';
import { asFailure, Failure } from './failure.ts';
import { sendFollowing } from './redirects.ts';
import { httpClientSettings, parseRequests, type Request } from './settings.ts';
import { withoutUrl } from './shown-url.ts';
import { fill } from './template.ts';

export const httpClientType = defineConnectionType({
  type: 'http-client',
  summary: 'Calls HTTP APIs of devices and services, and puts their answers into parameters.',
  settings: httpClientSettings,
  parse: (written) => parseRequests(written),
  create(context, { requests, maxInFlight, maxBodyBytes }) {
    const polls: Subscription[] = [];
    const inFlight = new Set<string>();
    const aborts = new Set<AbortController>();
    const failing = new FailingRequests(requests, context);
    const counts = { sent: 0, failed: 0 };
    const log = new SparseLog(context.log, context.scheduler, 'failed');
    const parameters = new Map<string, OwnedParameter>();
    const valueAt = (address: string) => context.graph.get(address)?.value;
    let stopped = false;

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
        url = fill(request.url, valueAt, encodeURIComponent, request.inPath);
        const headers = Object.fromEntries(request.headers.map(([name, value]) => [name, fill(value, valueAt, (text) => text)]));
        const body = request.body && fill(request.body, valueAt, (text) => text);
        const response = await sendFollowing(request, url, {
          method: request.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: controller.signal,
        });
        answered(request, response.status, await readBody(response, controller, maxBodyBytes), parameters);
        failing.succeeded(request);
        return undefined;
      } catch (error) {
        if (stopped) return new HubError('PB_DEVICE_UNAVAILABLE', 'the connection stopped');
        // A timeout aborts whatever was under way: its reason is the one to tell.
        const failure = asFailure(error instanceof Failure ? error : (controller.signal.reason ?? error));
        counts.failed++;
        // A library's message may quote the URL whole, query and all: only its shown form may appear.
        const reason = `${request.shown}: ${withoutUrl(failure.message, url)}`;
        failing.failed(request, reason);
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
              ownedHere: true,
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
