/**
 * The ids of an NMOS node's resources (R-NM1): name-based UUIDs (version 5, SHA-1) of a seed
 * and what each resource stands for (`node`, `device`, `source:<address>`), so that the same
 * parameter is the same source after a restart, with no table of ids to keep. The seed is
 * the connection's `seed` setting when given — every hub of a redundancy group written with
 * the same one is the same node, so a takeover keeps the identity — or else one made at
 * random once and kept in the connection's records (the state folder).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Records } from '../../sdk/index.ts';

const SEED_RECORD = 'seed';

/** The seed of a connection's ids: the written one, or the kept one (made and kept on first use). */
export function seedOf(written: string, records: Records): string {
  if (written !== '') return written;
  const kept = records.get(SEED_RECORD);
  if (typeof kept === 'string' && kept !== '') return kept;
  const made = randomUUID();
  records.set(SEED_RECORD, made);
  return made;
}

/** The UUID of `name` under `seed`: the same pair always gives the same id, any other pair another. */
export function nmosId(seed: string, name: string): string {
  const bytes = createHash('sha1').update(`${seed}\n${name}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
