/**
 * A running hub's journal (R-S4): each commit is one record appended to a file in the
 * state folder with one write call, where an LMDB commit took three page writes and its
 * free-page bookkeeping (16 µs against 3 µs here, on the path of every kept `/update`).
 * What a write call has handed to the operating system survives the process being
 * killed, which is what durability `process` promises.
 *
 * A record is its length and the CRC-32 of its bytes (both 32-bit little-endian), then the
 * bytes. A reader takes the whole records of a file and stops at the first that is cut
 * short or does not match its checksum: what a failed write or a power cut leaves.
 *
 * Files are numbered (`journal-<generation>`). Which bytes are folded into the database
 * is a mark the database itself keeps (`JournalMark`), moved in the transaction that
 * folds them, so a process that dies at any moment leaves every record folded once or
 * still to fold.
 */
export interface JournalMark {
    /** The file records are appended to. Files of earlier generations are folded whole. */
    readonly generation: number;
    /** Where in it the records still to fold begin. */
    readonly offset: number;
}
export declare const firstMark: JournalMark;
export declare const journalPath: (folder: string, generation: number) => string;
/** The journal file a hub appends to: only the hub that holds the folder writes one. */
export declare class JournalWriter {
    readonly path: string;
    private readonly fd;
    /** Bytes of whole records in the file: where the next one goes. */
    size: number;
    /** Where each record is put together: one buffer for every append, grown for a larger one. */
    private scratch;
    /** Starts the file of `generation` empty: anything there was never marked and is not the journal's. */
    constructor(path: string);
    /**
     * Appends one record. Throws when the operating system did not take all of it, after
     * cutting the file back to its whole records (a failing disk may refuse that too: the
     * caller then starts another file, since readers stop at a damaged record).
     */
    append(payload: string): void;
    close(): void;
}
/** The whole records of a journal file from `offset`, and where the last of them ends; a missing file has none. */
export declare function readJournal(path: string, offset: number): {
    readonly records: string[];
    readonly end: number;
};
/**
 * Removes a journal file whose records are folded. One that stays (a folder that refuses
 * it) is harmless: the mark has moved past its generation, and nothing reads it again.
 */
export declare function removeJournal(path: string): void;
