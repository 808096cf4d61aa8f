/**
 * A module's actions and feedbacks, bound in the flow file to parameters (R-CM5, R-CM6).
 *
 * An action binding is a write-only parameter: a write runs the action with the binding's
 * options, where an option written `$(value)` takes the written value as its field holds it
 * and `$(…)` in a text takes hub values; options that do not fit their fields are refused at
 * once (400 at the option), and the write is answered with the module's answer. Its type is
 * the binding's `type`, else the `$(value)` option's kind, else a trigger.
 *
 * A feedback binding is a read-only parameter: the hub registers one instance of the
 * feedback and the module re-checks it as its state changes. A boolean feedback is B
 * (inverted with `invert`), a value feedback its binding's `type` (S by default), an
 * advanced one its style as JSON text.
 */
import { merge, type Subscription, skip } from 'rxjs';
import {
  Access,
  type ConnectionContext,
  convert,
  fail,
  HubError,
  ok,
  type OwnedParameter,
  type ParameterMeta,
  reasonOf,
  type SetResult,
  type Value,
  type ValueType,
  ValueType as Types,
} from '../../sdk/index.ts';
import { asUpgradeAnswer, type BindingSet, BindingUpgrades, instancesOf } from './binding-upgrades.ts';
import type { ActionBinding, FeedbackBinding } from './settings.ts';
import { asOption, type Field, labelOf, metaOf, misfit, named, valueTypeOf } from './fields.ts';
import { namesIn, OptionTexts, WRITTEN } from './option-texts.ts';
import type { UpgradeInstances } from './companion-wire.ts';

/** An action or a feedback as the module declares it; only what the hub reads is named. */
export interface Definition {
  readonly id: string;
  readonly name?: string;
  readonly options?: readonly Field[];
  /** A feedback's kind. */
  readonly type?: string;
}

/** What the bindings ask of the module. */
export interface BindingPort {
  /** Why the module cannot take a write now (it is not ok: connecting, failed, its process down), or undefined when it can (R-CM9). */
  away(): string | undefined;
  /** Runs an action: resolves once the module answered, with its error when it refused. */
  execute(parameterId: string, actionId: string, options: Record<string, unknown>, origin: string | undefined): Promise<SetResult>;
  /** Registers (or, with `null`, removes) feedback instances, by parameter id. */
  watch(
    instances: Readonly<
      Record<string, { readonly feedbackId: string; readonly options: Record<string, unknown>; readonly invert: boolean } | null>
    >,
  ): void;
  /** The text of `$(name)` (option-texts.ts). */
  read(name: string): string;
  /** Whether a module may read `$(name)` besides what the bindings name: its variables, its config's. */
  entitled(name: string): boolean;
  /** The hub values a text names, other than the connection's own variables (which the host follows itself). */
  named(text: string): readonly string[];
}

export class Bindings {
  private actionDefinitions = new Map<string, Definition>();
  private feedbackDefinitions = new Map<string, Definition>();
  private readonly feedbackParameters = new Map<string, OwnedParameter>();
  private readonly actionParameters = new Map<string, OwnedParameter>();
  /** Each feedback's options as last sent, so that a change of a hub value they name sends them again. */
  private readonly sentOptions = new Map<string, string>();
  private defined = false;
  /** Following the hub values feedback options name. */
  private following: Subscription | undefined;

  /** The options' texts, filled in, and those the module asks about. */
  readonly texts: OptionTexts;
  /** Upgrade scripts' changes to the flow's bindings, kept across starts. */
  private readonly upgrades: BindingUpgrades;
  private actions: Readonly<Record<string, ActionBinding>>;
  private feedbacks: Readonly<Record<string, FeedbackBinding>>;

  constructor(
    private readonly context: ConnectionContext,
    written: BindingSet,
    private readonly port: BindingPort,
  ) {
    this.upgrades = new BindingUpgrades(context.records, written, context.log);
    this.texts = new OptionTexts({ read: port.read, entitled: (name) => port.entitled(name) || this.names().has(name) });
    ({ actions: this.actions, feedbacks: this.feedbacks } = this.upgrades.current());
  }

