import { type Observable } from 'rxjs';
import { type ErrorCode, type Result } from '../core/errors.ts';
import { type Durability, type Stored } from './layout.ts';
export type { Durability, Stored } from './layout.ts';
export type StoreHealth = {
    readonly ok: true;
} | {
    readonly ok: false;
    readonly reason: string;
    readonly code: Extract<ErrorCode, 'PB_STATE_UNAVAILABLE' | 'PB_STATE_LOCKED'>;
};
/**
 * The hub's embedded database (LMDB) in its state folder (R-S1). Writes go through at
 * once and every write of one event-loop turn is committed together, so there is no
 * periodic flush and nothing waits in memory longer than a turn. A running hub commits a
 * turn's writes as one record appended to its journal file (`journal.ts`: one write call,
 * where a database commit took several), folded into the values' own keys in the database
 * once the file passes a megabyte and when values are read by range, reset or closed (a
 * single key the hub journalled is read from memory): a fader moved a thousand times
 * between two folds is written to its key once. Other processes (the state command) write
 * keys directly, after folding the journal in the same transaction, so every write lands
 * in commit order.
 *
 * A failed commit (a full disk, a folder that became unwritable) never throws at the hub:
 * the store turns unhealthy with the reason, keeps the latest value of every unsaved key,
 * and writes them all at the next attempt. Several processes may open the same folder at
 * once (the `patchbay state` command beside a running hub), but only one running hub: it
 * holds the folder with a lock file (`FolderLock`), and a second is refused as a folder
 * that cannot be opened is.
 */
export declare class StateStore {
    private db;
    readonly folder: string;
    readonly durability: Durability;
    private readonly healthSubject;
    /**
     * The latest value of every key handed to the database whose write has not been
     * confirmed (a commit on LMDB's writer thread, or one that failed); `undefined` removes.
     */
    private readonly unsaved;
    /** What this turn wrote, not yet handed to the database: one batch per turn, the latest value of each key. */
    private turn;
    /** Told once this turn's batch is committed. */
    private turnWaiters;
    /** `power`: the latest commit still running on LMDB's writer thread (`process` commits before the turn ends). */
    private inFlight;
    /** The journal, folded into the keys (folding.ts). */
    private readonly folding;
    readonly health$: Observable<StoreHealth>;
    /** A running hub's hold on the folder (`openOrWait`); the state command holds none. */
    private lock;
    private constructor();
    /** Opens (creating when needed) the store in `folder`. Fails with PB_STATE_UNAVAILABLE and the reason. */
    static open(folder: string, { durability }?: {
        durability?: Durability;
    }): Result<StateStore>;
    /**
     * Like `open`, but for a running hub: it holds the folder (one hub a folder), and a folder
     * that cannot be opened or is held by another hub gives a store that is unhealthy with
     * the reason, keeps values in memory, and opens the folder at a later `retry`, so a bad
     * state folder never stops the hub. Its commits go to the journal.
     */
    static openOrWait(folder: string, { durability }?: {
        durability?: Durability;
    }): StateStore;
    /** Takes the folder and opens the database; says why not in the store's health. */
    private hold;
    get health(): StoreHealth;
    /** The stored value of a parameter, or undefined. */
    value(address: string): Stored | undefined;
    /**
     * Every stored value of a connection's parameters, by address: what a connection that
     * defines many parameters at start reads in one range of the database rather than a
     * read each (a million reads took a second and a half).
     */
    valuesOf(connectionId: string): Map<string, Stored>;
    /** Stores a parameter's value; committed with the other writes of this turn. */
    setValue(address: string, value: Stored): void;
    /** A record a connection keeps for itself (a running timer's deadline), or undefined. */
    record(connectionId: string, key: string): Stored | undefined;
    setRecord(connectionId: string, key: string, value: Stored | undefined): void;
    /** Every stored parameter value, by address, in address order. */
    values(): [string, Stored][];
    /** Every stored record, as [connection id, key, record], in key order: what `state export` moves beside the values. */
    records(): [string, string, Stored][];
    /** Every record of one connection, as [key, record]. */
    recordsOf(connectionId: string): [string, Stored][];
    /** Forgets every value and record of a connection: it starts from its defaults next time. Resolves with how many values went. */
    reset(connectionId: string): Promise<number>;
    /**
     * Resolves once every write made so far is as safe as the durability promises:
     * committed (`process`) or on the disk (`power`). Callers that answer a client await it
     * first (R-S4); concurrent callers share one commit (group commit).
     */
    settled(): Promise<void>;
    /**
     * `settled` for hot paths: calls `done` once every write made so far is as safe as
     * promised, at once when nothing waits, without a promise per caller. A failed commit
     * calls it too: the value works in memory and the store's health says why it is not saved.
     */
    whenSettled(done: () => void): void;
    /** Waits for pending writes, folds the journal, then closes the database and lets go of the folder. */
    close(): Promise<void>;
    private read;
    private foldPending;
    private write;
    /** Writes, commits and time spent committing since the store opened (`/metrics`). */
    readonly counts: {
        writes: number;
        commits: number;
        commitSeconds: number;
    };
    /**
     * Hands this turn's writes to the database as one batch and tells the turn's waiters
     * once it is as safe as promised. `process` commits here and now, without a promise: this
     * runs once per turn that wrote, on the path of every kept write.
     */
    private readonly commitTurn;
    /** `process`: the batch written into the operating system's cache before this returns. */
    private commitNow;
    /** `power`: waiting for the disk happens on LMDB's writer thread, off the event loop; readers find the values meanwhile among the unsaved. */
    private commitToDisk;
    private committed;
    private failed;
    /** Opens the folder if it could not be opened (or was held by another hub), and writes every value whose save failed again. */
    retry(): void;
}
