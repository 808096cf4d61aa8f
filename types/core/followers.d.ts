/**
 * Who follows the presence of which address (`Graph.follow`): whatever names an address
 * before it exists — a rule, a code flow's watch — is told the parameter there now, and
 * again as one is defined there (alone or in a table), removed or replaced (R-G2).
 */
import type { Parameter } from './parameter.ts';
import type { Table } from './tables.ts';
/** Told what parameter is at a followed address: see `Graph.follow`. */
export type Presence = (parameter: Parameter | undefined) => void;
export declare class Followers {
    private readonly byAddress;
    /** How many addresses are followed: while none is, the graph tells no one. */
    get size(): number;
    /** Follows `address`, told at once what `find` finds there. Returns what stops it. */
    add(address: string, present: Presence, find: () => Parameter | undefined): () => void;
    /** What is at `address` now, for its followers. */
    tell(address: string, parameter: Parameter | undefined): void;
    /** A table came or went: its followers learn what is at their address now. */
    tellTable(table: Table, find: (address: string) => Parameter | undefined): void;
}
