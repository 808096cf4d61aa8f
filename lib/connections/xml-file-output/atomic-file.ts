import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { reasonOf } from '../../sdk/index.ts';

export type WriteOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * A file replaced atomically on every save (R-X4): the content goes to a temporary file in
 * the same folder, which is then renamed over the target, so a reader sees the old or the
 * new document and never a torn one. Saves requested while one is in flight are coalesced:
 * the latest content is written next, so the file always ends with it.
 */
export class AtomicFile {
  private readonly temporary: string;
  private writing: Promise<void> | undefined;
  private requested = false;

  constructor(
    readonly path: string,
    /** Produces the content at the moment it is written, so coalesced saves use the latest. */
    private readonly content: () => string,
    private readonly report: (outcome: WriteOutcome) => void,
  ) {
    this.temporary = temporaryName(path, process.pid);
  }

  /**
   * Removes temporary files of this target left by a process that died mid-save (kill -9,
   * power cut): those named after a process that no longer runs, or after this one (no
   * save of this file is in flight yet). Only names of our own pattern beside the target
   * are touched; a failure to list or remove is not a write failure and is ignored.
   */
  async removeStale(): Promise<void> {
    const folder = dirname(this.path);
    const pattern = new RegExp(`^${escapeRegex(`.${basename(this.path)}.`)}(\\d+)\\.tmp$`);
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN);
      if (Number.isSafeInteger(pid) && (pid === process.pid || !running(pid)))
        await rm(join(folder, name), { force: true }).catch(() => {});
    }
  }

  /** Asks for a save; returns at once. */
  save(): void {
    this.requested = true;
    this.writing ??= this.drain();
  }

  /** Resolves once every requested save is on disk (or has failed and been reported). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    while (this.requested) {
      this.requested = false;
      try {
        await writeFile(this.temporary, this.content());
        await rename(this.temporary, this.path);
        this.report({ ok: true });
      } catch (error) {
        await rm(this.temporary, { force: true }).catch(() => {});
        this.report({ ok: false, reason: reasonOf(error) });
      }
    }
    this.writing = undefined;
  }
}

/** The temporary file a process saves `path` through: hidden, beside it, named after the process. */
function temporaryName(path: string, pid: number): string {
  return join(dirname(path), `.${basename(path)}.${pid}.tmp`);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a process with this id runs (signal 0 only checks; EPERM: it runs as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