  /**
   * Runs the module's upgrade scripts on the bindings from `fromIndex` (a module of base 1.13
   * on; `call` asks it); the parameters keep their types.
   */
  async upgrade(fromIndex: number, call: (payload: UpgradeInstances) => Promise<unknown>): Promise<void> {
    ({ actions: this.actions, feedbacks: this.feedbacks } = await this.upgrades.upgrade(
      { actions: this.actions, feedbacks: this.feedbacks },
      fromIndex,
      call,
    ));
  }

  /**
   * For a base before 1.13, which runs its scripts inside `init` on the instances `init` is
   * given: the bindings as those instances (`given`, keyed by id), and the upgrade, which ends
   * when `told` hears what the base made of them (`upgradedItems`) — or nothing, once `init`
   * answered without it.
   */
  upgradeInInit(fromIndex: number) {
    const { actions, feedbacks } = instancesOf({ actions: this.actions, feedbacks: this.feedbacks }, fromIndex);
    const byId = <T extends { readonly id: string }>(items: readonly T[]) => Object.fromEntries(items.map((item) => [item.id, item]));
    let told: (items: unknown) => void = () => {};
    const items = new Promise<unknown>((resolve) => {
      told = resolve;
    });
    return {
      given: { actions: byId(actions), feedbacks: byId(feedbacks) },
      told: (upgraded: unknown) => told(upgraded),
      done: this.upgrade(fromIndex, () => items.then(asUpgradeAnswer)),
    };
  }

  /** What `details` shows of upgraded bindings; undefined when none was. */
  upgraded(): unknown {
    return this.upgrades.shown();
  }

  /** The module's action definitions, as it sent them last. */
  setActions(definitions: readonly Definition[]): void {
    this.actionDefinitions = new Map(definitions.map((definition) => [definition.id, definition]));
    // What the parameters say of themselves follows (a router's input names in its choices).
    for (const [id, parameter] of this.actionParameters) parameter.describe(this.actionMeta(this.actions[id], parameter.type));
    this.defineKnown();
  }

  /** The module's feedback definitions, as it sent them last. */
  setFeedbacks(definitions: readonly Definition[]): void {
    this.feedbackDefinitions = new Map(definitions.map((definition) => [definition.id, definition]));
    for (const [id, parameter] of this.feedbackParameters) parameter.describe(this.feedbackMeta(this.feedbacks[id]));
    this.defineKnown();
  }

  /**
   * Defines the bound parameters and registers the feedbacks with the module, once its `init`
   * answered; a module started again gets its feedbacks registered, and the parameters stay
   * as they are.
   */
  defineAll(): void {
    if (this.defined) return this.watchFeedbacks(false);
    this.defined = true;
    this.followNamed();
    this.defineKnown();
    this.watchFeedbacks(false);
  }

  /**
   * Defines each bound parameter whose type is known — from the binding (its `type`, a
   * trigger, `$(value)` inside a text) or from the module's definition of its action or
   * feedback — and keeps that type. A module may define its actions and feedbacks only once
   * its device answers (Companion's OBS module does): such a binding waits for them, rather
   * than take a type it would keep wrong (a boolean feedback as text), and a feedback
   * registered before is registered again, so that the module says its value anew.
   */
  private defineKnown(): void {
    if (!this.defined) return;
    for (const [id, binding] of Object.entries(this.actions)) {
      const type = this.actionParameters.has(id) ? undefined : this.actionType(binding);
      if (type === undefined) continue;
      const parameter = this.context.define(id, {
        type,
        access: Access.WriteOnly,
        meta: this.actionMeta(binding, type),
        ownedHere: true,
        forward: (value, origin, answered) => this.run(id, this.actions[id] ?? binding, value, origin, answered),
      });
      this.actionParameters.set(id, parameter);
    }
    let late = false;
    for (const [id, binding] of Object.entries(this.feedbacks)) {
      const type = this.feedbackParameters.has(id) ? undefined : this.feedbackType(binding);
      if (type === undefined) continue;
      this.feedbackParameters.set(id, this.context.define(id, { type, access: Access.ReadOnly, meta: this.feedbackMeta(binding) }));
      late = this.sentOptions.delete(id) || late;
    }
    if (late) this.watchFeedbacks(true);
  }

