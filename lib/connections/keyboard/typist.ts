import { createRequire } from 'node:module';
import type { Combination } from './combination.ts';

type NutJs = typeof import('@nut-tree-fork/nut-js');
let nut: NutJs | undefined;
let queue: Promise<void> = Promise.resolve();

/**
 * Presses and releases a combination as if typed (R-K3), one at a time in the order
 * asked, so two fires never interleave their keys. Call only after `probeDisplay()`
 * passed: loading nut-js without a display crashes the process.
 */
export function tap(combination: Combination): Promise<void> {
  const typed = queue.then(async () => {
    nut ??= loadNut();
    const { keyboard, Key } = nut;
    const keys = Key as unknown as Record<string, number>;
    const modifiers = combination.nutModifiers.map((name) => keys[name] as number);
    const key = keys[combination.nutKey] as number;
    await keyboard.pressKey(...modifiers, key);
    await keyboard.releaseKey(key);
    if (modifiers.length > 0) await keyboard.releaseKey(...modifiers.reverse());
  });
  queue = typed.catch(() => {});
  return typed;
}

function loadNut(): NutJs {
  const loaded = createRequire(import.meta.url)('@nut-tree-fork/nut-js') as NutJs;
  loaded.keyboard.config.autoDelayMs = 0;
  return loaded;
}
