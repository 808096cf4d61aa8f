/**
 * The `keys` setting at work, without rules: a bound key shows its text, with the values it
 * names live in it, and its colour follows `show` (true, or the value `is`); a press of it
 * toggles, holds, fires or sets its target.
 */
import { combineLatest, filter, startWith } from 'rxjs';
import {
  after,
  type Answered,
  compileExpression,
  type ConnectionContext,
  FIRE,
  fail,
  HubError,
  ok,
  type SetResult,
  SparseLog,
  type Value,
  keyOrigin,
  satelliteSurface,
} from '../../sdk/index.ts';
import type { Device } from './devices.ts';
import type { KeyLooks } from './key-looks.ts';
import type { KeyBinding } from './settings.ts';

/**
 * What a key shows while a press of it was refused, and for how long (R-RS6): amber, which
 * no tally says — red on a desk reads as on air.
 */
export const FAILED_COLOR = '#ff8000';
const FAILED_SHOWN_MS = 2000;

export class KeyBindings {
  /** Keys showing a refused press, until they show their own colour again. */
  private readonly failedShown = new Map<string, { unsubscribe(): void }>();

  /** Texts whose expression failed, said at most so often: a value may change a hundred times a second. */
  private readonly failedTexts: SparseLog;

  constructor(
    private readonly context: ConnectionContext,
    private readonly bindings: readonly KeyBinding[],
    private readonly looks: KeyLooks,
  ) {
    this.failedTexts = new SparseLog(context.log, context.scheduler, 'failed');
  }

  /** Gives each bound key its look, and its colour to follow `show`: the subscriptions to end at stop. */
  start(): { unsubscribe(): void }[] {
    const { context, looks } = this;
    const watching: { unsubscribe(): void }[] = [];
    for (const binding of this.bindings) {
      looks.pin(binding.device, binding.key);
      const { named, textOf } = this.textOf(binding);
      // Through `set`: a deck already there (the keys changed in place) is sent its new look.
      looks.set(binding.device, binding.key, 'text', textOf(new Map()), 'keys');
      looks.set(binding.device, binding.key, 'textColor', binding.textColor, 'keys');
      looks.set(binding.device, binding.key, 'color', binding.off, 'keys');
      if (named.length > 0)
        watching.push(
          // Told again when a named parameter says anew what it is: its choice's label may have changed.
          combineLatest([
            ...named.map((address) => context.graph.watch(address)),
            context.graph.described$.pipe(
              filter((parameter) => named.includes(parameter.address)),
              startWith(undefined),
            ),
          ]).subscribe((values) =>
            looks.set(
              binding.device,
              binding.key,
              'text',
              textOf(new Map(named.map((address, at) => [address, values[at] as Value | undefined]))),
              'keys text',
            ),
          ),
        );
      if (binding.show !== '')
        watching.push(
          context.graph
            .watch(binding.show)
            .subscribe((value: Value | undefined) =>
              looks.set(binding.device, binding.key, 'color', lights(binding, value) ? binding.on : binding.off, `keys ${binding.show}`),
            ),
        );
    }
    // A misspelt address runs (the key waits for the parameter), but says so once the hub runs.
    context.whenRunning(() =>
      this.bindings.forEach((binding, index) => {
        for (const field of ['show', 'target'] as const)
          if (binding[field] !== '' && !context.graph.get(binding[field]))
            context.log.warn(`keys[${index}].${field}: there is no parameter ${binding[field]} (yet); the key waits for it`);
      }),
    );
    watching.push({
      unsubscribe: () => {
        for (const shown of this.failedShown.values()) shown.unsubscribe();
        this.failedShown.clear();
        // Keys bound anew (or no more) start with no refusal of what they wrote before.
        for (const binding of this.bindings) {
          context.problem(`key ${binding.device}/${binding.key}`, undefined);
          context.problem(`key text ${binding.device}/${binding.key}`, undefined);
        }
      },
    });
    return watching;
  }

  /**
   * What a key's text names, and its text for their values: the text with each `$(…)` as
   * its value reads (a choice by its label), or, with `textExpression`, the expression's
   * value (R-RS2), evaluated on the values as they are; one it cannot make is shown `!`, and
   * said at warn.
   */
  private textOf(binding: KeyBinding): { named: readonly string[]; textOf: (values: ReadonlyMap<string, Value | undefined>) => string } {
    const { context } = this;
    if (!binding.textExpression) {
      const named = namesIn(binding.text);
      if (named.length === 0) return { named, textOf: () => binding.text };
      return {
        named,
        textOf: (values) =>
          withValues(binding.text, new Map(named.map((address) => [address, shownAs(context, address, values.get(address))]))),
      };
    }
    // Checked when the settings were read.
    const expression = compileExpression(binding.text, []);
    const part = `key text ${binding.device}/${binding.key}`;
    return {
      named: expression.addresses,
      textOf: (values) => {
        try {
          const value = expression.evaluate([], (address) => values.get(address));
          context.problem(part, undefined);
          return value === undefined || value === null ? '–' : String(value);
        } catch (error) {
          const said = `the text's expression failed: ${(error as Error).message}`;
          this.failedTexts.warn(`keys of ${binding.device} key ${binding.key}: ${said}`);
          context.problem(part, { code: 'PB_CONVERSION', message: said });
          return '!';
        }
      },
    };
  }

