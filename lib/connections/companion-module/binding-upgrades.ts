/**
 * Upgrade scripts on the flow's bindings (R-CM7): a newer version of a module may rename an
 * action, a feedback or an option, and carries scripts that rewrite what was written for an
 * older one. Companion runs them on its buttons; here they run on the bindings, from the
 * upgrade index the connection last ran at (kept in its records), when a module starts with
 * more scripts than that: base 1.13 on is asked after `init` (`upgradeActionsAndFeedbacks`),
 * a base before 1.13 runs them inside `init` on the instances `init` is given.
 *
 * What the scripts made of a binding is kept in the records beside the binding as the flow
 * writes it, and used instead of it while the flow writes it so; the flow file is never
 * written. A binding the flow changed since is taken as written for the version that runs.
 * The log says what each upgrade changed, and `details.upgradedBindings` shows it.
 */
import { isDeepStrictEqual } from 'node:util';
import { type Json, type Logger, type Records, reasonOf } from '../../sdk/index.ts';
import type { ActionBinding, FeedbackBinding } from './settings.ts';
import { moduleOptions, type UpgradeInstances } from './companion-wire.ts';

const KEY = 'upgradedBindings';

/** The bindings as the connection runs them. */
export interface BindingSet {
  readonly actions: Readonly<Record<string, ActionBinding>>;
  readonly feedbacks: Readonly<Record<string, FeedbackBinding>>;
}

/** A binding as the flow wrote it, and as the scripts made it. */
interface Upgraded {
  readonly written: Json;
  readonly upgraded: Json;
}

interface Kept {
  readonly actions: Readonly<Record<string, Upgraded>>;
  readonly feedbacks: Readonly<Record<string, Upgraded>>;
}

/** What the module answers `upgradeActionsAndFeedbacks` with (only what the hub reads). */
interface UpgradeAnswer {
  readonly updatedActions?: readonly { readonly id?: unknown; readonly actionId?: unknown; readonly options?: unknown }[];
  readonly updatedFeedbacks?: readonly { readonly id?: unknown; readonly feedbackId?: unknown; readonly options?: unknown }[];
  /** Bindings a base 2.x module's scripts made need Companion's expressions, left as written (base-2/upgrades.ts). */
  readonly refused?: readonly unknown[];
}

const isKept = (kept: Json | undefined): kept is Json & Kept =>
  typeof kept === 'object' && kept !== null && !Array.isArray(kept) && 'actions' in kept && 'feedbacks' in kept;

const asOptions = (options: unknown): Readonly<Record<string, unknown>> =>
  typeof options === 'object' && options !== null && !Array.isArray(options) ? (options as Record<string, unknown>) : {};

/** Whether a module of base `api` answers `upgradeActionsAndFeedbacks` (1.13 on). */
export function upgradesBindings(api: string): boolean {
  const [major = 0, minor = 0] = api.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 13);
}

/** The bindings as the instances a module's upgrade scripts are given, from the script after `fromIndex`. */
export function instancesOf(running: BindingSet, fromIndex: number): UpgradeInstances {
  return {
    defaultUpgradeIndex: fromIndex,
    actions: Object.entries(running.actions).map(([id, binding]) => ({
      id,
      controlId: id,
      actionId: binding.action,
      options: moduleOptions(binding.options),
      upgradeIndex: fromIndex,
      disabled: false,
    })),
    feedbacks: Object.entries(running.feedbacks).map(([id, binding]) => ({
      id,
      controlId: id,
      feedbackId: binding.feedback,
      options: moduleOptions(binding.options),
      isInverted: binding.invert,
      upgradeIndex: fromIndex,
      disabled: false,
    })),
  };
}

/**
 * What a base before 1.13 says it made of the instances `init` gave it (`upgradedItems`:
 * each keyed by id), as 1.13's `upgradeActionsAndFeedbacks` answers (lists).
 */
export function asUpgradeAnswer(items: unknown): UpgradeAnswer {
  const listed = (key: string) => {
    const keyed = (items as Record<string, unknown> | undefined)?.[key];
    return typeof keyed === 'object' && keyed !== null
      ? Object.entries(keyed).flatMap(([id, item]) => (typeof item === 'object' && item !== null ? [{ ...item, id }] : []))
      : [];
  };
  return { updatedActions: listed('updatedActions'), updatedFeedbacks: listed('updatedFeedbacks') };
}

export class BindingUpgrades {
  constructor(
    private readonly records: Records,
    /** The bindings as the flow writes them. */
    private readonly written: BindingSet,
    private readonly log: Logger,
  ) {}

