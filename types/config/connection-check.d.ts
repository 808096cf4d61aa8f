/**
 * One connection of a flow file checked by its type's own parser, which builds its plan:
 * the mistakes, diagnostics and warnings it finds, and the links and claims the checks
 * across connections need, each with its path in the whole document.
 */
import type { Claim, ConnectionConfig, ConnectionType, Link } from '../connections/connection.ts';
import type { Issue } from '../core/issue.ts';
/** A claim with its connection, its path in the whole document. */
export type IdClaim = Claim & {
    readonly id: string;
};
/**
 * The connection's own checks (its type's parser), on its settings with whatever the
 * schema refuses taken out: `whole` when nothing had to be taken out. Undefined for an
 * entry that is not an object of a known type (the schema says so).
 */
export declare function checkConnection(id: string, 
/** The connection's entry, as an object (`{}` for one that is not). */
raw: Record<string, unknown>, baseDir: string, 
/** Settings with a placeholder that could not be filled in: not checked further. */
unfilled: readonly (string | number | undefined)[], types: readonly ConnectionType[]): {
    issues: Issue[];
    diagnostics: Issue[];
    warnings: Issue[];
    links: Link[];
    claims: IdClaim[];
    config?: ConnectionConfig;
    whole: boolean;
} | undefined;
