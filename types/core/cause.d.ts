/**
 * A lasting token for a chain of causes, made by a `CauseTracker`; opaque to core.
 * `undefined` is a change from outside.
 */
export type Cause = object | undefined;
/**
 * Follows changes by their causes: what made each write happen, synchronously, through
 * parameter notifications (the rule engine's loop guard is one). Deliveries are synchronous,
 * so a tracker sees most causes on the call stack; the one place they leave it is a
 * parameter's queue of re-entrant writes, and for that parameters call these hooks.
 */
export interface CauseTracker {
    /** A token for the chain in effect now, kept with a write that has to wait. */
    capture(): Cause;
    /** Makes a captured chain the one in effect while the waiting write is delivered. */
    resume(cause: Cause): void;
    /** Ends what the last `resume` began, putting back the chain it replaced. */
    end(): void;
}
