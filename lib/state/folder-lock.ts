import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fail, ok, reasonOf, type Result } from '../core/errors.ts';

/** The file a running hub keeps in its state folder, naming it. */
export const LOCK_FILE = 'hub.lock';

/** Who holds a state folder: what the lock file says. */
interface Holder {
  readonly pid: number;
  readonly host: string;
  /** When it took the folder, for people. */
  readonly since: string;
  /** When the process started, in the kernel's clock ticks (Linux): a pid used again by another process is told apart. */
  readonly processStart?: string;
}

/**
 * One state folder, one running hub (R-S1): the hub holds the folder by a lock file that
 * names its process. The file is made in one step (a link of a complete file), so a second
 * hub finds it whole or not at all. A lock whose process is gone — a hub killed with
 * SIGKILL, a power cut — holds nothing: the next hub finds the process missing (or the pid
 * used by a process that started later) and takes the folder. The state command does not
 * lock: it may run beside a running hub (R-S6).
 */
export class FolderLock {
  private constructor(
    private readonly path: string,
    private readonly content: string,
  ) {}

  /** Takes `folder` for this process. Fails with PB_STATE_LOCKED naming the hub that holds it. */
  static take(folder: string): Result<FolderLock> {
    const path = join(folder, LOCK_FILE);
    const processStart = processStartOf(process.pid);
    const holder: Holder = {
      pid: process.pid,
      host: hostname(),
      // The real clock: a stamp for a person reading the lock, taken before any hub runs.
      since: new Date().toISOString(),
      ...(processStart === undefined ? {} : { processStart }),
    };
    const content = `${JSON.stringify(holder)}\n`;
    const draft = `${path}.${process.pid}`;
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      writeFileSync(draft, content);
      // Two attempts: the second after a lock left by a process that is gone was removed.
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          linkSync(draft, path);
          return ok(new FolderLock(path, content));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const other = readHolder(path);
        if (other && holds(other)) {
          const where = other.host === holder.host ? '' : ` on ${other.host}`;
          return fail(
            'PB_STATE_LOCKED',
            `the state folder ${folder} is in use by another hub (pid ${other.pid}${where}, since ${other.since}); ` +
              `stop it, or give this hub a folder of its own with --state`,
          );
        }
        forget(path);
      }
      return failed(folder, 'another hub took it at the same moment');
    } catch (error) {
      return failed(folder, reasonOf(error));
    } finally {
      forget(draft);
    }
  }

  /** Lets go of the folder, unless another process has taken it meanwhile. Idempotent. */
  release(): void {
    if (readHolderText(this.path) === this.content) forget(this.path);
  }
}

/** Removes a file, if it is there. */
function forget(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Not a folder to remove it from: nothing was made.
  }
}

function readHolderText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function failed(folder: string, reason: string): Result<FolderLock> {
  return fail('PB_STATE_UNAVAILABLE', `cannot open the state folder ${folder}: ${reason}`);
}

/** What a lock file says; undefined for one that says nothing usable (it holds nothing). */
function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readHolderText(path) ?? '') as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string'
      ? {
          pid: holder.pid,
          host: holder.host,
          since: String(holder.since),
          ...(holder.processStart ? { processStart: holder.processStart } : {}),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process a lock names still runs. One on another machine cannot be asked, and holds. */
function holds(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const started = processStartOf(holder.pid);
  return holder.processStart === undefined || started === undefined || started === holder.processStart;
}

/** When a process started, in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined where there is no /proc. */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses, which may hold spaces: field 3 onwards.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
