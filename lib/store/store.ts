/**
 * What a studio can add (R-ST2), as its editors reach it: the catalogue of the types, packages
 * and Companion modules a new connection can be, and modules and packages added to the flow's
 * folder. The flow file itself is the flow editor's (config/flow-editor.ts): an addition
 * writes beside it, never in it.
 */
import { MODULES_FOLDER } from '../config/machine-edits.ts';
import type { ConnectionType } from '../connections/connection.ts';
import { HubError } from '../core/errors.ts';
import type { Catalogue, CatalogueEntry } from '../core/flow-shapes.ts';
import type { Logger } from '../core/log.ts';
import type { StoreView } from '../core/store-view.ts';
import { catalogueOf, moduleTypeIn } from './catalogue.ts';
import { withBoxedArchive } from './boxed.ts';
import { addModule, addPackage, addRegistryPackage, PACKAGES_FOLDER, packFolder, uploadRefusal } from './uploads.ts';

export interface StoreOptions {
  /** The flow file the hub runs: what is added goes in its folder. */
  readonly path: string;
  /**
   * Whether an editor may add code the hub will run (a module, a package): 'allowed' when
   * the hub was started with --allow-machine-edits or its flow's `machineEdits` holds.
   */
  readonly machineEdits: () => 'refused' | 'allowed';
  /** The connection types the hub knows now (built-in and its packages'): the built-in ones listed, the one that runs modules. */
  readonly types: () => readonly ConnectionType[];
  readonly log: Logger;
  /** The modules folders of the Companion installations on this machine whose modules the catalogue offers (companion-installation.ts). */
  readonly companionModules?: () => readonly string[];
}

export class Store implements StoreView {
  constructor(private readonly options: StoreOptions) {}

  async catalogue(): Promise<Catalogue> {
    const types = this.options.types();
    // The packages `plugins` names are those whose types the hub loaded.
    const listed = new Set(types.flatMap((type) => (type.origin ? [type.origin.package] : [])));
    const { entries, partial } = await catalogueOf(this.options.path, types, listed, this.options.companionModules?.() ?? []);
    return { entries, partial, machineEdits: this.allowed };
  }

  uploadRefusal(kind: 'module' | 'package'): HubError | undefined {
    return kind === 'module'
      ? uploadRefusal(this.allowed, 'a module', MODULES_FOLDER)
      : uploadRefusal(this.allowed, 'a package', PACKAGES_FOLDER);
  }

  async addModule(name: string, bytes: Uint8Array, by: string): Promise<CatalogueEntry> {
    const moduleType = moduleTypeIn(this.options.types());
    if (!moduleType) throw new HubError('PB_BAD_REQUEST', 'this hub knows no type that runs Companion modules');
    const entry = await addModule(this.options.path, name, bytes, this.allowed, moduleType);
    this.options.log.info(`module ${name} (${entry.name} ${entry.version ?? ''}) added to the modules folder by ${by}`);
    return entry;
  }

  async addPackage(name: string, bytes: Uint8Array, by: string): Promise<readonly CatalogueEntry[]> {
    const installed = await addPackage(this.options.path, name, bytes, this.allowed);
    this.options.log.info(`package ${installed} (${name}) installed beside the flow by ${by}`);
    return (await this.catalogue()).entries.filter((entry) => entry.package === installed);
  }

  async addBoxedPackage(name: string, by: string): Promise<readonly CatalogueEntry[]> {
    if (!this.allowed) throw uploadRefusal(false, 'a package', PACKAGES_FOLDER) ?? new HubError('PB_FLOW_PROTECTED', 'no machine edits');
    return withBoxedArchive(name, packFolder, (file, bytes) =>
      this.addPackage(file, bytes, `${by} (from the packages that come with the hub)`),
    );
  }

  async addRegistryPackage(spec: string, by: string): Promise<readonly CatalogueEntry[]> {
    const installed = await addRegistryPackage(this.options.path, spec, this.allowed);
    this.options.log.info(`package ${installed} (${spec}) installed from the registry beside the flow by ${by}`);
    return (await this.catalogue()).entries.filter((entry) => entry.package === installed);
  }

  private get allowed(): boolean {
    return this.options.machineEdits() === 'allowed';
  }
}
