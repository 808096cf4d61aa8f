export type WriteOutcome = {
    readonly ok: true;
} | {
    readonly ok: false;
    readonly reason: string;
};
/**
 * A file replaced atomically on every save (R-X4): the content goes to a temporary file in
 * the same folder, which is then renamed over the target, so a reader sees the old or the
 * new document and never a torn one. Saves requested while one is in flight are coalesced:
 * the latest content is written next, so the file always ends with it.
 */
export declare class AtomicFile {
    readonly path: string;
    /** Produces the content at the moment it is written, so coalesced saves use the latest. */
    private readonly content;
    private readonly report;
    private readonly temporary;
    private writing;
    private requested;
    constructor(path: string, 
    /** Produces the content at the moment it is written, so coalesced saves use the latest. */
    content: () => string, report: (outcome: WriteOutcome) => void);
    /**
     * Removes temporary files of this target left by a process that died mid-save (kill -9,
     * power cut): those named after a process that no longer runs, or after this one (no
     * save of this file is in flight yet). Only names of our own pattern beside the target
     * are touched; a failure to list or remove is not a write failure and is ignored.
     */
    removeStale(): Promise<void>;
    /** Asks for a save; returns at once. */
    save(): void;
    /** Resolves once every requested save is on disk (or has failed and been reported). */
    flush(): Promise<void>;
    private drain;
}
