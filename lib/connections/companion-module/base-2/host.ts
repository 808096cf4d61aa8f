/**
 * The host entry point a Companion module of base 2.x runs under (R-CM1). From 2.0 a module
 * is no longer a program that speaks to its host: its entry point's default export is a class
 * that expects a host *context* in its own process (its named export `UpgradeScripts` the
 * scripts). This file is that process's main: it loads the module, gives it a context, and
 * speaks to the hub the wire a module of base 1.x speaks (module-ipc.ts) — so the hub has one
 * adapter and one mapping for both families, and what 2.x changed is translated here:
 * definitions given as objects keyed by id, feedbacks checked by the host, upgrade scripts
 * run by the host with options marked as values or expressions, logging through a sink.
 *
 * Run by module-process.ts with the module's entry point as its argument, the module's
 * folder as working directory and the environment a module of base 1.x gets.
 */
import { pathToFileURL } from 'node:url';
import { Channel, type Commands, type Handlers, realTime, reasonOf } from '../../../sdk/index.ts';
import { companionCodec } from '../companion-wire.ts';
import { type Scripts, upgradeBindings, upgradeConfig } from './upgrades.ts';

type Json = Record<string, unknown>;

interface Definition {
  readonly name?: unknown;
  readonly description?: unknown;
  readonly type?: unknown;
  readonly options?: unknown;
  readonly callback?: (event: Json, context: Json) => unknown;
  readonly learn?: unknown;
  readonly learnTimeout?: unknown;
  readonly subscribe?: unknown;
  readonly unsubscribe?: unknown;
  readonly defaultStyle?: unknown;
  readonly showInvert?: unknown;
}

interface ModuleInstance {
  init(config: unknown, isFirstInit: boolean, secrets: unknown): Promise<void>;
  destroy(): Promise<void>;
  configUpdated(config: unknown, secrets: unknown): Promise<void>;
  getConfigFields(): unknown[];
  handleHttpRequest?: unknown;
}

const { CONNECTION_ID = '', VERIFICATION_TOKEN = '' } = process.env;
const entry = process.argv[2] ?? '';

// ---- the wire to the hub: as a module of base 1.x speaks it, on the process kit's channel (module-ipc.ts is the other end)

// (`hub` is made once the handlers below are.)
const call = (name: string, payload: unknown): Promise<unknown> => hub.call(name, payload);
const tell = (name: string, payload: unknown): void => hub.tell(name, payload);

// ---- what the module gives its host

let actions: Readonly<Record<string, Definition>> = {};
let feedbacks: Readonly<Record<string, Definition>> = {};
/** The feedback instances the hub bound, by id. */
const instances = new Map<string, Json>();
const variables = new Map<string, unknown>();
/** Feedbacks to check at the end of this turn, by instance id. */
const due = new Set<string>();
let checking = false;

/** The definitions of a 2.x module (an object keyed by id, `false` for none) as a 1.x module lists them. */
function listed(definitions: Readonly<Record<string, Definition | false | undefined>>) {
  return Object.entries(definitions).flatMap(([id, definition]) =>
    definition
      ? [
          {
            id,
            name: String(definition.name ?? id),
            description: definition.description,
            options: Array.isArray(definition.options) ? definition.options : [],
            type: definition.type,
            defaultStyle: definition.defaultStyle,
            showInvert: definition.showInvert,
            hasLearn: typeof definition.learn === 'function',
            learnTimeout: definition.learnTimeout,
            hasLifecycleFunctions: typeof definition.subscribe === 'function' || typeof definition.unsubscribe === 'function',
          },
        ]
      : [],
  );
}

/** Checks the feedbacks whose instance ids are due, at the end of the turn, and tells the hub their values at once. */
function check(ids: Iterable<string>): void {
  for (const id of ids) due.add(id);
  if (checking) return;
  checking = true;
  setImmediate(async () => {
    checking = false;
    const ids = [...due];
    due.clear();
    const values = await Promise.all(
      ids.map(async (id) => {
        const instance = instances.get(id);
        const definition = instance && feedbacks[String(instance['feedbackId'])];
        if (!instance || typeof definition?.callback !== 'function') return undefined;
        try {
          const event = { ...instance, type: definition.type, previousOptions: null };
          const value = await definition.callback(event, { type: 'feedback' });
          return { id, controlId: instance['controlId'], value };
        } catch (error) {
          log('warn', `feedback ${String(instance['feedbackId'])} failed: ${reasonOf(error)}`);
          return undefined;
        }
      }),
    );
    const told = values.filter((value) => value !== undefined);
    if (told.length > 0) tell('updateFeedbackValues', { values: told });
  });
}

