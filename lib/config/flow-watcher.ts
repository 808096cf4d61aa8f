import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Subscription } from 'rxjs';
import { after, type Scheduler } from '../core/scheduler.ts';

/**
 * Watches a flow file and its code-flow modules for `patchbay run --watch`. Folders are
 * watched rather than files, because editors often save by writing a new file and
 * renaming it over the old one. A burst of events becomes one call, `settleMs` after the
 * last.
 */
export class FlowWatcher {
  private watchers: FSWatcher[] = [];
  private pending: Subscription | undefined;

  constructor(
    private readonly onChange: () => void,
    private readonly scheduler: Scheduler,
    private readonly settleMs = 200,
  ) {}

  /** Watches exactly these files from now on. */
  watch(files: readonly string[]): void {
    this.closeWatchers();
    const byFolder = new Map<string, Set<string>>();
    for (const file of files) {
      const names = byFolder.get(dirname(file)) ?? new Set<string>();
      names.add(basename(file));
      byFolder.set(dirname(file), names);
    }
    for (const [folder, names] of byFolder) {
      const watcher = watch(folder, (_event, name) => {
        if (name && names.has(name.toString())) this.changed();
      });
      watcher.on('error', () => {}); // a folder that goes away simply stops reporting
      this.watchers.push(watcher);
    }
  }

  close(): void {
    this.closeWatchers();
    this.pending?.unsubscribe();
  }

  private changed(): void {
    this.pending?.unsubscribe();
    this.pending = after(this.scheduler, this.settleMs, () => {
      this.pending = undefined;
      this.onChange();
    });
  }

  private closeWatchers(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }
}
