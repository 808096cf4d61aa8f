/**
 * The flow file as an editor reaches it (R-ED2, R-ED3): what the hub's flow editor does and
 * the HTTP routes serve, in one place; what crosses the wall is in `flow-shapes.ts`.
 */
import type { HubError } from './errors.ts';
import type { Catalogue, CatalogueEntry, Draft, FlowEdit, FlowVersion } from './flow-shapes.ts';
import type { Issue } from './issue.ts';

/** What a save answers: the new text's tag and version, or why nothing was written. */
export type Saved =
  | { readonly ok: true; readonly etag: string; readonly version: number }
  | { readonly ok: false; readonly error: HubError; readonly issues?: readonly Issue[]; readonly etag?: string };

/** The largest archive an editor may add (a Companion module, a package): Companion's builds are a few megabytes, with their node_modules some tens. */
export const MOST_ARCHIVE_BYTES = 128 * 1024 * 1024;

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
  /** What a studio can add (R-ST2): types built in, packages installed beside the flow, modules in its modules folder. */
  catalogue(): Promise<Catalogue>;
  /** Why an archive of `kind` would be refused whatever it holds (this hub takes no machine edits): said before its bytes are read. */
  uploadRefusal(kind: 'module' | 'package'): HubError | undefined;
  /** Keeps a Companion module's `.tgz` in the flow's modules folder, added by `by` (only with machine edits); its catalogue entry. */
  addModule(name: string, bytes: Uint8Array, by: string): Promise<CatalogueEntry>;
  /** Keeps a patchbay package's `.tgz` in the flow's packages folder and installs it beside the flow, by `by` (only with machine edits); its types as the catalogue lists them. */
  addPackage(name: string, bytes: Uint8Array, by: string): Promise<readonly CatalogueEntry[]>;
  /** Installs a patchbay package beside the flow from the registry the machine reaches, by `by` (only with machine edits); its types as the catalogue lists them. */
  addRegistryPackage(spec: string, by: string): Promise<readonly CatalogueEntry[]>;
}
