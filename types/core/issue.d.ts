/** One mistake in a flow file: where (a JSON path) and what was expected there. */
export interface Issue {
    readonly path: readonly (string | number)[];
    readonly message: string;
}
/** `connections.api.port`, `rules[0].destinations[2]`: the path as users read it. */
export declare function formatPath(path: readonly (string | number)[]): string;
export declare function formatIssue(issue: Issue): string;
/** A parse that either succeeds or lists every mistake it found, each with its path. */
export type Checked<T> = {
    readonly ok: true;
    readonly value: T;
} | {
    readonly ok: false;
    readonly issues: readonly Issue[];
};
/** The issues of a part of a document, with their paths made relative to the whole. */
export declare function within(prefix: readonly (string | number)[], issues: readonly Issue[]): Issue[];
