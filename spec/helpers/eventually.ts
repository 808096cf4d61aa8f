/**
 * How long a spec waits for a hub process to start. A start takes seconds, but several
 * hubs starting at once beside other spec files on a loaded two-core machine took tens of
 * seconds; the bound catches a hub that never starts, not a slow one.
 */
export const startBound = 120_000;

/**
 * Waits until `check` holds, polling every 20 ms; throws naming `what` after `ms`. `what`
 * may be a function, read when the wait fails (say, to show a log as it was by then). The
 * default bound catches what never happens, not what is slow: a first poll of a device by a
 * hub started in the suite's busiest minute has taken over 10 s.
 */
export async function eventually(check: () => boolean | Promise<boolean>, what: string | (() => string), ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
