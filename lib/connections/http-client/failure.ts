/**
 * How a request failed, as a writer of `send` hears it and the status shows it.
 */
import { HubError, reasonOf } from '../../sdk/index.ts';

/** How a request failed: the code a writer of `send` gets, and the reason the status shows. */
export class Failure extends HubError {}

/** A failure as a writer hears it: the request's own reasons kept, the network's made readable. */
export function asFailure(error: unknown): Failure {
  if (error instanceof Failure) return error;
  if (error instanceof HubError) return new Failure(error.code, error.message);
  // fetch says "fetch failed" and puts what happened in `cause`: ECONNREFUSED, a reset, a bad certificate.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code
    ? `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
    : (cause?.message ?? reasonOf(error));
  return new Failure('PB_DEVICE_UNAVAILABLE', why);
}
