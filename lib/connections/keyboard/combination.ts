import { fail, ok, type Result } from '../../sdk/index.ts';

/** Modifiers in the order a normalised combination lists them. */
export const modifiers = ['ctrl', 'shift', 'alt', 'meta'] as const;
export type Modifier = (typeof modifiers)[number];

/**
 * Every key a combination may end with, by its canonical name: the uiohook key code name
 * (global hotkeys in) and the nut-js key name (synthetic keys out).
 */
const keys: Record<string, { readonly hook: string; readonly nut: string }> = {
  space: { hook: 'Space', nut: 'Space' },
  enter: { hook: 'Enter', nut: 'Enter' },
  tab: { hook: 'Tab', nut: 'Tab' },
  escape: { hook: 'Escape', nut: 'Escape' },
  up: { hook: 'ArrowUp', nut: 'Up' },
  down: { hook: 'ArrowDown', nut: 'Down' },
  left: { hook: 'ArrowLeft', nut: 'Left' },
  right: { hook: 'ArrowRight', nut: 'Right' },
  home: { hook: 'Home', nut: 'Home' },
  end: { hook: 'End', nut: 'End' },
  pageup: { hook: 'PageUp', nut: 'PageUp' },
  pagedown: { hook: 'PageDown', nut: 'PageDown' },
  insert: { hook: 'Insert', nut: 'Insert' },
  delete: { hook: 'Delete', nut: 'Delete' },
  backspace: { hook: 'Backspace', nut: 'Backspace' },
};
for (const letter of 'abcdefghijklmnopqrstuvwxyz') keys[letter] = { hook: letter.toUpperCase(), nut: letter.toUpperCase() };
for (const digit of '0123456789') keys[digit] = { hook: digit, nut: `Num${digit}` };
for (let n = 1; n <= 24; n++) keys[`f${n}`] = { hook: `F${n}`, nut: `F${n}` };

/** Other spellings people write, mapped to the canonical name. */
const aliases: Record<string, string> = {
  control: 'ctrl',
  option: 'alt',
  cmd: 'meta',
  command: 'meta',
  super: 'meta',
  win: 'meta',
  esc: 'escape',
  return: 'enter',
  del: 'delete',
  ins: 'insert',
  pgup: 'pageup',
  pgdn: 'pagedown',
  arrowup: 'up',
  arrowdown: 'down',
  arrowleft: 'left',
  arrowright: 'right',
};

const knownNames = `ctrl, shift, alt, meta, a–z, 0–9, f1–f24, ${Object.keys(keys)
  .filter((k) => k.length > 1 && !/^f\d+$/.test(k))
  .join(', ')}`;

/** The uiohook key name of every key a combination may end with, by canonical name. */
export const hookKeyNames: ReadonlyMap<string, string> = new Map(Object.entries(keys).map(([name, spec]) => [name, spec.hook]));

/** A key combination in its one normal form: `ctrl-shift-a`. */
export interface Combination {
  readonly modifiers: readonly Modifier[];
  readonly key: string;
  /** The normal form, used in parameter ids. */
  readonly name: string;
  readonly hookKey: string;
  readonly nutKey: string;
  readonly nutModifiers: readonly string[];
}

const nutModifier: Record<Modifier, string> = { ctrl: 'LeftControl', shift: 'LeftShift', alt: 'LeftAlt', meta: 'LeftSuper' };

/**
 * Parses `Shift-Ctrl-A`, `ctrl-shift-a`… into one normal form (R-K1): names are
 * case-insensitive, modifiers may come in any order, and exactly one key ends it.
 */
export function parseCombination(text: string): Result<Combination> {
  const parts = text
    .trim()
    .toLowerCase()
    .split('-')
    .map((part) => aliases[part] ?? part);
  const found = new Set<Modifier>();
  let key: string | undefined;
  for (const part of parts) {
    if ((modifiers as readonly string[]).includes(part)) {
      if (found.has(part as Modifier)) return fail('PB_BAD_KEY', `"${text}" names ${part} twice`);
      found.add(part as Modifier);
    } else if (keys[part]) {
      if (key !== undefined) return fail('PB_BAD_KEY', `"${text}" has two keys (${key}, ${part}); a combination is modifiers and one key`);
      key = part;
    } else {
      return fail('PB_BAD_KEY', `"${text}": unknown key name "${part}"; expected ${knownNames}`);
    }
  }
  if (key === undefined) return fail('PB_BAD_KEY', `"${text}" has no key besides its modifiers`);
  const ordered = modifiers.filter((m) => found.has(m));
  const spec = keys[key] as { hook: string; nut: string };
  return ok({
    modifiers: ordered,
    key,
    name: [...ordered, key].join('-'),
    hookKey: spec.hook,
    nutKey: spec.nut,
    nutModifiers: ordered.map((m) => nutModifier[m]),
  });
}
