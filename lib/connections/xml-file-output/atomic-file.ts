import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { reasonOf } from '../../core/errors.ts';

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
    this.temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
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