  /** Bindings that name an action or a feedback the module does not define, in words; none when all are known. */
  unknown(): readonly string[] {
    const actions = Object.entries(this.actions)
      .filter(([, binding]) => !this.actionDefinitions.has(binding.action))
      .map(([id, binding]) => `actions.${id}: the module has no action "${binding.action}"`);
    const feedbacks = Object.entries(this.feedbacks)
      .filter(([, binding]) => !this.feedbackDefinitions.has(binding.feedback))
      .map(([id, binding]) => `feedbacks.${id}: the module has no feedback "${binding.feedback}"`);
    return [...actions, ...feedbacks];
  }

  /** Values the module found for the feedback instances. */
  feedbackValues(values: readonly { readonly id?: unknown; readonly value?: unknown }[]): void {
    for (const { id, value } of values) {
      const binding = typeof id === 'string' ? this.feedbacks[id] : undefined;
      const parameter = typeof id === 'string' ? this.feedbackParameters.get(id) : undefined;
      if (!binding || !parameter || value === undefined) continue;
      if (parameter.type === Types.Boolean) parameter.report(Boolean(value) !== binding.invert);
      else if (typeof value === 'object' && value !== null) parameter.report(JSON.stringify(value));
      else {
        const converted = convert(value, parameter.type);
        parameter.report(converted.ok ? converted.value : String(value));
      }
    }
  }

  /** Sends again the feedbacks whose options name hub values that changed. */
  valuesChanged(): void {
    this.watchFeedbacks(true);
  }

  /** The names of the `$(…)` in the bindings' options: what the connection's settings entitle it to read. */
  private names(): ReadonlySet<string> {
    const bindings = [...Object.values(this.actions), ...Object.values(this.feedbacks)];
    return new Set(
      bindings.flatMap((binding) =>
        Object.values(binding.options).flatMap((option) => (typeof option === 'string' ? namesIn(option) : [])),
      ),
    );
  }

  /** Stops following hub values. */
  stop(): void {
    this.following?.unsubscribe();
  }

  /** A change of a hub value that feedback options name sends those options again (R-CM6). */
  private followNamed(): void {
    const addresses = new Set(
      Object.values(this.feedbacks).flatMap((binding) =>
        Object.values(binding.options).flatMap((option) => (typeof option === 'string' ? this.port.named(option) : [])),
      ),
    );
    if (addresses.size === 0) return;
    try {
      // Each watch says the value it finds first: what the first registration already sent.
      this.following = merge(...[...addresses].map((address) => this.context.graph.watch(address).pipe(skip(1)))).subscribe(() =>
        this.valuesChanged(),
      );
    } catch {
      // With `isolate: "process"` the hub's values are not in the connection's process: they read $NA, and are not followed.
    }
  }

  private watchFeedbacks(changedOnly: boolean): void {
    const instances: Record<string, { feedbackId: string; options: Record<string, unknown>; invert: boolean }> = {};
    for (const [id, binding] of Object.entries(this.feedbacks)) {
      const options = this.filled(binding.options, this.feedbackDefinitions.get(binding.feedback)?.options ?? [], undefined);
      const text = JSON.stringify(options);
      if (changedOnly && this.sentOptions.get(id) === text) continue;
      this.sentOptions.set(id, text);
      instances[id] = { feedbackId: binding.feedback, options, invert: binding.invert };
    }
    if (Object.keys(instances).length > 0) this.port.watch(instances);
  }

  /**
   * What an action's parameter says of itself (R-PK6): the action's name, and the range or
   * choices of the option it writes into when its type is that option's own.
   */
  private actionMeta(binding: ActionBinding | undefined, type: ValueType): ParameterMeta | undefined {
    if (!binding) return undefined;
    const definition = this.actionDefinitions.get(binding.action);
    const written = Object.entries(binding.options).find(([, value]) => value === WRITTEN)?.[0];
    const field = definition?.options?.find((candidate) => candidate.id === written);
    const label = binding.label ?? labelOf(definition?.name, binding.action);
    return field && valueTypeOf(field) === type ? { label, ...metaOf(field) } : { label };
  }

