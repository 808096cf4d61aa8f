/**
 * A Companion module in a process of its own (R-CM1, R-CM2): a module of base 1.x started as
 * Companion starts it — its entry point forked with the module's folder as working
 * directory, the connection id, a token it must register with and its manifest in the
 * environment, an IPC channel —, one of base 2.x the same way under the hub's host entry
 * point (base-2/host.ts), which speaks the same wire; each driven by the calls of base
 * 1.x's host API. What the
 * module sends comes to `ModuleEvents`; its output goes to the log, bounded. Its heap is
 * bound and its memory as a whole watched as a connection's own process is (R-PK4), and it
 * is asked regularly whether it still answers; the connection starts it again when it ends.
 * Where the machine lets it, the module runs in a private view of the machine's processes
 * (`privateView`): it cannot read the hub's environment in /proc, and its helpers end with it.
 */
import { randomUUID } from 'node:crypto';
import { ChildLink, HubError, type Logger, ownEntry, privateView, OutputLines, type Scheduler } from '../../sdk/index.ts';
import type { Field } from './fields.ts';
import { fieldsOf } from './module-messages.ts';
import type { ModuleFolder } from './module-folder.ts';
import { MAX_MESSAGE_BYTES } from './companion-wire.ts';
import { type ModuleCalls, ModuleIpc } from './module-ipc.ts';

/** How long a module may take to register after it is started: Node and its code loading, on a busy machine. */
const REGISTER_MS = 30_000;

/**
 * The exit codes `@companion-module/base` (1.x) gives a meaning of its own. It waits 5 s for
 * its host's answer to its registration and exits with 11 without it: the hub answers at
 * once, so the module's own start held its event loop past that, or the machine was too busy
 * to run it. It is started again as after any exit.
 */
const BASE_EXITS = {
  11: 'it gave up waiting 5 s for its registration to be answered: its own start held its event loop, or the machine was too busy',
};

/** How long a stopping module may take over `destroy` before it is killed. */
const DESTROY_MS = 2000;
/** Lines of its output a second that reach the log; past it they are counted. */
const LINES_A_SECOND = 50;
/**
 * Loaded into the module's process before its entry point: the module ends when its host
 * does (its IPC channel closes), so that no module outlives the hub, even one killed with
 * SIGKILL. The module's own code is untouched.
 */
const END_WITH_HOST = 'data:text/javascript,process.on("disconnect",()=>process.exit(0))';
/** Said once a hub: its modules see the machine's processes. */
let saidNoView = false;
/** The main of a base 2.x module's process: the hub's host entry point, which loads the module (base-2/host.ts). */
const BASE_2_HOST = ownEntry('./base-2/host.ts', import.meta.url);

/** What the module tells its host, as the base's host API names it. */
export interface ModuleEvents {
  readonly calls: ModuleCalls;
  /** The process ended, not asked to: why. */
  exited(reason: string): void;
}

/** What `init` answers (the parts the hub reads). */
export interface InitAnswer {
  readonly newUpgradeIndex?: number;
  readonly updatedConfig?: unknown;
  readonly updatedSecrets?: unknown;
  readonly hasHttpHandler?: boolean;
}

export class ModuleProcess {
  private stopping = false;
  /** Its output and what it logs, together at most LINES_A_SECOND a second, a line said once a minute (R-CM10). */
  private readonly lines: OutputLines;
  private link!: ChildLink;
  readonly ipc: ModuleIpc;

  private constructor(calls: ModuleCalls, { log, scheduler }: { readonly log: Logger; readonly scheduler: Scheduler }) {
    this.lines = new OutputLines({
      log,
      scheduler,
      perSecond: LINES_A_SECOND,
      prefix: 'module: ',
      whose: "the module's log and output",
      foldRepeats: true,
    });
    this.ipc = new ModuleIpc((message) => this.link.send(message), calls, scheduler);
  }