function instancesOf(feedbackIds: readonly string[]): string[] {
  const wanted = new Set(feedbackIds);
  return [...instances].filter(([, instance]) => wanted.has(String(instance['feedbackId']))).map(([id]) => id);
}

function log(level: string, message: string): void {
  tell('log-message', { level, message });
}

/** Methods a later 2.x base may ask of its host that this one does not know: each said once in the log, none fatal. */
const unknownAsked = new Set<string>();

function contextFor(scripts: Scripts): Json {
  const context: Json = {
    _isInstanceContext: true,
    id: CONNECTION_ID,
    label: CONNECTION_ID,
    upgradeScripts: scripts,
    saveConfig: (config: unknown, secrets: unknown) => tell('saveConfig', { config, secrets }),
    updateStatus: (status: unknown, message: unknown) => tell('set-status', { status, message: message ?? null }),
    oscSend: (host: string, port: number, path: string, args: unknown) => tell('send-osc', { host, port, path, args }),
    recordAction: () => {
      throw new Error('Not currently recording actions');
    },
    setActionDefinitions: (definitions: Record<string, Definition>) => {
      actions = definitions;
      tell('setActionDefinitions', { actions: listed(definitions) });
    },
    subscribeActions: () => {},
    unsubscribeActions: () => {},
    setFeedbackDefinitions: (definitions: Record<string, Definition>) => {
      feedbacks = definitions;
      tell('setFeedbackDefinitions', { feedbacks: listed(definitions) });
      check(instances.keys());
    },
    unsubscribeFeedbacks: () => {},
    checkFeedbacks: (feedbackIds: string[]) => check(instancesOf(feedbackIds)),
    checkAllFeedbacks: () => check(instances.keys()),
    checkFeedbacksById: (ids: string[]) => check(ids.filter((id) => instances.has(id))),
    setPresetDefinitions: (structure: unknown, presets: Record<string, Json>) => {
      // 2.0 lists presets apart from the sections that group them: a preset's category is its section's name.
      const sectionOf = new Map<string, string>();
      for (const section of Array.isArray(structure) ? structure : []) collectSection(section, sectionOf);
      tell('setPresetDefinitions', {
        presets: Object.entries(presets ?? {}).map(([id, preset]) => ({ ...preset, id, category: sectionOf.get(id) ?? '' })),
      });
    },
    setVariableDefinitions: (definitions: Record<string, { name?: unknown }>) => {
      for (const id of variables.keys()) if (!Object.hasOwn(definitions, id)) variables.delete(id);
      tell('setVariableDefinitions', {
        variables: Object.entries(definitions ?? {}).map(([id, definition]) => ({ id, name: String(definition?.name ?? id) })),
      });
    },
    setVariableValues: (values: Record<string, unknown>) => {
      const newValues = Object.entries(values ?? {}).map(([id, value]) => {
        variables.set(id, value);
        return { id, value };
      });
      if (newValues.length > 0) tell('setVariableValues', { newValues });
    },
    getVariableValue: (id: string) => variables.get(id),
    sharedUdpSocketHandlers: new Map(),
    sharedUdpSocketJoin: (msg: Json) => call('sharedUdpSocketJoin', msg),
    sharedUdpSocketLeave: (msg: Json) => call('sharedUdpSocketLeave', msg),
    sharedUdpSocketSend: (msg: Json) => call('sharedUdpSocketSend', msg),
  };
  return new Proxy(context, {
    get(target, key) {
      if (typeof key !== 'string' || Object.hasOwn(target, key) || key === 'then') return target[key as string];
      if (!unknownAsked.has(key)) {
        unknownAsked.add(key);
        log('warn', `the module's base asked its host for "${key}", which this hub's host for base 2.0 does not know; it does nothing`);
      }
      return () => undefined;
    },
  });
}

