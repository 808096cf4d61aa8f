import { type Database, type Stored } from './layout.ts';
export declare class JournalFolding {
    private readonly folder;
    /** Whether commits go to the journal (a running hub) or to the keys (the state command). */
    private readonly journal;
    /** A fold that failed: the store's health says why. */
    private readonly failed;
    /**
     * The hub's journal file; undefined until its first commit or read, which folds what a
     * hub before it left, and after each fold that starts the next file.
     */
    private writer;
    /** The generation of the file this hub appends to; 0 until it has folded what it found. */
    private generation;
    /**
     * The latest value of each key this hub journalled since it last folded, and where in its
     * file the first of those records begins: while the mark points there, reads find these
     * keys here and a fold applies them from memory instead of reading the file back.
     */
    private journalled;
    private firstJournalled;
    private lookedAt;
    constructor(folder: string, 
    /** Whether commits go to the journal (a running hub) or to the keys (the state command). */
    journal: boolean, 
    /** A fold that failed: the store's health says why. */
    failed: (error: unknown) => void);
    /** The value of `key` in the database, or in this hub's journal while that holds its latest. */
    read(db: Database, key: string): Stored | undefined;
    /** Folds the journal into the keys, so that reads find the latest values there. */
    foldPending(db: Database): void;
    /**
     * A turn's writes, committed: a running hub's as one record appended to its journal file
     * (folded once the file passes a megabyte); the state command's into the keys, in one
     * transaction with whatever a hub journalled before, which is older. Throws when it fails.
     */
    commit(db: Database, batch: ReadonlyMap<string, Stored | undefined>): void;
    /** Folds what is left and closes the journal file: the store closes. */
    close(db: Database | undefined): void;
    /**
     * Whether the journal's mark is where this hub's own records begin in the file it writes:
     * no other process folded any since, so `journalled` holds every record past the mark.
     */
    private isOurs;
    /** Whether a hub's journal holds records not folded yet: the file past the mark, or records of an earlier version. */
    private hasUnfolded;
    private foldNow;
    /**
     * Folds in a transaction of its own. A hub, which alone writes the file, also moves the
     * mark to the next file and removes the folded one once the fold is committed; the state
     * command leaves the file to the hub and moves the mark within it.
     */
    private foldOrThrow;
    /**
     * Inside a write transaction: applies the journal records past the mark, in order, to
     * the keys they name (the latest value of each, once), and moves the mark past them.
     * Returns the generation of the file it folded.
     */
    private fold;
}
