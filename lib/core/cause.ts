/**
 * The cause of the change being delivered right now: an opaque object that code following
 * changes through the graph (the rule engine's loop guard) sets around a write it makes.
 * Core never looks inside it. Guarantee: a parameter that queues a re-entrant write keeps
 * the cause that was current when the write was made and restores it while delivering that
 * write, so a queued delivery runs under the same cause as an immediate one would; every
 * other delivery runs under its writer's cause because it is synchronous.
 *
 * One slot for the process is enough because deliveries are synchronous: whoever sets a
 * cause puts the previous one back before returning (`try … finally`), so outside a
 * delivery the slot is `undefined` again.
 */
export type Cause = object | undefined;

let current: Cause;

/** The cause of the delivery in progress; `undefined` for a change from outside. */
export function currentCause(): Cause {
  return current;
}

/** Makes `cause` current and returns the one it replaces, which the caller puts back. */
export function swapCause(cause: Cause): Cause {
  const previous = current;
  current = cause;
  return previous;
}
