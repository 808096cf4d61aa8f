/**
 * The process that holds the native key libraries for the hub's keyboard connections: the
 * global hook (uiohook-napi, R-K2) and synthetic keys (nut-js, R-K3). They live here, not in
 * the hub, because they can end the process they are in: either aborts it when the display
 * cannot be opened, and libuiohook frees its keyboard map a second time as the process exits
 * once its hook ran and stopped, which corrupts the heap (a crash at exit, now and then).
 * This process therefore never exits by itself: it is killed, so no library's exit code runs,
 * and when it dies anyway the hub sees a process end, not its own.
 *
 * It says `ready` once both libraries have opened the display, then the combinations released
 * while the hub asks it to hook the keyboard; it answers each combination the hub has it type.
 * Both ends speak the process kit's `Channel`, typed by `HubToKeys` and `KeysToHub`.
 */
import { createRequire } from 'node:module';
import type { UiohookKeyboardEvent } from 'uiohook-napi';
import { Channel, HubError, realTime } from '../../sdk/index.ts';
import { hookKeyNames } from './combination.ts';

/** What the hub asks: to hook the keyboard or not (told), to type one combination, nut-js key names (answered once typed). */
export type HubToKeys = {
  hook: (payload: { readonly on: boolean }) => never;
  tap: (payload: { readonly modifiers: readonly string[]; readonly key: string }) => null;
};

/** What this process tells the hub: it is ready, a combination was released. */
export type KeysToHub = {
  ready: (payload: null) => never;
  released: (payload: { readonly combination: string }) => never;
};

const require = createRequire(import.meta.url);
const end = () => process.kill(process.pid, 'SIGKILL');
// The hub went (stopped, or killed): go with it, without exit code (see above).
process.on('disconnect', end);

const { uIOhook, UiohookKey } = require('uiohook-napi') as typeof import('uiohook-napi');
const nut = require('@nut-tree-fork/nut-js') as typeof import('@nut-tree-fork/nut-js');
nut.keyboard.config.autoDelayMs = 0;
try {
  // nut-js opens the display as it is first used: a display it cannot use says so here.
  await nut.screen.width();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  end();
}

const codes = UiohookKey as unknown as Record<string, number>;
const keyOfCode = new Map([...hookKeyNames].map(([name, hookName]) => [codes[hookName] as number, name]));
/** The combination each key held down will fire when released: the modifiers held as it went down. */
const armed = new Map<number, string>();
let hooking = false;
uIOhook.on('keydown', (event: UiohookKeyboardEvent) => {
  const key = keyOfCode.get(event.keycode);
  if (key === undefined) return; // a modifier or a key no combination uses
  const held = [event.ctrlKey && 'ctrl', event.shiftKey && 'shift', event.altKey && 'alt', event.metaKey && 'meta'].filter(Boolean);
  armed.set(event.keycode, [...held, key].join('-'));
});
// A combination fires as its key is released, so releasing ctrl a moment before F1 still counts as ctrl-f1.
uIOhook.on('keyup', (event: UiohookKeyboardEvent) => {
  const combination = armed.get(event.keycode);
  if (combination === undefined) return;
  armed.delete(event.keycode);
  hub.tell('released', { combination });
});

/** Typing one combination after another, so two never interleave their keys. */
let typing: Promise<void> = Promise.resolve();
const keyCodes = nut.Key as unknown as Record<string, number>;

/** Types one combination, after any asked before it. */
function tap(modifiers: readonly string[], key: string): Promise<null> {
  const typed = typing.then(async () => {
    const held = modifiers.map((name) => keyCodes[name] as number);
    await nut.keyboard.pressKey(...held, keyCodes[key] as number);
    await nut.keyboard.releaseKey(keyCodes[key] as number);
    if (held.length > 0) await nut.keyboard.releaseKey(...held.reverse());
    return null;
  });
  typing = typed.then(
    () => {},
    () => {},
  );
  return typed.catch((error: unknown) => {
    throw new HubError('PB_NO_DISPLAY', error instanceof Error ? error.message : String(error));
  });
}

function hook(on: boolean): void {
  if (on === hooking) return;
  hooking = on;
  try {
    if (hooking) uIOhook.start();
    else uIOhook.stop();
  } catch (error) {
    // Without the RECORD extension, say: the hub reads the reason from stderr as this process ends.
    process.stderr.write(`cannot hook the keyboard: ${error instanceof Error ? error.message : String(error)}\n`);
    end();
  }
  armed.clear();
}

const hub = new Channel<KeysToHub, HubToKeys>({
  send: (message) => process.send?.(message),
  handlers: { hook: ({ on }) => hook(on), tap: ({ modifiers, key }) => tap(modifiers, key) },
  scheduler: realTime,
  called: 'the hub',
});
process.on('message', (message) => hub.received(message));
hub.tell('ready', null);
