/**
 * The consumers connected to an ember-provider and the numbered paths each follows: who
 * hears a change of an element, and how a consumer cut off or gone is let go.
 */
import type { Logger } from '../../sdk/index.ts';
import { parentPath } from '../../protocols/ember-plus.ts';
import type { ConsumerSession } from './consumer-session.ts';

export class Consumers {
  /** Those connected now. */
  readonly sessions = new Set<ConsumerSession>();
  /** Who follows each numbered path. */
  private readonly followers = new Map<string, Set<ConsumerSession>>();
  private cutOffCount = 0;

  constructor(private readonly log: Logger) {}

  /** Consumers cut off so far: past a bound, or because they stopped reading. */
  get cutOff(): number {
    return this.cutOffCount;
  }

  /** Paths some consumer follows now. */
  get followedPaths(): number {
    return this.followers.size;
  }

  /** Sends to everyone who follows the element at `path` or its parent, once each. */
  tell(path: string, message: Buffer): void {
    const above = this.followers.get(parentPath(path));
    if (above) for (const session of above) session.send(message);
    const at = this.followers.get(path);
    if (at) for (const session of at) if (!above?.has(session)) session.send(message);
  }

  /** Makes the consumer follow `path`: one of its subscriptions, and it one of the path's followers. */
  follow(session: ConsumerSession, path: string): void {
    session.subscriptions.add(path);
    const set = this.followers.get(path) ?? new Set();
    set.add(session);
    this.followers.set(path, set);
  }

  unsubscribe(session: ConsumerSession, path: string): void {
    session.subscriptions.delete(path);
    this.unfollowPath(session, path);
  }

  forget(session: ConsumerSession): void {
    this.sessions.delete(session);
    for (const path of session.subscriptions) this.unfollowPath(session, path);
  }

  /** Closes a consumer past a bound, with a log line; what it followed is let go. */
  cutOffFor(session: ConsumerSession, why: string): void {
    if (session.isClosed) return;
    session.close();
    this.forget(session);
    this.cutOffCount++;
    this.log.warn(`${session.origin} cut off: ${why}`);
  }

  /** Counts and lets go a consumer its session closed because it stopped reading. */
  stoppedReading(session: ConsumerSession, why: string): void {
    this.cutOffCount++;
    this.forget(session);
    this.log.warn(`${session.origin} stopped reading: ${why}`);
  }

  /** Takes the consumer off a path's followers; a path nobody follows any more is let go. */
  private unfollowPath(session: ConsumerSession, path: string): void {
    const set = this.followers.get(path);
    if (set?.delete(session) && set.size === 0) this.followers.delete(path);
  }
}
