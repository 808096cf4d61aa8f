import { createRequire } from 'node:module';
import type { UiohookKeyboardEvent } from 'uiohook-napi';
import { hookKeyNames } from './combination.ts';

type Listener = (combination: string) => void;

/**
 * The process-wide global key hook (R-K2), shared by every keyboard connection: started
 * on the first `acquire`, stopped when the last one releases it. A combination fires when
 * its key is released; the modifiers are those held when the key went down, so releasing
 * ctrl a moment before F1 still counts as ctrl-f1.
 */
class GlobalHook {
  private readonly listeners = new Set<Listener>();
  private hook: typeof import('uiohook-napi').uIOhook | undefined;
  private codeToKey = new Map<number, string>();
  private readonly armed = new Map<number, string>();

  /** Call only after `probeDisplay()` passed: loading the hook without a display aborts the process. */
  acquire(listener: Listener): () => void {
    if (!this.hook) this.startHook();
    this.listeners.add(listener);
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      this.hook?.stop();
      this.hook?.removeAllListeners();
      this.hook = undefined;
      this.armed.clear();
    };
  }

  get running(): boolean {
    return this.hook !== undefined;
  }

  private startHook(): void {
    const { uIOhook, UiohookKey } = createRequire(import.meta.url)('uiohook-napi') as typeof import('uiohook-napi');
    const codes = UiohookKey as unknown as Record<string, number>;
    this.codeToKey = new Map([...hookKeyNames].map(([name, hookName]) => [codes[hookName] as number, name]));
    uIOhook.on('keydown', (event) => this.down(event));
    uIOhook.on('keyup', (event) => this.up(event));
    uIOhook.start();
    this.hook = uIOhook;
  }

  private down(event: UiohookKeyboardEvent): void {
    const key = this.codeToKey.get(event.keycode);
    if (key === undefined) return; // a modifier or a key no combination uses
    const held = [event.ctrlKey && 'ctrl', event.shiftKey && 'shift', event.altKey && 'alt', event.metaKey && 'meta'].filter(Boolean);
    this.armed.set(event.keycode, [...held, key].join('-'));
  }

  private up(event: UiohookKeyboardEvent): void {
    const combination = this.armed.get(event.keycode);
    if (combination === undefined) return;
    this.armed.delete(event.keycode);
    for (const listener of this.listeners) listener(combination);
  }
}

export const globalHook = new GlobalHook();
