/**
 * `companion-module`: a Bitfocus Companion device module, unmodified, as a connection
 * (R-CM1–R-CM7). The module runs in a process of its own, started and spoken to as
 * Companion's host does (module-process.ts, module-ipc.ts); this connection is the host.
 * Its config is checked against the fields the module declares, its variables are
 * read-only parameters, and the flow binds its actions and feedbacks to parameters.
 *
 * The module's process is the connection's isolation (R-CM2): when it exits, is killed, stops
 * answering for `moduleHangMs` or holds more than `moduleMaxMemoryMb`, the connection is
 * `failed` with the reason, its parameters keep their values, and the module starts again
 * with the backoff of the hub's own processes (R-PK4). The host is this connection, in the
 * hub's process: a process between the hub and the module would cost every action a hop
 * each way (R-CM8), and the memory of a second Node for each module.
 *
 * Parameters:
 *   var/<variable id>   read-only   a variable of the module, typed from its values
 *   <action binding>    write-only  runs the bound action (T, or the `$(value)` option's type)
 *   <feedback binding>  read-only   the bound feedback's value (B, S, I or F)
 */
import { resolve } from 'node:path';
import {
  type ConnectionContext,
  defineConnectionType,
  HubError,
  ok,
  type Run,
  reasonOf,
  type SetResult,
  Status,
  Supervisor,
  type TypedInstance,
  surfaceOf,
} from '../../sdk/index.ts';
import { upgradesBindings } from './binding-upgrades.ts';
import { Bindings } from './bindings.ts';
import { namesIn } from './option-texts.ts';
import { bindingSchemas, configMistakes, fieldSchemas, refuseConfigMistakes, withFieldDefaults } from './fields.ts';
import { checkEntries, isArchive, removeScratch, scratchFolder, unpackModule } from './module-archive.ts';
import { type ModuleFolder, moduleMistake, readModuleFolder, runs, SPOKEN } from './module-folder.ts';
import { ModuleStatus } from './module-status.ts';
import { SavedConfig } from './saved-config.ts';
import { parse, type Settings, settings } from './settings.ts';
import { type InitAnswer, ModuleProcess } from './module-process.ts';
import { bindingWarnings, DefinitionsKeeper, keptDefinitions } from './definitions.ts';
import { presetsOf } from './presets.ts';
import { VariableNames } from './variable-names.ts';
import { MOST_VARIABLES, Variables, type VariableValue } from './variables.ts';
import { HostServices } from './host-services.ts';
import { moduleOptions } from './companion-wire.ts';
import { definitionsOf, itemsOf, keptOf, valuesOf, variablesOf } from './module-messages.ts';

/** The upgrade index a module is told its config was last upgraded to, the first time: written for the module as it is, no script runs on it. */
const WRITTEN_FOR_THIS_VERSION = 1_000_000;

