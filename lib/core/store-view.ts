/**
 * What a studio can add, as an editor reaches it (R-ST2): what the hub's store does and the
 * HTTP routes serve, in one place; what crosses the wall is in `flow-shapes.ts`.
 */
import type { HubError } from './errors.ts';
import type { Catalogue, CatalogueEntry } from './flow-shapes.ts';

/** The largest archive an editor may add (a Companion module, a package): Companion's builds are a few megabytes, with their node_modules some tens. */
export const MOST_ARCHIVE_BYTES = 128 * 1024 * 1024;

/** What a studio can add, for its editors: code is added only on a hub that takes machine edits, each addition logged with who made it. */
export interface StoreView {
  /** What a studio can add: types built in, packages installed beside the flow, modules in its modules folder. */
  catalogue(): Promise<Catalogue>;
  /** Why an archive of `kind` would be refused whatever it holds (this hub takes no machine edits): said before its bytes are read. */
  uploadRefusal(kind: 'module' | 'package'): HubError | undefined;
  /** Keeps a Companion module's `.tgz` in the flow's modules folder, added by `by` (only with machine edits); its catalogue entry. */
  addModule(name: string, bytes: Uint8Array, by: string): Promise<CatalogueEntry>;
  /** Keeps a patchbay package's `.tgz` in the flow's packages folder and installs it beside the flow, by `by` (only with machine edits); its types as the catalogue lists them. */
  addPackage(name: string, bytes: Uint8Array, by: string): Promise<readonly CatalogueEntry[]>;
  /** Installs a patchbay package beside the flow from the registry the machine reaches, by `by` (only with machine edits); its types as the catalogue lists them. */
  addRegistryPackage(spec: string, by: string): Promise<readonly CatalogueEntry[]>;
  /** Installs a device package that comes with the hub beside the flow, as an upload of its archive, by `by` (only with machine edits); its types as the catalogue lists them. */
  addBoxedPackage(name: string, by: string): Promise<readonly CatalogueEntry[]>;
}
