/**
 * The hub's side of the key process (key-child.ts), shared by every keyboard connection:
 * started for the first connection that uses it, killed once the last has let go, started
 * again after a wait when it ends while used. The global hook runs in it while some
 * connection listens for hotkeys (R-K2); a typed combination is asked of it and answered
 * (R-K3). A display it cannot use, or a native library that crashes, ends that process: the
 * connections say why, and the hub runs on.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { HubError, ownEntry, packageEnvironment, Restarts } from '../../sdk/index.ts';
import type { Combination } from './combination.ts';
import type { KeyMessage, KeyRequest } from './key-child.ts';

/**
 * How long the process may take to start, load both libraries, open the display and say it
 * is ready, on a busy machine (a checkout compiles its TypeScript as it starts: 15 s was
 * passed under a full test run). A display that cannot be used ends it at once, long before.
 */
const READY_MS = 60_000;
/** How long an ended process's last words may take to arrive before its end is said. */
const STDERR_WAIT_MS = 250;

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
  private process: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private readonly taps = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextTap = 0;
  private readonly restarts = new Restarts();
  private restart: NodeJS.Timeout | undefined;

  /** The process's id while it is there: it comes with the first user and goes with the last. */
  get pid(): number | undefined {
    return this.process?.pid;
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
      await (this.ready ??= this.start(display));
    } catch (error) {
      this.leave(user);
      throw error;
    }
    this.askHook();
    return () => this.leave(user);
  }

  /** Presses and releases `combination` as if typed, after any asked before it. */
  tap(combination: Combination): Promise<void> {
    const running = this.process;
    if (!running?.connected)
      return Promise.reject(new HubError('PB_PROCESS_ENDED', 'the key process is not running; it starts again shortly'));
    const tap = this.nextTap++;
    return new Promise((resolve, reject) => {
      this.taps.set(tap, { resolve, reject });
      this.request(running, { tap, modifiers: combination.nutModifiers, key: combination.nutKey });
    });
  }

  private leave(user: KeyUser): void {
    if (!this.users.delete(user)) return;
    if (this.users.size > 0) return this.askHook();
    clearTimeout(this.restart);
    this.restart = undefined;
    this.ready = undefined;
    const running = this.process;
    this.process = undefined;
    // Killed, not asked to exit: the native libraries' own exit code is what crashes (key-child.ts).
    running?.kill('SIGKILL');
  }

  /** The hook runs while some user listens for hotkeys. */
  private askHook(): void {
    if (this.process) this.request(this.process, { hook: [...this.users].some((user) => user.released) });
  }

  private request(running: ChildProcess, request: KeyRequest): void {
    if (running.connected) running.send(request);
  }

  private start(display: string): Promise<void> {
    const running = fork(child.file, [], {
      execArgv: [...child.loader],
      // What a package's process sees of the hub's environment (not its tokens), and the display with what opens it.
      env: {
        ...packageEnvironment(),
        ...Object.fromEntries(['DISPLAY', 'XAUTHORITY'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.process = running;
    this.restarts.started(Date.now());
    let stderr = '';
    // Not started, or its channel gone as a message was sent: said by its end.
    running.on('error', (error) => (stderr += `\n${error.message}`));
    running.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
    const said = async (code: number | null, signal: NodeJS.Signals | null) => {
      if (running.stderr && !running.stderr.readableEnded)
        await new Promise((resolve) => {
          running.stderr?.once('end', resolve);
          setTimeout(resolve, STDERR_WAIT_MS).unref();
        });
      const lines = stderr.split('\n').filter((line) => line.trim() && !/^\s+at /.test(line));
      return lines.at(-1)?.trim() ?? (signal ? `ended by ${signal}` : `exit code ${code}`);
    };
    return new Promise((resolve, reject) => {
      let isReady = false;
      const timer = setTimeout(() => {
        stderr += `\ndid not open the display within ${READY_MS} ms`;
        running.kill('SIGKILL');
      }, READY_MS);
      running.on('message', (message: KeyMessage) => {
        if ('ready' in message) {
          isReady = true;
          clearTimeout(timer);
          resolve();
        } else if ('released' in message) {
          for (const user of this.users) user.released?.(message.released);
        } else {
          const waiting = this.taps.get(message.tapped);
          this.taps.delete(message.tapped);
          if (message.error === undefined) waiting?.resolve();
          else waiting?.reject(new HubError('PB_NO_DISPLAY', message.error));
        }
      });
      running.once('exit', async (code, signal) => {
        clearTimeout(timer);
        const reason = await said(code, signal);
        if (!isReady) {
          if (this.process === running) this.process = undefined;
          return reject(new HubError('PB_NO_DISPLAY', `cannot use X display ${display}: ${reason}`));
        }
        if (this.process !== running) return; // let go of: killed on purpose
        this.ended(`the key process ended: ${reason}`);
      });
    });
  }

  /** The process ended while used: every waiting tap fails, the users hear why, and it starts again after a wait. */
  private ended(reason: string): void {
    this.process = undefined;
    for (const waiting of this.taps.values()) waiting.reject(new HubError('PB_PROCESS_ENDED', reason));
    this.taps.clear();
    const { delay } = this.restarts.ended(Date.now());
    for (const user of this.users) user.lost(`${reason}; starting it again in ${delay} ms`);
    const display = process.env['DISPLAY'] ?? '';
    // A connection that joins meanwhile waits for this start with the others.
    const again = new Promise<void>((resolve, reject) => {
      this.restart = setTimeout(() => {
        this.restart = undefined;
        this.start(display).then(resolve, reject);
      }, delay);
    });
    this.ready = again;
    again.then(
      () => {
        this.askHook();
        for (const user of this.users) user.lost(undefined);
      },
      (error: unknown) => {
        if (this.ready === again && this.users.size > 0) this.ended(error instanceof Error ? error.message : String(error));
      },
    );
  }
}

export const keyProcess = new KeyProcess();
