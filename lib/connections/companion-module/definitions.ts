/**
 * What a module declared as it last ran here, kept per module version (R-CM3, R-CM5): its
 * config fields, actions, feedbacks, presets and variables, written by the connection's
 * process into the type's files folder (`definitions/<module id>@<version>.json`) a second
 * after they last changed, or when the connection stops (a start the config refused has read
 * the fields); what a run does not declare anew stands as an earlier run kept it. Reading the flow (`patchbay validate`, a hub's start and
 * reloads) then checks a connection's config against the fields — a mistake keeps that
 * connection from starting, as its start would find — and its bindings against the actions
 * and feedbacks, as warnings: a module may define those from the device it finds.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Subscription } from 'rxjs';
import { after, type Issue, type Logger, type Scheduler } from '../../sdk/index.ts';
import type { Definition } from './bindings.ts';
import type { ActionBinding, FeedbackBinding } from './settings.ts';
import type { Field } from './fields.ts';
import type { Preset } from './presets.ts';
import { isArchive, unpackedModule } from './module-archive.ts';
import { type ModuleFolder, readModuleFolder } from './module-folder.ts';

/** A kept file bigger than this is not written: the definitions of the largest routers are some megabytes. */
export const MOST_DEFINITION_BYTES = 16 * 1024 * 1024;

/** How long after the last change of its definitions they are written. */
const SETTLE_MS = 1000;

export interface Definitions {
  readonly module: string;
  readonly version: string;
  readonly api: string;
  /** When the module last declared them (ISO 8601). */
  readonly learnt: string;
  readonly configFields: readonly Field[];
  readonly actions: readonly Definition[];
  readonly feedbacks: readonly Definition[];
  readonly presets: readonly Preset[];
  readonly variables: readonly { readonly id: string; readonly name?: string }[];
}

const fileOf = (filesFolder: string, module: ModuleFolder) =>
  join(filesFolder, 'definitions', `${module.id}@${module.version}.json`.replace(/[^\w.@-]/g, '_'));

/** Writes a running module's definitions, a second after they last changed, or at once when it stops. */
export class DefinitionsKeeper {
  private pending: Subscription | undefined;
  private current: Omit<Definitions, 'learnt'>;

  constructor(
    private readonly filesFolder: string,
    private readonly module: ModuleFolder,
    private readonly log: Logger,
    private readonly scheduler: Scheduler,
  ) {
    // What an earlier run of this version declared stands until this run declares it anew: a
    // run the config refuses reads only the fields, and must not leave the actions empty.
    let earlier: Partial<Definitions> = {};
    try {
      earlier = JSON.parse(readFileSync(fileOf(filesFolder, module), 'utf8')) as Definitions;
    } catch {}
    this.current = {
      module: module.id,
      version: module.version,
      api: module.apiVersion,
      configFields: earlier.configFields ?? [],
      actions: earlier.actions ?? [],
      feedbacks: earlier.feedbacks ?? [],
      presets: earlier.presets ?? [],
      variables: earlier.variables ?? [],
    };
  }

  /** Takes a part the module declared (again). */
  update(part: Partial<Omit<Definitions, 'module' | 'version' | 'api' | 'learnt'>>): void {
    this.current = { ...this.current, ...part };
    this.pending?.unsubscribe();
    this.pending = after(this.scheduler, SETTLE_MS, () => {
      this.pending = undefined;
      this.write();
    });
  }

  /**
   * Writes what is waiting at once: a start the config refused (a required field missing) has
   * read the fields, and the console's form of `config` needs them for the user to fill in.
   */
  stop(): void {
    if (this.pending === undefined) return;
    this.pending.unsubscribe();
    this.pending = undefined;
    this.write();
  }

  private write(): void {
    const text = JSON.stringify({ ...this.current, learnt: new Date().toISOString() });
    if (text.length > MOST_DEFINITION_BYTES) {
      this.log.warn(`the module's definitions are ${text.length} bytes: over ${MOST_DEFINITION_BYTES}, not kept for validate`);
      return;
    }
    const file = fileOf(this.filesFolder, this.module);
    try {
      mkdirSync(join(this.filesFolder, 'definitions'), { recursive: true, mode: 0o700 });
      writeFileSync(`${file}.partial`, text, { mode: 0o600 });
      renameSync(`${file}.partial`, file);
    } catch (error) {
      this.log.warn(`the module's definitions could not be kept for validate: ${String(error)}`);
    }
  }
}

/** The definitions kept for the module a connection names, when it ran here (this version of it); undefined otherwise. */
export function keptDefinitions(written: string, baseDir: string, filesFolder: string | undefined): Definitions | undefined {
  if (filesFolder === undefined) return undefined;
  try {
    const unpacked = isArchive(written) ? unpackedModule(resolve(baseDir, written), filesFolder) : undefined;
    if (isArchive(written) && unpacked === undefined) return undefined;
    const module = readModuleFolder(written, baseDir, unpacked);
    return JSON.parse(readFileSync(fileOf(filesFolder, module), 'utf8')) as Definitions;
  } catch {
    return undefined;
  }
}

/** Bindings naming an action, a feedback or an option the module did not declare when it last ran here. */
export function bindingWarnings(
  kept: Definitions,
  actions: Readonly<Record<string, ActionBinding>>,
  feedbacks: Readonly<Record<string, FeedbackBinding>>,
): Issue[] {
  const issues: Issue[] = [];
  const said = `${kept.module} ${kept.version}, as it last ran here,`;
  for (const [kind, bindings, declared, key] of [
    ['actions', actions, kept.actions, 'action'],
    ['feedbacks', feedbacks, kept.feedbacks, 'feedback'],
  ] as const) {
    const byId = new Map(declared.map((definition) => [definition.id, definition]));
    for (const [id, binding] of Object.entries(bindings as Record<string, ActionBinding & FeedbackBinding>)) {
      const definition = byId.get(binding[key]);
      if (!definition) {
        issues.push({ path: [kind, id, key], message: `${said} has no ${key} "${binding[key]}"` });
        continue;
      }
      const options = new Set((definition.options ?? []).map((option) => option.id));
      for (const option of Object.keys(binding.options))
        if (!options.has(option))
          issues.push({ path: [kind, id, 'options', option], message: `${said} has no option "${option}" in ${key} "${binding[key]}"` });
    }
  }
  return issues;
}
