/**
 * The flow file as an editor reaches it (R-ED2, R-ED3): what the hub's flow editor does and
 * the HTTP routes serve, in one place; what crosses the wall is in `flow-shapes.ts`.
 */
import type { HubError } from './errors.ts';
import type { Draft, FlowEdit, FlowVersion } from './flow-shapes.ts';
import type { Issue } from './issue.ts';

/** What a save answers: the new text's tag and version, or why nothing was written. */
export type Saved =
  | { readonly ok: true; readonly etag: string; readonly version: number }
  | { readonly ok: false; readonly error: HubError; readonly issues?: readonly Issue[]; readonly etag?: string };

export interface FlowView {
  /** The file the hub runs. */
  readonly path: string;
  /** Why the file may not be saved, or undefined. */
  readOnly(): Promise<string | undefined>;
  /** The file's text now, literal secrets hidden, and the tag of the file. */
  read(): Promise<{ readonly text: string; readonly etag: string }>;
  /** Saves `text` over the file whose tag is `ifMatch`, as `by`, the version named by `note`; hidden secrets are put back from the file. */
  save(text: string, ifMatch: string, by: string, note?: string): Promise<Saved>;
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
