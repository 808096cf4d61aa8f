/**
 * `companion-module`: a Bitfocus Companion device module, unmodified, as a connection
 * (R-CM1–R-CM7). The module runs in a process of its own, started and spoken to as
 * Companion's host does (module-process.ts, module-ipc.ts); this connection is the host.
 * Its config is checked against the fields the module declares, its variables are
 * read-only parameters, and the flow binds its actions and feedbacks to parameters.
 *
 * The connection itself always runs in a process of its own (R-PK4's isolation): when the
 * module's process ends, so does the connection's, and the hub keeps its parameters' values
 * and starts both again with its backoff — one mechanism for every process a hub runs.
 *
 * Parameters:
 *   var/<variable id>   read-only   a variable of the module, typed from its values
 *   <action binding>    write-only  runs the bound action (T, or the `$(value)` option's type)
 *   <feedback binding>  read-only   the bound feedback's value (B, S, I or F)
 */
import { resolve } from 'node:path';
import {
  type Checked,
  type ConnectionContext,
  checkParameterId,
  defineConnectionType,
  HubError,
  type Issue,
  ok,
  type SetResult,
  Status,
  type TypedInstance,
  Type,
  valueTypeSetting,
  withDefault,
} from '../../sdk/index.ts';
import { type ActionBinding, Bindings, type FeedbackBinding } from './bindings.ts';
import { configMistakes, type Field, withFieldDefaults } from './fields.ts';
import { isArchive, removeScratch, scratchFolder, unpackModule } from './module-archive.ts';
import { readModuleFolder } from './module-folder.ts';
import { SavedConfig } from './saved-config.ts';
import { type InitAnswer, ModuleProcess } from './module-process.ts';
import { bindingWarnings, DefinitionsKeeper, keptDefinitions } from './definitions.ts';
import { MOST_VARIABLES, Variables, type VariableValue } from './variables.ts';

const options = withDefault(
  Type.Record(Type.String(), Type.Unknown(), {
    description: 'Option values by option id; "$(value)" takes the written value, "$(<connection>:<variable>)" a variable\'s.',
  }),
  {},
);

const settings = Type.Object({
  module: Type.String({
    minLength: 1,
    description:
      "The module: its folder (holding companion/manifest.json) or its .tgz, as Companion's module build makes them; relative to the flow file.",
  }),
  label: Type.Optional(
    Type.String({ description: "The name the module is given (Companion's connection label); the connection id by default." }),
  ),
  config: withDefault(Type.Record(Type.String(), Type.Unknown(), { description: "The module's configuration, by config field id." }), {}),
  secrets: withDefault(
    Type.Record(Type.String(), Type.Unknown(), { description: "Values of the module's secret fields, by field id: never served." }),
    {},
  ),
  actions: withDefault(
    Type.Record(
      Type.String(),
      Type.Object({
        action: Type.String({ minLength: 1, description: "The module's action id." }),
        options,
        type: Type.Optional(valueTypeSetting("The parameter's type; by default the `$(value)` option's, or a trigger.")),
      }),
      { description: 'Write-only parameters, by id, each running an action of the module.' },
    ),
    {},
  ),
  feedbacks: withDefault(
    Type.Record(
      Type.String(),
      Type.Object({
        feedback: Type.String({ minLength: 1, description: "The module's feedback id." }),
        options,
        invert: withDefault(Type.Boolean({ description: "A boolean feedback's value inverted." }), false),
        type: Type.Optional(valueTypeSetting("A value feedback's parameter type (S by default).", ['S', 'I', 'F', 'B'])),
      }),
      { description: 'Read-only parameters, by id, each following a feedback of the module.' },
    ),
    {},
  ),
  timeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 600_000, description: 'Milliseconds the module may take to answer a bound action.' }),
    5000,
  ),
  moduleHangMs: withDefault(
    Type.Integer({
      minimum: 1000,
      maximum: 600_000,
      description:
        "Milliseconds the running module may leave the host's liveness question unanswered (a blocked event loop) before it is killed and started again.",
    }),
    10_000,
  ),
  initTimeout: withDefault(
    Type.Integer({ minimum: 1000, maximum: 600_000, description: 'Milliseconds the module may take to start (its init).' }),
    30_000,
  ),
});

type Settings = {
  readonly module: string;
  readonly label?: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly secrets: Readonly<Record<string, unknown>>;
  readonly actions: Readonly<Record<string, ActionBinding>>;
  readonly feedbacks: Readonly<Record<string, FeedbackBinding>>;
  readonly timeout: number;
  readonly initTimeout: number;
  readonly moduleHangMs: number;
};

