/**
 * One request to an IS-04 Registration API, bounded: an answer within `timeoutMs` (the
 * hub's scheduler times it) or a failure that says why, never a hang. The registry's body is
 * not needed (the status says everything this node acts on) and is cancelled unread, so a
 * registry that floods its answers costs nothing.
 */
import { after, type ErrorCode, type Scheduler, reasonOf } from '../../sdk/index.ts';

export type RegistryMethod = 'POST' | 'DELETE';

/** A failure to reach a registry or to have its answer in time. */
export class RegistryFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Sends a request and resolves with the status; rejects with a `RegistryFailure`. */
export type RegistryRequest = (method: RegistryMethod, url: string, body?: unknown) => Promise<number>;

export function registryRequests(scheduler: Scheduler, timeoutMs: number): RegistryRequest {
  return async (method, url, body) => {
    const controller = new AbortController();
    const timer = after(scheduler, timeoutMs, () =>
      controller.abort(new RegistryFailure('PB_DEVICE_TIMEOUT', `${method} ${url}: no answer within ${timeoutMs} ms`)),
    );
    try {
      const response = await fetch(url, {
        method,
        signal: controller.signal,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      await response.body?.cancel();
      return response.status;
    } catch (error) {
      const reason = controller.signal.reason;
      if (reason instanceof RegistryFailure) throw reason;
      // fetch says only `fetch failed`; why (refused, reset, no route) is its cause.
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      throw new RegistryFailure('PB_DEVICE_UNAVAILABLE', `${method} ${url}: ${reasonOf(cause ?? error)}`);
    } finally {
      timer.unsubscribe();
    }
  };
}
