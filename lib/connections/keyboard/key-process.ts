/**
 * The hub's side of the key process (key-child.ts), shared by every keyboard connection:
 * started for the first connection that uses it, killed once the last has let go, started
 * again after a wait when it ends while used. The global hook runs in it while some
 * connection listens for hotkeys (R-K2); a typed combination is asked of it and answered
 * (R-K3). A display it cannot use, or a native library that crashes, ends that process: the
 * connections say why, and the hub runs on.
 */
import { Channel, ChildLink, HubError, ownEntry, reasonOf, realTime, Supervisor } from '../../sdk/index.ts';
import type { Combination } from './combination.ts';
import type { HubToKeys, KeysToHub } from './key-child.ts';

/**
 * How long the process may take to start, load both libraries, open the display and say it
 * is ready, on a busy machine (a checkout compiles its TypeScript as it starts: 15 s was
 * passed under a full test run). A display that cannot be used ends it at once, long before.
 */
const READY_MS = 60_000;
/** The key process's messages are a few words each. */
const MOST_MESSAGE_BYTES = 64 * 1024;

const child = ownEntry('./key-child.ts', import.meta.url);

/** A keyboard connection, as the key process serves it. */
export interface KeyUser {
  /** Each combination released anywhere on the display; given when the connection listens for hotkeys. */
  readonly released?: (combination: string) => void;
  /** The process ended while used (why, and that it starts again), or is back (undefined). */
  readonly lost: (reason: string | undefined) => void;
}

class KeyProcess {
  private readonly users = new Set<KeyUser>();
  private link: ChildLink | undefined;
  private keys: Channel<HubToKeys, KeysToHub> | undefined;
  private ready: Promise<void> | undefined;
  /** Why the process is down while a new one waits to start. */
  private lost: string | undefined;
  // Shared by every hub of the program, so on the real clock (the kit's waits are tested in virtual time).
  private readonly supervisor = new Supervisor({
    scheduler: realTime,
    run: () => this.run(),
    up: () => {
      this.askHook();
      if (this.lost === undefined) return;
      this.lost = undefined;
      for (const user of this.users) user.lost(undefined);
    },
    down: (error, next) => {
      this.link = undefined;
      this.keys?.close(error.message);
      if (!next) return;
      this.lost = `${error.message}; starting it again in ${next.delay} ms`;
      for (const user of this.users) user.lost(this.lost);
    },
    // A display that cannot be used at first is the connection's to say; one lost later is tried again.
    final: (_error, wasUp) => !wasUp,
  });

  /** The process's id while it is there: it comes with the first user and goes with the last. */
  get pid(): number | undefined {
    return this.link?.pid;
  }

  /**
   * Joins `user` once the process has the display: rejects with PB_NO_DISPLAY and the reason
   * when there is none or it cannot be used. Gives what leaves.
   */
  async use(user: KeyUser): Promise<() => void> {
    const display = process.env['DISPLAY'] ?? '';
    if (!display)
      throw new HubError(
        'PB_NO_DISPLAY',
        'no X display: DISPLAY is not set (global keys need X11; on a headless machine run under Xvfb +extension RECORD)',
      );
    this.users.add(user);
    try {
      await (this.ready ??= this.supervisor.start());
    } catch (error) {
      this.leave(user);
      throw error;
    }
    if (this.lost !== undefined) user.lost(this.lost);
    this.askHook();
    return () => this.leave(user);
  }

  /** Presses and releases `combination` as if typed, after any asked before it. */
  async tap(combination: Combination): Promise<void> {
    const { link, keys } = this;
    if (!link?.running || !keys) throw new HubError('PB_PROCESS_ENDED', 'the key process is not running; it starts again shortly');
    try {
      await keys.call('tap', { modifiers: combination.nutModifiers, key: combination.nutKey });
    } catch (error) {
      // The process went before it typed: said by its end, as the connections hear it.
      if (error instanceof HubError && error.code === 'PB_DEVICE_UNAVAILABLE') throw new HubError('PB_PROCESS_ENDED', error.message);
      throw error;
    }
  }

  private leave(user: KeyUser): void {
    if (!this.users.delete(user)) return;
    if (this.users.size > 0) return this.askHook();
    this.supervisor.stop();
    this.ready = undefined;
    this.lost = undefined;
    // Killed, not asked to exit: the native libraries' own exit code is what crashes (key-child.ts).
    this.link?.kill();
    this.link = undefined;
  }

  /** The hook runs while some user listens for hotkeys. */
  private askHook(): void {
    this.keys?.tell('hook', { on: [...this.users].some((user) => user.released) });
  }

  /** One process: ready once both libraries have opened the display. */
  private async run(): Promise<ChildLink> {
    const display = process.env['DISPLAY'] ?? '';
    let ready: () => void = () => {};
    const keys = new Channel<HubToKeys, KeysToHub>({
      send: (message) => link.send(message),
      handlers: {
        ready: () => ready(),
        released: ({ combination }) => {
          for (const user of this.users) user.released?.(combination);
        },
      },
      scheduler: realTime,
      called: 'the key process',
    });
    const link: ChildLink = ChildLink.start(
      {
        main: child.file,
        execArgv: child.loader,
        // What a package's process sees of the hub's environment (not its tokens), and the display with what opens it.
        env: Object.fromEntries(['DISPLAY', 'XAUTHORITY'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
        called: 'the key process',
        maxMessageBytes: MOST_MESSAGE_BYTES,
      },
      { message: (message) => keys.received(message) },
      realTime,
    );
    this.link = link;
    this.keys = keys;
    try {
      await link.ready(new Promise<void>((resolve) => (ready = resolve)), READY_MS, 'open the display');
    } catch (error) {
      const ended = await link.ended;
      throw new HubError('PB_NO_DISPLAY', `cannot use X display ${display}: ${link.lastWords ?? ended ?? reasonOf(error)}`);
    }
    return link;
  }
}

export const keyProcess = new KeyProcess();
