/**
 * What an ember-provider answers a consumer's requests with: GetDirectory and Subscribe
 * follow a path, Unsubscribe lets it go, a setValue, an Invoke or a matrix's connect is a hub
 * write (R-C conversion, origin `ember <peer>`) that the writer always hears the outcome of —
 * each within the bounds on how much one consumer may ask.
 */
import type { Parameter } from '../../sdk/index.ts';
import { type EmberElement, type Met } from '../../protocols/ember-plus.ts';
import type { ConsumerSession } from './consumer-session.ts';
import type { Consumers } from './consumers.ts';
import type { Entry, ExposedTree } from './exposed-tree.ts';
/**
 * Requests (commands and elements) one consumer may send in a second: a desk sends tens, a
 * tree read some thousands. Past it, it is cut off rather than hold the hub.
 */
export declare const REQUESTS_PER_SECOND = 20000;
export interface RequestContext {
    readonly tree: ExposedTree;
    readonly consumers: Consumers;
    /** The hub's clock, in milliseconds: what a consumer's requests in a second are counted by. */
    readonly now: () => number;
    /** What a consumer may change. */
    readonly mayWrite: (parameter: Parameter) => boolean;
    /** Logs that a consumer was refused a change of `parameter`. */
    readonly refuse: (session: ConsumerSession, parameter: Parameter) => void;
    /** The element at `entry` as consumers see it. */
    readonly contentsOf: (entry: Entry) => EmberElement;
}
/** Answers what a consumer's messages hold, the commands and elements met in them, in order. */
export declare function requestHandler({ tree, consumers, now, mayWrite, refuse, contentsOf, }: RequestContext): (session: ConsumerSession, met: readonly Met[]) => void;
