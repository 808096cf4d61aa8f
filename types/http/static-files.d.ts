export interface StaticFile {
    readonly path: string;
    readonly size: number;
    readonly contentType: string;
}
/** Chunks a file is read in: what one client may make the hub hold of it at a time. */
export declare const FILE_CHUNK: number;
/**
 * A file's contents chunk by chunk, read as the client takes them (lib/http/stream.ts), so
 * that 40 clients that never read a 20 MiB file cost 40 chunks, not 40 copies of it.
 */
export declare function fileChunks(path: string): Promise<{
    next: () => Promise<Buffer | undefined>;
    close: () => void;
}>;
/**
 * Files below a document root (R-H4). Whatever the URL says — `..`, encoded slashes or
 * dots, backslashes, NUL bytes, symlinks pointing out — nothing outside the root is ever
 * read: the real path of every file is checked against the real path of the root.
 */
export declare class StaticFiles {
    private readonly realRoot;
    private constructor();
    /** Opens a root; throws a PB_DOCUMENT_ROOT HubError when it is missing or not a folder. */
    static open(root: string): Promise<StaticFiles>;
    /** The file for a URL path (undecoded, as received), or undefined for "404". */
    find(urlPath: string): Promise<StaticFile | undefined>;
    /** The real path of `path` when it exists and lies within the root. */
    private inside;
}
