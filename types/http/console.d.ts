export interface ConsoleFile {
    readonly contentType: string;
    readonly body: Buffer;
}
/**
 * The flow tab's text editor (CodeMirror 6 and the JSON5 language), each package's ES module
 * as `vendor/<package>.js`, the name the page's import map gives it. The page loads them only
 * when the text view opens. A package is found as the one that imports it finds it (npm may
 * nest one below another), and its module is what its `exports` give `import`.
 */
export declare const EDITOR_PACKAGES: readonly ["codemirror", "@codemirror/autocomplete", "@codemirror/commands", "@codemirror/language", "@codemirror/lint", "@codemirror/search", "@codemirror/state", "@codemirror/streamparser", "@codemirror/view", "@lezer/common", "@lezer/highlight", "@lezer/lr", "@marijn/find-cluster-break", "codemirror-json5", "crelt", "json5", "lezer-json5", "style-mod", "w3c-keyname"];
/** The Content-Security-Policy of every console answer; made with the files. */
export declare function consolePolicy(): string;
/** The console's files by path below `/console/` ("" is index.html); read on first use. */
export declare function consoleFiles(): Map<string, ConsoleFile>;
