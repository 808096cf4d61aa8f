import type { Issue } from '../../core/issue.ts';
/** The `allow` setting of a listener. */
export declare const allowSetting: import("../settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
export declare class Peers {
    private readonly list;
    /** The entries as written, for the log. */
    readonly written: readonly string[];
    private constructor();
    /** Every peer: a listener without `allow`. */
    static readonly anyone: Peers;
    /** The peers of an `allow` list, or the mistakes in it (paths `[path…, index]`). */
    static compile(entries: readonly string[], path?: readonly (string | number)[]): Peers | Issue[];
    /** Whether every peer is let in. */
    get open(): boolean;
    /** Whether a peer of this address is let in (an address Node gives: `10.0.0.5`, `::ffff:10.0.0.5`, `::1`). */
    allows(address: string | undefined): boolean;
    /** For the start log line: `every peer`, or the list. */
    describe(): string;
}
/**
 * The warning `validate` gives (and the hub logs at start) for a listener whose peers may
 * change parameters, on every interface (`bindIp` "") with no `allow`: the rest-api's warning
 * for an open write API, for a device protocol, which has no credentials. `what` says what
 * such a peer may do: "set the parameters its receive lines make".
 */
export declare function openListenerWarnings(settings: {
    readonly bindIp: string;
    readonly allow: readonly string[];
}, what: string): Issue[];