  /** The keys these bind and `next` does not. */
  unboundIn(next: readonly KeyBinding[]): { readonly device: string; readonly key: number }[] {
    return this.bindings.filter((binding) => !next.some((other) => other.device === binding.device && other.key === binding.key));
  }

  /**
   * Key `key` of device `deviceId` went down or up: what the bindings of that key write.
   * One path for every press — a desk's through its satellite, the console's as a write of
   * the key's `pressed` — so a write refused, now or when its device answers later, leaves
   * the same trace (R-RS6): a warning with the key and who pressed it, a problem of the key
   * until one of its presses is taken, FAILED_COLOR on the key for two seconds, and
   * `answered` (the console's write) told the first refusal.
   */
  press(deviceId: string, key: number, down: boolean, origin: string, answered?: Answered): void {
    let waiting = 1;
    let refusal: SetResult | undefined;
    const settled = (result: SetResult) => {
      if (!result.ok) refusal ??= result;
      if (--waiting === 0) answered?.(refusal ?? ok(true));
    };
    this.bindings.forEach((binding, index) => {
      if (binding.device !== deviceId || binding.key !== key || binding.press === 'none') return;
      const address = binding.target || binding.show;
      const target = this.context.graph.get(address);
      const value =
        binding.press === 'toggle' && down
          ? target?.value !== true
          : binding.press === 'momentary'
            ? down
            : binding.press === 'fire' && down
              ? FIRE
              : binding.press === 'set' && down
                ? binding.value
                : undefined;
      if (value === undefined) return;
      waiting++;
      const part = `key ${binding.device}/${binding.key}`;
      const heard = (result: SetResult) => {
        if (result.ok) {
          this.context.problem(part, undefined);
          return settled(result);
        }
        const { code, message, declared } = result.error;
        this.refused(index, binding, address, origin, result.error);
        // Told the presser as what the press wrote: the refusal alone does not name the target.
        settled({ ok: false, error: new HubError(code, `keys[${index}]: writing ${address} failed: ${message}`, { declared }) });
      };
      if (!target) return heard(fail('PB_NOT_FOUND', `there is no parameter ${address}`));
      const written = target.set(value, keyOrigin(satelliteSurface(deviceId), key, origin), heard);
      if (!written.ok || !target.answersLater) heard(written);
    });
    settled(ok(true));
  }

  /** A press's write was refused: said, listed, and shown on the key that asked. */
  private refused(index: number, binding: KeyBinding, address: string, origin: string, error: HubError): void {
    const { context, looks } = this;
    const said = `keys[${index}] (${origin}): writing ${address} failed: ${error.message}`;
    context.log.warn(said);
    context.problem(`key ${binding.device}/${binding.key}`, { code: error.code, message: said });
    looks.set(binding.device, binding.key, 'color', FAILED_COLOR, 'press refused');
    this.failedShown.get(`${binding.device}\n${binding.key}`)?.unsubscribe();
    this.failedShown.set(
      `${binding.device}\n${binding.key}`,
      after(context.scheduler, FAILED_SHOWN_MS, () => {
        this.failedShown.delete(`${binding.device}\n${binding.key}`);
        const shown = binding.show === '' ? undefined : context.graph.get(binding.show)?.value;
        looks.set(binding.device, binding.key, 'color', lights(binding, shown) ? binding.on : binding.off, 'keys');
      }),
    );
  }

  /** What a press of each bound key of the device `deviceId` of `keysTotal` keys writes, by key: for the console's grid. */
  presses({ deviceId, keysTotal }: Pick<Device, 'deviceId' | 'keysTotal'>) {
    return Object.fromEntries(
      this.bindings
        .filter((binding) => binding.device === deviceId && binding.press !== 'none' && binding.key < keysTotal)
        .map((binding) => [
          binding.key,
          {
            press: binding.press,
            target: binding.target || binding.show,
            ...(binding.value === undefined ? {} : { value: binding.value }),
          },
        ]),
    );
  }
}

/** `$(<connection>/<parameter>)` in a key's text: the addresses it names. */
const NAMED = /\$\(([a-z0-9][a-z0-9-]*\/[^()\s]+)\)/g;

const namesIn = (text: string): string[] => [...new Set([...text.matchAll(NAMED)].map((match) => match[1] as string))];

/**
 * A value as a person reads it on a key, as the console shows it: the label of its choice when
 * its parameter has one (R-PK6: a router's `Input 2: Camera 2`, not the protocol's 1), else the
 * value with its unit (`-12 dB`).
 */
function shownAs(context: ConnectionContext, address: string, value: Value | undefined): Value | undefined {
  if (value === undefined || value === null) return value;
  const meta = context.graph.get(address)?.meta;
  const choice = meta?.choices?.find((option) => String(option.value) === String(value));
  if (choice) return choice.label;
  return meta?.unit ? `${String(value)} ${meta.unit}` : value;
}

/** The text with each value it names; one not there yet (or never) is a dash. */
const withValues = (text: string, values: ReadonlyMap<string, Value | undefined>): string =>
  text.replace(NAMED, (_, address: string) => {
    const value = values.get(address);
    return value === undefined || value === null ? '–' : String(value);
  });

/** Whether `value` of `show` lights the key: equal to `is` (a number as its text, too), or true. */
function lights(binding: KeyBinding, value: Value | undefined): boolean {
  if (binding.is === undefined) return value === true;
  return value !== undefined && value !== null && String(value) === String(binding.is);
}
