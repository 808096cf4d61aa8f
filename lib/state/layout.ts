/**
 * How the state folder's database is laid out: the key of each value and record, the
 * journal's mark, and how the database is opened. Whatever reads or writes the database goes
 * through these, so the layout is written once.
 */
import { mkdirSync } from 'node:fs';
import { open, type RootDatabase } from 'lmdb';
import { fail, ok, reasonOf, type Result } from '../core/errors.ts';
import type { Json } from '../core/value.ts';
import { firstMark, type JournalMark } from './journal.ts';

/**
 * How far an answered write is safe (R-S4). `process`: written to the operating system
 * before the answer, so it survives the hub being killed (SIGKILL, a crash) but not a
 * power cut. `power`: also synced to the disk before the answer.
 */
export type Durability = 'process' | 'power';

/** What the store holds: parameter values, and small records connections keep (timer deadlines). */
export type Stored = Json;

/** The state folder's database. */
export type Database = RootDatabase<Stored, string>;

// Keys: `v <address>` for values, `k <connection id>/<key>` for records, `m journal` for
// the journal's mark (`j <number>`: journal records an earlier version kept in the
// database). The space sorts before every character an address may hold, so a prefix scan
// is a range.
export const valueKey = (address: string) => `v ${address}`;
/** The keys of every stored value of a connection's parameters. A fresh object each time: LMDB writes into the options it is given. */
export const valuesRange = (connectionId: string) => ({ start: valueKey(`${connectionId}/`), end: valueKey(`${connectionId}0`) });
export const recordKey = (connectionId: string, key: string) => `k ${connectionId}/${key}`;
// In memory and in the journal a value is keyed by its address as it is (no string is
// built per write) and a record by its database key: an address never holds a space.
export const isRecordKey = (key: string) => key.startsWith('k ');
export const databaseKey = (key: string) => (isRecordKey(key) ? key : valueKey(key));
/** The journal records of an earlier version, kept in the database. A fresh object each time: LMDB writes into the options it is given. */
export const olderJournalRange = () => ({ start: 'j ', end: 'j!' });
export const MARK_KEY = 'm journal';

/** The journal's mark: which of its records the keys hold already. */
export function markOf(db: Database): JournalMark {
  return (db.get(MARK_KEY) as JournalMark | undefined) ?? firstMark;
}

/** Inside a write transaction: each key's value into its own record, or the record removed (undefined). */
export function writeKeys(db: Database, values: ReadonlyMap<string, Stored | undefined>): void {
  for (const [key, value] of values) {
    if (value === undefined) db.removeSync(databaseKey(key));
    else db.putSync(databaseKey(key), value);
  }
}

export function openDatabase(folder: string, durability: Durability): Result<Database> {
  try {
    // The hub's user's alone, as the flow file: what is kept may be secret.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // `noSync` for `process`: a commit is in the operating system's hands when it
    // resolves, which survives SIGKILL; `power` waits for the disk as well. Not
    // `useWritemap`, though it halves what a commit costs (3 µs against 6 µs): with it,
    // LMDB's free-page bookkeeping aborts the process (an assertion in mdb_freelist_save)
    // after the delete-only commits of a journal fold — the timer spec crashed every run.
    // `noSubdir: false` said outright: LMDB takes a path with an extension (`studio.state`,
    // mktemp's `tmp.X`) for a database file and fails on the folder.
    return ok(
      open<Stored, string>({ path: folder, noSubdir: false, compression: false, encoding: 'msgpack', noSync: durability === 'process' }),
    );
  } catch (error) {
    return fail('PB_STATE_UNAVAILABLE', `cannot open the state folder ${folder}: ${reasonOf(error)}`);
  }
}