  /** The bindings to run: the flow's, each upgraded one as its scripts made it while the flow writes it so. */
  current(): BindingSet {
    const kept = this.records.get(KEY);
    if (!isKept(kept)) return this.written;
    const pick = <T>(written: Readonly<Record<string, T>>, upgraded: Readonly<Record<string, Upgraded>>): Record<string, T> =>
      Object.fromEntries(
        Object.entries(written).map(([id, binding]) => {
          const done = upgraded[id];
          return [id, done && isDeepStrictEqual(done.written, binding) ? (done.upgraded as T) : binding];
        }),
      );
    return { actions: pick(this.written.actions, kept.actions), feedbacks: pick(this.written.feedbacks, kept.feedbacks) };
  }

  /**
   * Runs the module's scripts on `running` from `fromIndex` (`call` asks the module) and
   * keeps what they changed; the bindings to run from now on.
   */
  async upgrade(running: BindingSet, fromIndex: number, call: (payload: UpgradeInstances) => Promise<unknown>): Promise<BindingSet> {
    const asked = call(instancesOf(running, fromIndex));
    // The scripts are the module's: one that fails leaves the bindings as written, and says so.
    const answer = (await asked.catch((error: unknown) => {
      this.log.warn(`the module's upgrade scripts failed on the bindings (${reasonOf(error)}): they run as the flow writes them`);
      return undefined;
    })) as UpgradeAnswer | undefined;
    for (const refusal of answer?.refused ?? []) this.log.warn(`the module's upgrade scripts: ${String(refusal)}`);
    const actions: Record<string, ActionBinding> = { ...running.actions };
    const feedbacks: Record<string, FeedbackBinding> = { ...running.feedbacks };
    const changed: string[] = [];
    // Many modules' scripts hand back every binding, changed or not: only a change is one (R-CM10).
    for (const item of answer?.updatedActions ?? []) {
      const id = String(item.id);
      const before = actions[id];
      if (!before || typeof item.actionId !== 'string') continue;
      if (item.actionId === before.action && isDeepStrictEqual(asOptions(item.options), before.options)) continue;
      actions[id] = { ...before, action: item.actionId, options: asOptions(item.options) };
      changed.push(`actions.${id}: ${describe(before.action, before.options, item.actionId, asOptions(item.options))}`);
    }
    for (const item of answer?.updatedFeedbacks ?? []) {
      const id = String(item.id);
      const before = feedbacks[id];
      if (!before || typeof item.feedbackId !== 'string') continue;
      if (item.feedbackId === before.feedback && isDeepStrictEqual(asOptions(item.options), before.options)) continue;
      feedbacks[id] = { ...before, feedback: item.feedbackId, options: asOptions(item.options) };
      changed.push(`feedbacks.${id}: ${describe(before.feedback, before.options, item.feedbackId, asOptions(item.options))}`);
    }
    if (changed.length === 0) return running;
    this.keep({ actions, feedbacks });
    this.log.info(`the module's upgrade scripts changed bindings (the flow file is unchanged): ${changed.join('; ')}`);
    return { actions, feedbacks };
  }

  /** What `details` shows: each upgraded binding as it runs. */
  shown(): Json | undefined {
    const kept = this.records.get(KEY);
    if (!isKept(kept)) return undefined;
    const upgraded = (entries: Readonly<Record<string, Upgraded>>) =>
      Object.fromEntries(Object.entries(entries).map(([id, { upgraded }]) => [id, upgraded]));
    return { actions: upgraded(kept.actions), feedbacks: upgraded(kept.feedbacks) } as Json;
  }

  private keep(running: BindingSet): void {
    const upgraded = <T>(written: Readonly<Record<string, T>>, now: Readonly<Record<string, T>>) =>
      Object.fromEntries(
        Object.entries(now)
          .filter(([id, binding]) => !isDeepStrictEqual(binding, written[id]))
          .map(([id, binding]) => [id, { written: written[id] as Json, upgraded: binding as Json }]),
      );
    this.records.set(KEY, {
      actions: upgraded(this.written.actions, running.actions),
      feedbacks: upgraded(this.written.feedbacks, running.feedbacks),
    } as Json);
  }
}

/** An upgrade of one binding in words: `set_level {level} → set_level {percent}`. */
function describe(
  before: string,
  beforeOptions: Readonly<Record<string, unknown>>,
  after: string,
  afterOptions: Readonly<Record<string, unknown>>,
): string {
  const options = (values: Readonly<Record<string, unknown>>) => `{${Object.keys(values).join(', ')}}`;
  return `${before} ${options(beforeOptions)} → ${after} ${options(afterOptions)}`;
}
