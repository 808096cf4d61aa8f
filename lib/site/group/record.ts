/**
 * A hub's role record (R-B1): what each hub of a group says of its role, retained and signed
 * on `$hub/<id>/role` as `{group, role, epoch}`, and how a payload from the broker is read as
 * one (defensively: anyone may publish there).
 */
import type { Role } from '../hub-port.ts';

/** A hub's role in its group, as its record on the broker says. */
export interface RoleRecord {
  readonly group: string;
  readonly role: Role;
  readonly epoch: number;
}

/** A role record, when the payload reads as one. */
export function readRecord(payload: Buffer): RoleRecord | undefined {
  try {
    const data = JSON.parse(payload.toString()) as Partial<RoleRecord> | null;
    if (
      typeof data?.group === 'string' &&
      (data.role === 'active' || data.role === 'standby') &&
      typeof data.epoch === 'number' &&
      Number.isSafeInteger(data.epoch) &&
      data.epoch >= 0
    )
      return { group: data.group, role: data.role, epoch: data.epoch };
  } catch {
    // Not a record: ignored like any message that does not read.
  }
  return undefined;
}