/** Finds the ids of the presets in a section of 2.0's preset structure (its definitions, or its groups' presets), by the section's name. */
function collectSection(section: unknown, into: Map<string, string>, name?: string): void {
  if (typeof section !== 'object' || section === null) return;
  const { name: own, definitions, presets, presetId } = section as Json;
  const label = name ?? String(own ?? '');
  if (typeof presetId === 'string') into.set(presetId, label);
  for (const list of [definitions, presets])
    for (const item of Array.isArray(list) ? list : []) {
      if (typeof item === 'string') into.set(item, label);
      else collectSection(item, into, label);
    }
}

// ---- what the hub asks of the module

let instance: ModuleInstance | undefined;
let scripts: Scripts = [];

const calls: Handlers<Commands> = {
  getConfigFields: () => ({ fields: instance?.getConfigFields() ?? [] }),
  init: async (message) => {
    if (!instance) throw new Error('the module is not loaded');
    const upgraded = upgradeConfig(scripts, message);
    await instance.init(upgraded.config, Boolean(message['isFirstInit']), upgraded.secrets);
    return {
      hasHttpHandler: false,
      hasRecordActionsHandler: false,
      newUpgradeIndex: scripts.length - 1,
      disableNewConfigLayout: false,
      updatedConfig: upgraded.changed ? upgraded.config : undefined,
      updatedSecrets: upgraded.changed ? upgraded.secrets : undefined,
    };
  },
  destroy: async () => {
    await instance?.destroy();
  },
  updateConfigAndLabel: async (message) => {
    await instance?.configUpdated(message['config'], message['secrets']);
  },
  executeAction: async (message) => {
    const action = (message['action'] ?? {}) as Json;
    const definition = actions[String(action['actionId'])];
    if (typeof definition?.callback !== 'function')
      return { success: false, errorMessage: `the module has no action "${String(action['actionId'])}"` };
    try {
      await definition.callback({ ...action, surfaceId: message['surfaceId'] }, { type: 'action', setCustomVariableValue: () => {} });
      return { success: true, errorMessage: undefined };
    } catch (error) {
      return { success: false, errorMessage: reasonOf(error) };
    }
  },
  updateFeedbacks: (message) => {
    const changed: string[] = [];
    for (const [id, given] of Object.entries((message['feedbacks'] ?? {}) as Record<string, Json | null>)) {
      if (given) {
        instances.set(id, given);
        changed.push(id);
      } else instances.delete(id);
    }
    check(changed);
  },
  updateActions: () => {},
  upgradeActionsAndFeedbacks: (message) => upgradeBindings(scripts, message),
  sharedUdpSocketMessage: (message) => handlerOf(message)?.receiveSocketMessage(message),
  sharedUdpSocketError: (message) => handlerOf(message)?.receiveSocketError(message['error']),
  startStopRecordActions: () => {},
  variablesChanged: () => {},
};

// The hub's payloads are the hub's own; what this file hands it is the module's, shaped as base 1.x shapes it.
const hub = new Channel<Commands, Commands>({
  send: (message) => {
    if (process.connected) process.send?.(message);
  },
  handlers: calls,
  scheduler: realTime,
  called: 'the hub',
  codec: companionCodec(),
});
process.on('message', (message) => hub.received(message));

interface SocketHandler {
  receiveSocketMessage(message: unknown): void;
  receiveSocketError(error: unknown): void;
}

function handlerOf(message: Json): SocketHandler | undefined {
  const handlers = context?.['sharedUdpSocketHandlers'] as Map<string, SocketHandler> | undefined;
  return handlers?.get(String(message['handleId']));
}

// ---- start: load the module, make its instance, register with the hub

let context: Json | undefined;

// The base logs through this sink (its createModuleLogger); the source is the module's own name for a part of it.
(globalThis as Record<string, unknown>)['COMPANION_LOGGER'] = (source: unknown, level: unknown, message: unknown) =>
  log(String(level), source ? `[${String(source)}] ${String(message)}` : String(message));

const loaded = (await import(pathToFileURL(entry).href)) as { default?: unknown; UpgradeScripts?: unknown };
if (typeof loaded.default !== 'function')
  throw new Error(`the module's entry point ${entry} has no default export of its class, as base 2.x wants`);
scripts = Array.isArray(loaded.UpgradeScripts) ? (loaded.UpgradeScripts as Scripts) : [];
context = contextFor(scripts);
instance = new (loaded.default as new (context: unknown) => ModuleInstance)(context);
await call('register', { connectionId: CONNECTION_ID, verificationToken: VERIFICATION_TOKEN });
