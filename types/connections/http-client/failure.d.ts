/**
 * How a request failed, as a writer of `send` hears it and the status shows it.
 */
import { HubError } from '../../sdk/index.ts';
/** How a request failed: the code a writer of `send` gets, and the reason the status shows. */
export declare class Failure extends HubError {
}
/** A failure as a writer hears it: the request's own reasons kept, the network's made readable. */
export declare function asFailure(error: unknown): Failure;
