import { type RootDatabase } from 'lmdb';
import { type Result } from '../core/errors.ts';
import type { Json } from '../core/value.ts';
import { type JournalMark } from './journal.ts';
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
export declare const valueKey: (address: string) => string;
/** The keys of every stored value of a connection's parameters. A fresh object each time: LMDB writes into the options it is given. */
export declare const valuesRange: (connectionId: string) => {
    start: string;
    end: string;
};
export declare const recordKey: (connectionId: string, key: string) => string;
export declare const isRecordKey: (key: string) => boolean;
export declare const databaseKey: (key: string) => string;
/** The journal records of an earlier version, kept in the database. A fresh object each time: LMDB writes into the options it is given. */
export declare const olderJournalRange: () => {
    start: string;
    end: string;
};
export declare const MARK_KEY = "m journal";
/** The journal's mark: which of its records the keys hold already. */
export declare function markOf(db: Database): JournalMark;
/** Inside a write transaction: each key's value into its own record, or the record removed (undefined). */
export declare function writeKeys(db: Database, values: ReadonlyMap<string, Stored | undefined>): void;
export declare function openDatabase(folder: string, durability: Durability): Result<Database>;
