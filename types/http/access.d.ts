import type { AddressPatterns } from '../core/address-pattern.ts';
import { type Result } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Answered, Parameter, SetResult } from '../core/parameter.ts';
/**
 * What one authenticated client may do (R-A2): which parameters it can read and write,
 * and which connections it can see. Everything a client is served or may change goes
 * through one of these.
 */
export interface ClientAccess {
    /** `*` for full access (no authentication, username/password, the `token`), else the scoped token's name. */
    readonly name: string;
    readonly full: boolean;
    /**
     * False only for a hub without credentials, where every request has full access without
     * having shown anything: what anyone who reaches the port may do. The flow editor refuses it.
     */
    readonly signedIn: boolean;
    /** May read `/metrics`. */
    readonly metrics: boolean;
    /** May ask a standby to take over its redundancy group (`POST /failover`, R-B5). */
    readonly admin: boolean;
    canRead(address: string): boolean;
    canWrite(address: string): boolean;
    /** True when some parameter of the connection may be readable: it is listed in `/connections`. */
    seesConnection(connectionId: string): boolean;
}
export declare const fullAccess: ClientAccess;
/** Every request's access on a hub without credentials: full, but nobody signed in. */
export declare const anonymousAccess: ClientAccess;
/** The access of a scoped token: `read` and `write` address patterns (a writable address must be readable too). */
export declare function scopedAccess(name: string, read: AddressPatterns, write: AddressPatterns, metrics?: boolean, admin?: boolean): ClientAccess;
/**
 * The parameter at `address` as this client sees it: one it cannot read does not exist
 * for it, with the same answer as a parameter that does not exist (404), so a scoped
 * token learns nothing of what lies outside its patterns.
 */
export declare function lookupFor(access: ClientAccess, graph: Graph, address: string): Result<Parameter>;
/** The parameter at `address` this client may write: 404 as `lookupFor`, 403 PB_FORBIDDEN outside its `write` patterns. */
export declare function writableFor(access: ClientAccess, graph: Graph, address: string): Result<Parameter>;
/** Writes `raw` to `address` for this client: refused as `writableFor` refuses. */
export declare function writeFor(access: ClientAccess, graph: Graph, address: string, raw: unknown, origin: string, answered?: Answered): SetResult;