class ModuleConnection implements TypedInstance<Settings> {
  private module: ModuleProcess | undefined;
  private readonly variables: Variables;
  private readonly bindings: Bindings;
  private readonly services: HostServices;
  private stopped = false;
  private upgradeIndex = WRITTEN_FOR_THIS_VERSION;
  private readonly status: ModuleStatus;
  private about: Readonly<Record<string, unknown>> = {};
  private presets = 0;
  /** Told what a base before 1.13 made of the bindings init gave it. */
  private upgradedItems: ((items: unknown) => void) | undefined;
  private readonly saved: SavedConfig;
  /** The config the module runs with: the flow's, or the one it saved. */
  private runsWith: Readonly<Record<string, unknown>> = {};
  /** Keeps what the module declares for `validate`, when the hub keeps state. */
  private keeper: DefinitionsKeeper | undefined;
  /** Where an archive is unpacked when the hub keeps no state: removed at the stop. */
  private scratch: string | undefined;
  /** True once the module's init answered: before, its bindings wait for its definitions. */
  private ready = false;
  private folder: ModuleFolder | undefined;
  /** Counts the module's runs. */
  private runs = 0;
  /** Its runs, one after another through the hub's backoff for its processes. */
  private readonly supervisor: Supervisor;

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: Settings,
  ) {
    this.supervisor = new Supervisor({
      scheduler: context.scheduler,
      run: () => this.run(),
      down: (error, next) => this.ended(error, next),
      // A refusal is the module's or the flow's to fix: starting it again would say the same.
      final: (error) => error.code === 'PB_START_FAILED' || error.code === 'PB_MODULE_INCOMPATIBLE',
    });
    this.status = new ModuleStatus(
      context,
      settings.connectTimeoutMs,
      () => this.ready,
      () => this.bindings.unknown(),
    );
    this.variables = new Variables(context, (count) =>
      this.status.bounded(`the module defined more than ${MOST_VARIABLES} variables: ${count} dropped`),
    );
    this.saved = new SavedConfig(context.records, settings.config, context.log, context.scheduler);
    this.services = new HostServices(
      (name, payload) => this.module?.ipc.tell(name, payload),
      (text) => context.log.warn(text),
    );
    const inConfig = new Set(Object.values(settings.config).flatMap((value) => (typeof value === 'string' ? namesIn(value) : [])));
    const names = new VariableNames(context, settings.label, (id) => this.variables.textOf(id));
    this.bindings = new Bindings(
      context,
      { actions: settings.actions, feedbacks: settings.feedbacks },
      {
        away: () => this.status.away(this.module !== undefined),
        execute: (id, actionId, options, origin) => this.execute(id, actionId, options, origin),
        watch: (instances) =>
          this.module?.ipc.tell('updateFeedbacks', {
            feedbacks: Object.fromEntries(
              Object.entries(instances).map(([id, instance]) => [
                id,
                instance && {
                  id,
                  controlId: this.controlId,
                  feedbackId: instance.feedbackId,
                  options: moduleOptions(instance.options),
                  isInverted: instance.invert,
                  upgradeIndex: this.upgradeIndex,
                  disabled: false,
                  image: { width: 72, height: 72 },
                },
              ]),
            ),
          }),
        named: (text) => names.named(text),
        read: (name) => names.read(name),
        // Its variables, and what the flow names in its config: a module may parse its config's texts.
        entitled: (name) => names.own(name) || inConfig.has(name),
      },
    );
  }

  private get controlId(): string {
    return `patchbay:${this.context.id}`;
  }

  /**
   * The module is read and started; what refuses it (its manifest, its base, a config
   * mistake) fails the start. A first run that ends (an exit, a hang) is started again, as
   * any later one.
   */
  async start(): Promise<void> {
    try {
      const folder = readModuleFolder(this.settings.module, this.context.baseDir, await this.unpacked());
      this.folder = folder;
      this.about = { module: folder.id, version: folder.version, api: folder.apiVersion, folder: folder.folder };
      if (this.context.filesFolder)
        this.keeper = new DefinitionsKeeper(this.context.filesFolder, folder, this.context.log, this.context.scheduler);
      await this.supervisor.start();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** One run of the module: started, checked, initialised; it ends when its process does. */
  private async run(): Promise<Run> {
    const folder = this.folder as ModuleFolder;
    if (++this.runs > 1) this.variables.restarted();
    this.status.starting(`starting ${folder.name} ${folder.version}`);
    let exited: (reason: string) => void = () => {};
    const ended = new Promise<string>((resolve) => (exited = resolve));
    try {
      await this.startModule(folder, exited);
    } catch (error) {
      throw error instanceof HubError ? error : new HubError('PB_PROCESS_ENDED', reasonOf(error));
    }
    return { ended };
  }

  /**
   * A run ended (an exit, a kill, a hang, its memory) or could not start: the connection is
   * `failed` with the reason, its parameters keep their values and writes are refused until a
   * new run, after the hub's backoff for its processes (R-CM2, R-PK4) — none after a refusal
   * that is the module's or the flow's to fix (`next` undefined).
   */
  private ended(error: HubError, next: { readonly delay: number } | undefined): void {
    if (this.stopped) return;
    const module = this.module;
    this.module = undefined;
    this.ready = false;
    void module?.stop();
    // The shared ports it joined are the ended run's: the next joins its own.
    this.services.stop();
    // A run that ended is failed, not late connecting.
    this.status.stop();
    if (!next) return this.context.setStatus(Status.Failed, error.message, error.code);
    const code = error.code === 'PB_DEVICE_TIMEOUT' ? error.code : 'PB_PROCESS_ENDED';
    this.context.setStatus(Status.Failed, `${error.message}; started again in ${next.delay / 1000} s`, code);
  }

  private async startModule(folder: ModuleFolder, exited: (reason: string) => void): Promise<void> {
    this.module = await ModuleProcess.start(
      folder,
      this.context.id,
      { calls: this.calls(), exited },
      { log: this.context.log, scheduler: this.context.scheduler },
      this.settings.moduleMaxMemoryMb,
    );
    const module = this.module;
    if (this.stopped) return void module.stop();
    const fields = await module.configFields(this.settings.initTimeout);
    this.keeper?.update({ configFields: fields });
    refuseConfigMistakes(fields, this.settings.config, this.settings.secrets);
    const kept = this.context.records.get('upgradeIndex');
    // A base before 1.13 upgrades bindings only inside init, on the instances init gives it.
    const inInit = typeof kept === 'number' && !upgradesBindings(folder.apiVersion) ? this.bindings.upgradeInInit(kept) : undefined;
    this.upgradedItems = inInit?.told;
    this.runsWith = this.saved.current() ?? withFieldDefaults(fields, this.settings.config, false);
    const answer = (await module.ipc.call(
      'init',
      {
        label: this.settings.label ?? this.context.id,
        isFirstInit: false,
        config: this.runsWith,
        secrets: withFieldDefaults(fields, this.settings.secrets, true),
        lastUpgradeIndex: typeof kept === 'number' ? kept : WRITTEN_FOR_THIS_VERSION,
        actions: inInit?.given.actions ?? {},
        feedbacks: inInit?.given.feedbacks ?? {},
      },
      this.settings.initTimeout,
    )) as InitAnswer | undefined;
    // The base says what its scripts made of the bindings before init answers, or said nothing.
    inInit?.told(undefined);
    await inInit?.done;
    // A base from 1.13 on answers the config its upgrade scripts made of it.
    this.keepSaved(answer?.updatedConfig);
    this.services.initAnswered(answer);
    if (typeof answer?.newUpgradeIndex === 'number') {
      this.upgradeIndex = answer.newUpgradeIndex;
      this.context.records.set('upgradeIndex', answer.newUpgradeIndex);
    }
    // A newer version of the module than the one last run here: its scripts upgrade the bindings too.
    if (typeof kept === 'number' && kept < this.upgradeIndex && upgradesBindings(folder.apiVersion))
      await this.bindings.upgrade(kept, (payload) => module.ipc.call('upgradeActionsAndFeedbacks', payload, this.settings.initTimeout));
    this.variables.settle();
    this.bindings.defineAll();
    module.watch(this.settings.moduleHangMs);
    this.ready = true;
    this.status.show();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.supervisor.stop();
    this.status.stop();
    this.bindings.stop();
    this.variables.stop();
    this.services.stop();
    this.keeper?.stop();
    this.saved.stop();
    await this.module?.stop();
    if (this.scratch) await removeScratch(this.scratch);
  }

  /** The folder a `.tgz` module is unpacked to (R-CM1); undefined for a module folder. */
  private async unpacked(): Promise<string | undefined> {
    const { module } = this.settings;
    if (!isArchive(module)) return undefined;
    const folder = this.context.filesFolder ?? (this.scratch = await scratchFolder());
    return unpackModule(resolve(this.context.baseDir, module), module, folder);
  }

  details(): Readonly<Record<string, unknown>> {
    const savedConfig = this.saved.shown();
    const upgradedBindings = this.bindings.upgraded();
    return {
      ...this.about,
      ...(this.module?.pid === undefined ? {} : { pid: this.module.pid }),
      variables: this.variables.size,
      presets: this.presets,
      ...(savedConfig === undefined ? {} : { savedConfig }),
      dropped: this.module?.ipc.dropped ?? 0,
      datagramsDropped: this.services.dropped,
      ...(upgradedBindings === undefined ? {} : { upgradedBindings }),
      ...(this.status.wholeMessage === undefined ? {} : { statusMessage: this.status.wholeMessage }),
    };
  }

  /** What the module may call on its host. */
  private calls() {
    return {
      'set-status': (payload: unknown) => {
        const { status, message } = (payload ?? {}) as { status?: unknown; message?: unknown };
        this.status.set(status, message);
      },
      setActionDefinitions: (payload: unknown) => {
        const actions = definitionsOf(payload, 'actions');
        this.bindings.setActions(actions);
        // A module may define its actions only once its device answers: a binding that named one is known now.
        if (this.ready) this.status.show();
        this.keeper?.update({ actions: actions.map(keptOf) });
      },
      setFeedbackDefinitions: (payload: unknown) => {
        const feedbacks = definitionsOf(payload, 'feedbacks');
        this.bindings.setFeedbacks(feedbacks);
        if (this.ready) this.status.show();
        this.keeper?.update({ feedbacks: feedbacks.map(keptOf) });
      },
      setVariableDefinitions: (payload: unknown) => {
        const variables = variablesOf(payload);
        this.variables.define(variables);
        this.keeper?.update({ variables: variables.map(keptOf) });
        this.variablesSet(valuesOf(payload));
      },
      setVariableValues: (payload: unknown) => this.variablesSet(valuesOf(payload)),
      updateFeedbackValues: (payload: unknown) => this.bindings.feedbackValues(itemsOf(payload, 'values')),
      setPresetDefinitions: (payload: unknown) => {
        const presets = itemsOf(payload, 'presets');
        // Buttons; a text preset is a heading of Companion's page of them.
        this.presets = presets.filter((preset) => preset['type'] !== 'text').length;
        this.keeper?.update({ presets: presetsOf(presets) });
      },
      saveConfig: (payload: unknown) => this.keepSaved((payload as { config?: unknown } | undefined)?.config),
      parseVariablesInString: (payload: unknown) => {
        const text = String((payload as { text?: unknown } | undefined)?.text ?? '');
        return { text: this.bindings.texts.parse(text), variableIds: [] };
      },
      upgradedItems: (payload: unknown) => this.upgradedItems?.(payload),
      ...this.services.calls(),
    };
  }

  private keepSaved(config: unknown): void {
    this.saved.save(config, this.runsWith);
    if (typeof config === 'object' && config !== null && !Array.isArray(config)) this.runsWith = config as Record<string, unknown>;
  }

  private variablesSet(values: readonly VariableValue[]): void {
    if (values.length === 0) return;
    this.variables.set(values, () => this.bindings.valuesChanged());
  }

  private async execute(id: string, actionId: string, options: Record<string, unknown>, origin: string | undefined): Promise<SetResult> {
    const module = this.module;
    if (!module) throw new HubError('PB_DEVICE_UNAVAILABLE', 'the module is not running');
    const answer = (await module.ipc.call(
      'executeAction',
      {
        action: {
          id,
          controlId: this.controlId,
          actionId,
          options: moduleOptions(options),
          upgradeIndex: this.upgradeIndex,
          disabled: false,
        },
        // Companion's surface id for a press of a deck's key (`satellite-<device id>`), as Companion sends it; none otherwise.
        surfaceId: surfaceOf(origin),
      },
      this.settings.timeout,
    )) as { success?: unknown; errorMessage?: unknown } | undefined;
    if (answer && answer.success === false)
      return { ok: false, error: new HubError('PB_BAD_ANSWER', `the module: ${String(answer.errorMessage ?? 'the action failed')}`) };
    return ok(true);
  }
}

const definition = defineConnectionType({
  type: 'companion-module',
  summary: 'A Bitfocus Companion device module, unmodified: its config, variables, actions and feedbacks as parameters.',
  settings,
  parse: (written) => parse(written as Settings),
  // The module itself (there, a module, of a base the hub speaks), then what it declared when
  // it last ran here (definitions.ts): its config checked before it starts, its bindings looked at.
  diagnose: (parsed: Settings, { baseDir, filesFolder }) => {
    const missing = moduleMistake(parsed.module, baseDir);
    if (missing) return [missing];
    const kept = keptDefinitions(parsed.module, baseDir, filesFolder);
    return kept ? configMistakes(kept.configFields, parsed.config, parsed.secrets) : [];
  },
  warn: (parsed: Settings, { baseDir, filesFolder }) => {
    const kept = keptDefinitions(parsed.module, baseDir, filesFolder);
    return kept ? bindingWarnings(kept, parsed.actions, parsed.feedbacks) : [];
  },
  // The module's config fields as the forms of `config` and `secrets` (R-CM3), once it has run here.
  settingsOf: (parsed: Settings, { baseDir, filesFolder }) => {
    const kept = keptDefinitions(parsed.module, baseDir, filesFolder);
    return kept
      ? {
          ...fieldSchemas(kept.configFields),
          ...bindingSchemas(
            kept.actions,
            kept.feedbacks,
            kept.presets.filter((preset) => preset.key),
          ),
        }
      : undefined;
  },
  create: (context, parsed: Settings) => new ModuleConnection(context, parsed),
});

/**
 * The type, and how a module archive added from the console (R-ST2) is checked before the
 * flow's `modules` folder keeps it: its entries as a start checks them, and a manifest of a
 * runtime the hub runs. The store finds it on this type in the list of types.
 */
export const companionModuleType = { ...definition, moduleArchives: { check: checkEntries, speaks: runs, spoken: SPOKEN } };
