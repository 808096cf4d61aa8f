/**
 * Imports the modules of one start of the code flows through tsx, in a namespace of their
 * own: each module and every module it imports in turn is read afresh, whatever the scope
 * of its folder — TypeScript or JavaScript, ES module or CommonJS by Node's rules
 * (`"type"` of the nearest package.json, `.mjs`/`.mts`, `.cjs`/`.cts`). Node never
 * forgets an ES module, so a namespace is how a reload gets the edited ones. It also
 * records the local files the flows loaded, for `--watch`.
 */
export declare class ModuleLoader {
    private readonly namespace;
    private readonly loaded;
    private readonly esm;
    private readonly commonJs;
    private readonly requireCache;
    private constructor();
    /** tsx's APIs are imported only by hubs with code flows (they take a tenth of a second). */
    static open(imported: () => void): Promise<ModuleLoader>;
    import(path: string): Promise<unknown>;
    /** The files of the flows and of the local modules they imported (not packages). */
    files(): string[];
    /** Lets go of the hooks and of the CommonJS modules of this load. */
    close(): void;
    private isOurs;
}
/**
 * The message of an error a module raised while loading. TypeScript and transpiled files
 * fail in esbuild, whose message names file, line and column; JavaScript that Node parses
 * itself fails with a bare SyntaxError (the place is only in what Node prints when it
 * dies), so the files that may hold it — the flow, and the module loaded last — are
 * checked with `node --check`, which prints it.
 */
export declare function loadFailure(error: unknown, candidates: readonly string[]): string;