  private feedbackMeta(binding: FeedbackBinding | undefined): ParameterMeta | undefined {
    return binding && { label: binding.label ?? labelOf(this.feedbackDefinitions.get(binding.feedback)?.name, binding.feedback) };
  }

  /** The type of an action's parameter; undefined while it needs the module's definition, which has not come. */
  private actionType(binding: ActionBinding): ValueType | undefined {
    if (binding.type) return binding.type;
    const written = Object.entries(binding.options).find(([, value]) => value === WRITTEN)?.[0];
    if (written === undefined) {
      // `$(value)` inside a text takes the value as text; without it, a write only runs the action.
      const inText = Object.values(binding.options).some((value) => typeof value === 'string' && value.includes(WRITTEN));
      return inText ? Types.String : Types.Trigger;
    }
    const definition = this.actionDefinitions.get(binding.action);
    if (!definition) return undefined;
    const field = definition.options?.find((candidate) => candidate.id === written);
    return field ? valueTypeOf(field) : Types.String;
  }

  /** The type of a feedback's parameter (its kind's); undefined while the module has not defined the feedback. */
  private feedbackType(binding: FeedbackBinding): ValueType | undefined {
    const definition = this.feedbackDefinitions.get(binding.feedback);
    if (!definition) return binding.type;
    return definition.type === 'boolean' ? Types.Boolean : definition.type === 'advanced' ? Types.String : (binding.type ?? Types.String);
  }

  private run(
    id: string,
    binding: ActionBinding,
    value: Value,
    origin: string | undefined,
    answered?: (result: SetResult) => void,
  ): SetResult {
    const definition = this.actionDefinitions.get(binding.action);
    if (!definition) return fail('PB_DEVICE_UNAVAILABLE', `the module has no action "${binding.action}" (yet)`);
    const fields = definition.options ?? [];
    // A name the action does not declare would be sent beside the field it meant, which the module fills with its default.
    const unknown = Object.keys(binding.options).find((key) => !fields.some((field) => field.id === key));
    if (unknown !== undefined)
      return fail(
        'PB_BAD_REQUEST',
        `action "${binding.action}" has no option "${unknown}" (it has ${fields.map((field) => `"${field.id}"`).join(', ') || 'none'})`,
      );
    const options = this.filled(binding.options, fields, value);
    for (const field of fields) {
      const why = misfit(field, options[field.id]);
      if (why) return fail('PB_BAD_REQUEST', `option ${named(field)} of action "${binding.action}" ${why}`);
    }
    if (!this.context.fence.holds()) return { ok: false, error: this.context.fence.refusal() };
    // A write the device would never get is refused, not answered 200 (R-CM9).
    const away = this.port.away();
    if (away !== undefined) return fail('PB_DEVICE_UNAVAILABLE', away);
    void this.port
      .execute(id, binding.action, options, origin)
      .catch((error: unknown): SetResult => (error instanceof HubError ? { ok: false, error } : fail('PB_BAD_ANSWER', reasonOf(error))))
      .then((result) => answered?.(result));
    return ok(true);
  }

  /** The options as sent: each field's default, then the binding's, `$(value)` and `$(…)` filled in. */
  private filled(written: Readonly<Record<string, unknown>>, fields: readonly Field[], value: Value | undefined): Record<string, unknown> {
    const options: Record<string, unknown> = {};
    for (const field of fields) if (field.default !== undefined) options[field.id] = field.default;
    for (const [key, raw] of Object.entries(written)) {
      const field = fields.find((candidate) => candidate.id === key);
      if (raw === WRITTEN && value !== undefined) {
        const option = field ? asOption(field, value) : value;
        // A text goes through the one filling, so a module's parse of it leaves it as it is.
        options[key] = typeof option === 'string' ? this.texts.fill(WRITTEN, option) : option;
      } else if (typeof raw === 'string' && raw.includes('$('))
        options[key] = this.texts.fill(raw, value === undefined ? undefined : String(value));
      else options[key] = raw;
    }
    return options;
  }
}
