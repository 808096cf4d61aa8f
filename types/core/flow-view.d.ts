/**
 * The flow file as an editor reaches it (R-ED2, R-ED3): the shape the hub's flow editor
 * (lib/config/flow-editor.ts) has and the HTTP routes serve, in one place.
 */
import type { HubError } from './errors.ts';
import type { Issue } from './issue.ts';
/** One kept version of the flow file. */
export interface FlowVersion {
    readonly version: number;
    /** Milliseconds since the epoch. */
    readonly savedAt: number;
    /** Who saved it: `token ops from 10.0.0.5`, or `on disk` for the file as a save found it. */
    readonly by: string;
    readonly bytes: number;
    readonly etag: string;
}
/** What a save answers: the new text's tag and version, or why nothing was written. */
export type Saved = {
    readonly ok: true;
    readonly etag: string;
    readonly version: number;
} | {
    readonly ok: false;
    readonly error: HubError;
    readonly issues?: readonly Issue[];
    readonly etag?: string;
};
/** A mistake of a draft, with where it stands in the draft's text (offsets), for a mark. */
export interface PlacedIssue extends Issue {
    readonly from: number;
    readonly to: number;
}
/** A text with edits made, not saved, and the mistakes a save of it would be refused for. */
export interface Draft {
    readonly text: string;
    readonly issues: readonly PlacedIssue[];
    /** The text's document, as the forms show it; undefined when the text does not parse. */
    readonly document?: unknown;
}
export interface FlowView {
    /** The file the hub runs. */
    readonly path: string;
    /** Why the file may not be saved, or undefined. */
    readOnly(): Promise<string | undefined>;
    /** The file's text now, literal secrets hidden, and the tag of the file. */
    read(): Promise<{
        readonly text: string;
        readonly etag: string;
    }>;
    /** Saves `text` over the file whose tag is `ifMatch`, as `by`; hidden secrets are put back from the file. */
    save(text: string, ifMatch: string, by: string): Promise<Saved>;
    /** The kept versions, newest last. */
    history(): Promise<readonly FlowVersion[]>;
    /** A kept version's text, secrets hidden, or undefined. */
    versionText(version: number): Promise<string | undefined>;
    /** Brings back a kept version, as a save by `by`. */
    restore(version: number, by: string): Promise<Saved>;
    /** `text` (as an editor has it, secrets hidden) with `edits` made, checked as a save would check it; nothing is written. */
    draft(text: string, edits: readonly FlowEdit[]): Promise<Draft>;
    /** The flow-file JSON Schema of the types this hub knows (its packages' too), for forms and completion. */
    schema(): string;
}
/**
 * A change an editor asks of the flow file's text, at a path of its document: `set` a value
 * (an object's key, added when missing; a list's entry), `add` an entry at the end of the
 * list at `path`, `remove` what is at `path`. A `set` over a value that is there changes only
 * what differs, so the comments inside it stay.
 */
export type FlowEdit = {
    readonly op: 'set';
    readonly path: readonly (string | number)[];
    readonly value: unknown;
} | {
    readonly op: 'add';
    readonly path: readonly (string | number)[];
    readonly value: unknown;
} | {
    readonly op: 'remove';
    readonly path: readonly (string | number)[];
};