/** Companion's statuses of a module, as the connection shows them. */
const STATUSES: Readonly<Record<string, string>> = {
  disconnected: 'disconnected',
  connection_failure: 'connection failure',
  bad_config: 'bad config',
  unknown_error: 'error',
  unknown_warning: 'warning',
};

/** How often a running module is asked whether it still answers. */
const LIVENESS_EVERY_MS = 2000;

/** The upgrade index a module is told its config was last upgraded to, the first time: written for the module as it is, no script runs on it. */
const WRITTEN_FOR_THIS_VERSION = 1_000_000;

function parse(written: Settings): Checked<Settings> {
  const issues: Issue[] = [];
  for (const [kind, bindings] of [
    ['actions', written.actions],
    ['feedbacks', written.feedbacks],
  ] as const) {
    for (const id of Object.keys(bindings)) {
      const checked = checkParameterId(id);
      if (!checked.ok) issues.push({ path: [kind, id], message: checked.error.message });
      else if (id.startsWith('var/') || id === 'var')
        issues.push({ path: [kind, id], message: "var/ holds the module's variables: bind under another id" });
    }
  }
  for (const id of Object.keys(written.actions))
    if (Object.hasOwn(written.feedbacks, id)) issues.push({ path: ['feedbacks', id], message: `"${id}" is bound to an action too` });
  if (issues.length > 0) return { ok: false, issues };
  // Defaults inside a record's entries are not filled by the schema: here they are.
  const actions = Object.fromEntries(
    Object.entries(written.actions).map(([id, binding]) => [id, { ...binding, options: binding.options ?? {} }]),
  );
  const feedbacks = Object.fromEntries(
    Object.entries(written.feedbacks).map(([id, binding]) => [
      id,
      { ...binding, options: binding.options ?? {}, invert: binding.invert ?? false },
    ]),
  );
  return { ok: true, value: { ...written, actions, feedbacks } };
}

