/**
 * The mistakes of a flow file that no one entry shows alone: functions that follow each
 * other round through connections, two connections that claim one thing or put the hub in
 * two redundancy groups, and code flows whose ids clash.
 */
import type { ConnectionConfig, Link } from '../connections/connection.ts';
import { type Issue } from '../core/issue.ts';
import type { IdClaim } from './connection-check.ts';
/** Two enabled connections that claim one thing (a TCP port): the later one is the mistake. */
export declare function claimCollisions(claims: readonly IdClaim[]): Issue[];
/** Code flows are named after their files (R-R6): an id that is invalid or taken would fail at start. */
export declare function flowIdClashes(flows: readonly {
    readonly file: string;
    readonly index: number;
}[], connectionIds: readonly string[]): Issue[];
/**
 * Cycles of parameters that follow each other in the same turn (`Link`s, with their
 * outputs as full addresses) through more than
 * one connection: they would never settle. A cycle within one connection is its own
 * parser's to report (R-V3).
 */
export declare function linkCycles(all: readonly Link[]): Issue[];
/** A hub is in one redundancy group at most (R-B1): a second connection that names one is a mistake. */
export declare function groupClashes(connections: readonly ConnectionConfig[]): Issue[];
