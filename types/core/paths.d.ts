/**
 * Rewrites the absolute file-system paths in a message relative to `folder` (the flow file
 * folder), for what is served over HTTP: a status reason or problem must not tell an
 * anonymous client how the machine is laid out, but relative to the flow file it still
 * tells the operator which file is meant.
 *
 * A path is found two ways: anything starting with `folder` itself (spaces included), and
 * any other token starting with `/<entry>` where `<entry>` is one of `roots`, the entries
 * of this machine's root folder (`/home`, `/tmp`, `/srv` …). HTTP paths such as
 * `/parameters` name no root entry and stay. `file://` URLs are taken as their paths.
 * A path in `asWritten` (one the flow file writes and the hub opens as written, a serial
 * port) stays as it is: relative to the folder it would name a file the hub never opens.
 */
export declare function relativePaths(folder: string, roots: readonly string[], asWritten?: readonly string[]): (text: string) => string;
/** `value` with `rewrite` applied to every string in it, however deep. */
export declare function mapStrings<T>(value: T, rewrite: (text: string) => string): T;