class ModuleConnection implements TypedInstance<Settings> {
  private module: ModuleProcess | undefined;
  private readonly variables: Variables;
  private readonly bindings: Bindings;
  private stopped = false;
  private upgradeIndex = WRITTEN_FOR_THIS_VERSION;
  private moduleStatus: { status: string; message: string } = { status: 'connecting', message: '' };
  private overLimit = '';
  private about: Readonly<Record<string, unknown>> = {};
  private presets = 0;
  private readonly saved: SavedConfig;
  /** The config the module runs with: the flow's, or the one it saved. */
  private runsWith: Readonly<Record<string, unknown>> = {};
  /** Keeps what the module declares for `validate`, when the hub keeps state. */
  private keeper: DefinitionsKeeper | undefined;
  /** Where an archive is unpacked when the hub keeps no state: removed at the stop. */
  private scratch: string | undefined;
  /** True once the module's init answered: before, its bindings wait for its definitions. */
  private ready = false;
  /** True while a status is waiting to be shown (after a burst of refusals). */
  private statusDue = false;

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: Settings,
  ) {
    this.variables = new Variables(context, (count) => {
      this.overLimit = `the module defined more than ${MOST_VARIABLES} variables: ${count} dropped`;
      // Said once a burst, not once a variable.
      if (!this.statusDue) {
        this.statusDue = true;
        setImmediate(() => {
          this.statusDue = false;
          this.showStatus();
        });
      }
    });
    this.saved = new SavedConfig(context.records, settings.config, context.log);
    this.bindings = new Bindings(context, settings.actions, settings.feedbacks, {
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
                options: instance.options,
                isInverted: instance.invert,
                upgradeIndex: this.upgradeIndex,
                disabled: false,
                image: { width: 72, height: 72 },
              },
            ]),
          ),
        }),
      substitute: (text) => this.substitute(text),
    });
  }

  private get controlId(): string {
    return `patchbay:${this.context.id}`;
  }

  async start(): Promise<void> {
    try {
      await this.startModule();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async startModule(): Promise<void> {
    const folder = readModuleFolder(this.settings.module, this.context.baseDir, await this.unpacked());
    this.about = { module: folder.id, version: folder.version, api: folder.apiVersion, folder: folder.folder };
    this.context.setStatus(Status.Connecting, `starting ${folder.name} ${folder.version}`);
    if (this.context.filesFolder) this.keeper = new DefinitionsKeeper(this.context.filesFolder, folder, this.context.log);
    this.module = await ModuleProcess.start(
      folder,
      this.context.id,
      {
        calls: this.calls(),
        exited: (reason) => {
          if (this.stopped) return;
          // The connection's process ends with the module's: the hub's isolation says why and starts both again.
          throw new HubError('PB_PROCESS_ENDED', reason);
        },
      },
      this.context.log,
    );
    const fields = await this.module.configFields(this.settings.initTimeout);
    this.keeper?.update({ configFields: fields });
    this.checkConfig(fields);
    const kept = this.context.records.get('upgradeIndex');
    this.runsWith = this.saved.current() ?? withFieldDefaults(fields, this.settings.config, false);
    const answer = (await this.module.ipc.call(
      'init',
      {
        label: this.settings.label ?? this.context.id,
        isFirstInit: false,
        config: this.runsWith,
        secrets: withFieldDefaults(fields, this.settings.secrets, true),
        lastUpgradeIndex: typeof kept === 'number' ? kept : WRITTEN_FOR_THIS_VERSION,
        actions: {},
        feedbacks: {},
      },
      this.settings.initTimeout,
    )) as InitAnswer | undefined;
    // A base from 1.13 on answers the config its upgrade scripts made of it.
    this.keepSaved(answer?.updatedConfig);
    if (typeof answer?.newUpgradeIndex === 'number') {
      this.upgradeIndex = answer.newUpgradeIndex;
      this.context.records.set('upgradeIndex', answer.newUpgradeIndex);
    }
    this.bindings.defineAll();
    this.module.watch(LIVENESS_EVERY_MS, this.settings.moduleHangMs, (reason) => {
      // As for a module that exits: the connection's process ends, and isolation restarts both.
      setImmediate(() => {
        throw new HubError('PB_PROCESS_ENDED', reason);
      });
    });
    this.ready = true;
    this.showStatus();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.keeper?.stop();
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
    return {
      ...this.about,
      ...(this.module?.pid === undefined ? {} : { pid: this.module.pid }),
      variables: this.variables.size,
      presets: this.presets,
      ...(savedConfig === undefined ? {} : { savedConfig }),
      dropped: this.module?.ipc.dropped ?? 0,
    };
  }

  /** A mistake in `config` fails the start at its path, with the field's label (R-CM3). */
  private checkConfig(fields: readonly Field[]): void {
    const [first] = configMistakes(fields, this.settings.config, this.settings.secrets);
    if (first) throw new HubError('PB_START_FAILED', `${first.path.join('.')}: ${first.message}`);
  }

  /** What the module may call on its host. */
  private calls() {
    const list = (payload: unknown, key: string): readonly Record<string, unknown>[] => {
      const items = (payload as Record<string, unknown> | undefined)?.[key];
      return Array.isArray(items) ? items.filter((item) => typeof item === 'object' && item !== null) : [];
    };
    return {
      'log-message': (payload: unknown) => {
        const { level, message } = (payload ?? {}) as { level?: unknown; message?: unknown };
        const log = this.context.log;
        const text = `module: ${String(message).slice(0, 2000)}`;
        if (level === 'error') log.error(text);
        else if (level === 'warn') log.warn(text);
        else if (level === 'debug') log.debug(text);
        else log.info(text);
      },
      'set-status': (payload: unknown) => {
        const { status, message } = (payload ?? {}) as { status?: unknown; message?: unknown };
        this.moduleStatus = { status: String(status), message: typeof message === 'string' ? message : '' };
        this.showStatus();
      },
      setActionDefinitions: (payload: unknown) => {
        const actions = list(payload, 'actions');
        this.bindings.setActions(actions as never);
        this.keeper?.update({ actions: actions.map(({ id, name, options }) => ({ id, name, options })) as never });
      },
      setFeedbackDefinitions: (payload: unknown) => {
        const feedbacks = list(payload, 'feedbacks');
        this.bindings.setFeedbacks(feedbacks as never);
        this.keeper?.update({ feedbacks: feedbacks.map(({ id, name, type, options }) => ({ id, name, type, options })) as never });
      },
      setVariableDefinitions: (payload: unknown) => {
        const variables = list(payload, 'variables');
        this.variables.define(variables as never);
        this.keeper?.update({ variables: variables.map(({ id, name }) => ({ id, name })) as never });
        this.variablesSet(list(payload, 'newValues') as never);
      },
      setVariableValues: (payload: unknown) => this.variablesSet(list(payload, 'newValues') as never),
      updateFeedbackValues: (payload: unknown) => this.bindings.feedbackValues(list(payload, 'values')),
      setPresetDefinitions: (payload: unknown) => {
        const presets = list(payload, 'presets');
        this.presets = presets.length;
        this.keeper?.update({ presets: presets.map(({ id, name, category }) => ({ id, name, category })) as never });
      },
      saveConfig: (payload: unknown) => this.keepSaved((payload as { config?: unknown } | undefined)?.config),
      parseVariablesInString: (payload: unknown) => {
        const text = String((payload as { text?: unknown } | undefined)?.text ?? '');
        return { text: this.substitute(text), variableIds: [] };
      },
      upgradedItems: () => {},
    };
  }

  private keepSaved(config: unknown): void {
    this.saved.save(config, this.runsWith);
    if (typeof config === 'object' && config !== null && !Array.isArray(config)) this.runsWith = config as Record<string, unknown>;
  }

  private variablesSet(values: readonly VariableValue[]): void {
    if (values.length === 0) return;
    this.variables.set(values);
    this.bindings.valuesChanged();
  }

  /**
   * `$(<connection>:<variable>)` and `$(<connection id>/<parameter id>)` replaced by hub
   * values; `$NA` for none, as Companion shows it. The connection runs in a process of its
   * own, which holds its own parameters only: another connection's value reads `$NA`.
   */
  private substitute(text: string): string {
    return text.replace(/\$\(([^()]+)\)/g, (_, name: string) => {
      const colon = name.indexOf(':');
      const [connection, variable] =
        colon > 0 ? [name.slice(0, colon), name.slice(colon + 1)] : [name.split('/')[0], name.split('/').slice(2).join('/')];
      const own = connection === this.context.id || connection === this.settings.label;
      const isVariable = colon > 0 || name.startsWith(`${connection}/var/`);
      return own && isVariable ? (this.variables.text(variable ?? '') ?? '$NA') : '$NA';
    });
  }

  private async execute(id: string, actionId: string, options: Record<string, unknown>, origin: string | undefined): Promise<SetResult> {
    const module = this.module;
    if (!module) throw new HubError('PB_DEVICE_UNAVAILABLE', 'the module is not running');
    const answer = (await module.ipc.call(
      'executeAction',
      { action: { id, controlId: this.controlId, actionId, options, upgradeIndex: this.upgradeIndex, disabled: false }, surfaceId: origin },
      this.settings.timeout,
    )) as { success?: unknown; errorMessage?: unknown } | undefined;
    if (answer && answer.success === false)
      return { ok: false, error: new HubError('PB_BAD_ANSWER', `the module: ${String(answer.errorMessage ?? 'the action failed')}`) };
    return ok(true);
  }

  /** The module's status as the connection's (R-CM2), and what the hub bounded. */
  private showStatus(): void {
    const { status, message } = this.moduleStatus;
    const unknown = this.ready ? this.bindings.unknown() : [];
    const problems = [this.overLimit, ...unknown].filter(Boolean);
    if (status === 'ok' && problems.length === 0) return this.context.setStatus(Status.Ok);
    if (status === 'connecting' && problems.length === 0) return this.context.setStatus(Status.Connecting, message);
    const said = status === 'ok' || status === 'connecting' ? '' : `${STATUSES[status] ?? status}${message ? `: ${message}` : ''}`;
    const code = this.overLimit
      ? 'PB_OVER_LIMIT'
      : status === 'bad_config' || unknown.length > 0
        ? 'PB_START_FAILED'
        : 'PB_DEVICE_UNAVAILABLE';
    this.context.setStatus(Status.Degraded, [said, ...problems].filter(Boolean).join('; '), code);
  }
}

export const companionModuleType = defineConnectionType({
  type: 'companion-module',
  summary: 'A Bitfocus Companion device module, unmodified: its config, variables, actions and feedbacks as parameters.',
  settings,
  ownProcess: true,
  parse: (written) => parse(written as Settings),
  // What the module declared when it last ran here (definitions.ts): its config checked before it starts, its bindings looked at.
  diagnose: (parsed: Settings, { baseDir, filesFolder }) => {
    const kept = keptDefinitions(parsed.module, baseDir, filesFolder);
    return kept ? configMistakes(kept.configFields, parsed.config, parsed.secrets) : [];
  },
  warn: (parsed: Settings, { baseDir, filesFolder }) => {
    const kept = keptDefinitions(parsed.module, baseDir, filesFolder);
    return kept ? bindingWarnings(kept, parsed.actions, parsed.feedbacks) : [];
  },
  create: (context, parsed: Settings) => new ModuleConnection(context, parsed),
});
