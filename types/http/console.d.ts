export interface ConsoleFile {
    readonly contentType: string;
    readonly body: Buffer;
}
/** The Content-Security-Policy of every console answer; made with the files. */
export declare function consolePolicy(): string;
/** The console's files by path below `/console/` ("" is index.html); read on first use. */
export declare function consoleFiles(): Map<string, ConsoleFile>;
