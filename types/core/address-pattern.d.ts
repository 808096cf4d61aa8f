import { type Result } from './errors.ts';
/**
 * A set of addresses written as MQTT topic filters (R-A1): levels split at `/`, `+` stands
 * for exactly one level, a final `#` for any number of levels (none included), anything
 * else for itself. `studio/#` is every parameter of `studio`; `+/onair` the `onair` of every
 * connection; `#` everything.
 */
export declare class AddressPatterns {
    private readonly patterns;
    private constructor();
    /** Checks every pattern; the failure names the first that is not a topic filter. */
    static compile(patterns: readonly string[]): Result<AddressPatterns>;
    /** True when any pattern matches the whole address. */
    matches(address: string): boolean;
    /** True when some address of this connection could match: the connection's first level matches. */
    reachesConnection(connectionId: string): boolean;
}
