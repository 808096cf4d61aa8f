/**
 * A hub's role record (R-B1): what each hub of a group says of its role, retained and signed
 * on `$hub/<id>/role` as `{group, role, epoch}`, and how a payload from the broker is read as
 * one (defensively: anyone may publish there).
 */
import type { Role } from '../../serving.ts';
/** A hub's role in its group, as its record on the broker says. */
export interface RoleRecord {
    readonly group: string;
    readonly role: Role;
    readonly epoch: number;
}
/** A role record, when the payload reads as one. */
export declare function readRecord(payload: Buffer): RoleRecord | undefined;
