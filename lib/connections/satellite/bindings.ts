/**
 * The `keys` setting at work, without rules: a bound key shows its text, with the values it
 * names live in it, and its colour follows `show` (true, or the value `is`); a press of it
 * toggles, holds, fires or sets its target.
 */
import { combineLatest, filter, startWith } from 'rxjs';
import { after, type ConnectionContext, FIRE, type SetResult, type Value } from '../../sdk/index.ts';
import type { Device } from './devices.ts';
import type { KeyLooks } from './key-looks.ts';
import type { KeyBinding } from './settings.ts';

/** What a key shows while a press of it was refused, and for how long (R-RS6). */
export const FAILED_COLOR = '#ff0000';
const FAILED_SHOWN_MS = 2000;

export class KeyBindings {
  /** Keys showing a refused press, until they show their own colour again. */
  private readonly failedShown = new Map<string, { unsubscribe(): void }>();

  constructor(
    private readonly context: ConnectionContext,
    private readonly bindings: readonly KeyBinding[],
    private readonly looks: KeyLooks,
  ) {}

  /** Gives each bound key its look, and its colour to follow `show`: the subscriptions to end at stop. */
  start(): { unsubscribe(): void }[] {
    const { context, looks } = this;
    const watching: { unsubscribe(): void }[] = [];
    for (const binding of this.bindings) {
      looks.pin(binding.device, binding.key);
      const named = namesIn(binding.text);
      // Through `set`: a deck already there (the keys changed in place) is sent its new look.
      looks.set(binding.device, binding.key, 'text', named.length === 0 ? binding.text : withValues(binding.text, new Map()), 'keys');
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
              withValues(
                binding.text,
                new Map(named.map((address, at) => [address, shownAs(context, address, values[at] as Value | undefined)])),
              ),
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
      },
    });
    return watching;
  }

  /** The keys these bind and `next` does not. */
  unboundIn(next: readonly KeyBinding[]): { readonly device: string; readonly key: number }[] {
    return this.bindings.filter((binding) => !next.some((other) => other.device === binding.device && other.key === binding.key));
  }

  /**
   * Key `key` of device `deviceId` went down or up: what the bindings of that key write. A
   * write refused, now or when its device answers later, leaves a trace (R-RS6): a warning
   * with the key and who pressed it, and the key shows FAILED_COLOR for two seconds.
   */
  press(deviceId: string, key: number, down: boolean, origin: string): void {
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
      const answered = (result: SetResult) => {
        if (!result.ok) this.refused(index, binding, address, origin, result.error.message);
      };
      if (!target) return this.refused(index, binding, address, origin, `there is no parameter ${address}`);
      const written = target.set(value, origin, answered);
      if (!written.ok) answered(written);
    });
  }

  /** A press's write was refused: said, and shown on the key that asked. */
  private refused(index: number, binding: KeyBinding, address: string, origin: string, why: string): void {
    const { context, looks } = this;
    context.log.warn(`keys[${index}] (${origin}): writing ${address} failed: ${why}`);
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
