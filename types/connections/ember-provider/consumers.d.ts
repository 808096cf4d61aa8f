/**
 * The consumers connected to an ember-provider and the numbered paths each follows: who
 * hears a change of an element, and how a consumer cut off or gone is let go.
 */
import type { Logger } from '../../sdk/index.ts';
import type { ConsumerSession } from './consumer-session.ts';
export declare class Consumers {
    private readonly log;
    /** Those connected now. */
    readonly sessions: Set<ConsumerSession>;
    /** Who follows each numbered path. */
    private readonly followers;
    private cutOffCount;
    constructor(log: Logger);
    /** Consumers cut off so far: past a bound, or because they stopped reading. */
    get cutOff(): number;
    /** Paths some consumer follows now. */
    get followedPaths(): number;
    /** Sends to everyone who follows the element at `path` or its parent, once each. */
    tell(path: string, message: Buffer): void;
    /** Makes the consumer follow `path`: one of its subscriptions, and it one of the path's followers. */
    follow(session: ConsumerSession, path: string): void;
    unsubscribe(session: ConsumerSession, path: string): void;
    forget(session: ConsumerSession): void;
    /** Closes a consumer past a bound, with a log line; what it followed is let go. */
    cutOffFor(session: ConsumerSession, why: string): void;
    /** Counts and lets go a consumer its session closed because it stopped reading. */
    stoppedReading(session: ConsumerSession, why: string): void;
    /** Takes the consumer off a path's followers; a path nobody follows any more is let go. */
    private unfollowPath;
}
