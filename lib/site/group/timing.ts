/**
 * The times of a redundancy group's lease (R-B3), in one place because they are set against
 * one another: the fence wait is a lease and a margin, the silence a standby waits out and the
 * broker link's keep-alive are measured against the renewals, and a takeover asked of a group
 * with voters runs a few of their rounds.
 */

/**
 * How long a renewal the broker acknowledged keeps the lease. An active hub whose event loop
 * stalls for longer loses it (and takes it again when no other hub took it meanwhile).
 */
export const LEASE_MS = 1000;
/**
 * With voters, how long a hub asked to take over (`POST /failover`) claims at every round,
 * and how long the active hub that heard the claim claims nothing: long enough for a claim
 * round after the active hub gave its grants back, short enough that a claimant that died
 * meanwhile leaves the group to its usual rule soon.
 */
export const FAILOVER_MS = 3000;
/** How often every hub of a group renews. */
export const RENEW_EVERY_MS = 200;
/** How long after its claim came back a hub waits before it drives devices: the old lease has run out by then. */
export const FENCE_WAIT_MS = LEASE_MS + 100;
/** How long the active hub may be silent (no renewal heard, while this hub's own came back) before a standby claims. */
export const SILENCE_MS = 1000;
/**
 * The keep-alive of a group hub's broker link, in seconds: Mosquitto's last will for a hub it
 * no longer hears comes within seconds, but a standby does not wait for it (see `SILENCE_MS`).
 */
export const GROUP_KEEPALIVE_S = 1;