  /** Starts the module and resolves once it has registered with the token it was given. */
  static async start(
    module: ModuleFolder,
    connectionId: string,
    events: ModuleEvents,
    { log, scheduler }: { readonly log: Logger; readonly scheduler: Scheduler },
    maxMemoryMb: number,
  ): Promise<ModuleProcess> {
    const token = randomUUID();
    let registered: (() => void) | undefined;
    let refused: ((error: Error) => void) | undefined;
    const register = (payload: unknown) => {
      const { verificationToken, connectionId: id } = (payload ?? {}) as Record<string, unknown>;
      if (verificationToken !== token || id !== connectionId) {
        refused?.(new HubError('PB_START_FAILED', 'the module registered with a token or connection id it was not given'));
        throw new Error('Verification failed');
      }
      // The module's entry point takes the first message it gets as this answer: nothing
      // else may go before it, so the host goes on once the answer is sent.
      setImmediate(() => registered?.());
      return {};
    };
    // A 1.x module is a program that speaks to its host; a 2.x module is a class the hub's host entry point loads.
    const [main, args, loader] = module.family === 2 ? [BASE_2_HOST.file, [module.entry], BASE_2_HOST.loader] : [module.entry, [], []];
    if (!privateView() && !saidNoView) {
      saidNoView = true;
      log.warn("modules run without a private view of the machine's processes (unshare cannot run here): a module can read the hub's");
    }
    const running: ModuleProcess = new ModuleProcess(
      { ...events.calls, register, 'log-message': (payload: unknown): void => running.logged(payload) },
      { log, scheduler },
    );
    // Messages carry their payload as a JSON text: V8's serialization (the channel's) hands it
    // over as it is, where JSON would write it into JSON again and read it twice (a 1 MB list
    // of variables cost the hub's loop 9 ms more). The module's own process.send follows it.
    const link = ChildLink.start(
      {
        main,
        args,
        cwd: module.folder,
        // What a package's process sees, and what the base reads.
        env: { CONNECTION_ID: connectionId, VERIFICATION_TOKEN: token, MODULE_MANIFEST: module.manifestPath },
        execArgv: [...loader, `--import=${END_WITH_HOST}`],
        privateView: true,
        maxMemoryMb,
        memorySetting: 'moduleMaxMemoryMb',
        called: "the module's process",
        exitMeanings: BASE_EXITS,
        maxMessageBytes: MAX_MESSAGE_BYTES,
        flat: true,
      },
      {
        message: (message) => running.ipc.received(message),
        dropped: () => void running.ipc.dropped++,
        // Its console is Companion's debug log.
        output: (line, level) => running.lines.say(level, line),
      },
      scheduler,
    );
    running.link = link;
    void link.ended.then((reason) => {
      running.ipc.close(reason);
      if (!running.stopping) events.exited(reason);
    });
    const ready = new Promise<void>((resolve, reject) => {
      registered = resolve;
      refused = reject;
    });
    await link.ready(ready, REGISTER_MS, 'register').catch((error: unknown) => {
      running.kill();
      throw error;
    });
    return running;
  }

  get pid(): number | undefined {
    return this.link.pid;
  }

  /** The module's config fields, as `getConfigFields` answers. */
  async configFields(timeoutMs: number): Promise<readonly Field[]> {
    // What the module answered, whatever the base's type says (module-messages.ts).
    const answer: unknown = await this.ipc.call('getConfigFields', {}, timeoutMs);
    return fieldsOf((answer as { fields?: unknown } | undefined)?.fields);
  }

  /**
   * From now on the module is asked regularly something every module answers (its config
   * fields), and the memory its process holds is read: it is killed when it sends nothing
   * for `hangMs` (its event loop is blocked) or holds more than its heap bound and the margin
   * for Node itself; its end is then `exited`'s, with the reason.
   */
  watch(hangMs: number): void {
    this.link.watchWith({
      hangMs,
      hangSetting: 'moduleHangMs',
      ping: () => void this.ipc.call('getConfigFields', {}, hangMs).catch(() => {}),
    });
  }

  /** Asks the module to destroy itself, then ends its process. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await this.ipc.call('destroy', {}, DESTROY_MS).catch(() => {});
    this.kill();
    await this.link.ended;
  }

  private kill(): void {
    this.stopping = true;
    // What it repeated within its last minute is said before it goes.
    this.lines.stop();
    this.ipc.close('the module is stopping');
    this.link.kill();
  }

  /** A line the module logged, at its level. */
  logged(payload: unknown): void {
    const { level, message } = (payload ?? {}) as { level?: unknown; message?: unknown };
    const known = level === 'error' || level === 'warn' || level === 'debug' ? level : 'info';
    this.lines.say(known, String(message));
  }
}
