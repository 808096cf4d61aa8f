/**
 * The flow's packages installed again on disk while the hub runs (R-PK10): looked at every
 * second, so that `npm install` beside a running hub, or an upload from the console, shows at
 * once — in `/connections` (`package.installed`), as a problem of the package with the reload
 * that loads it, and to every console that follows the connections — not only when one of its
 * processes happens to start again (R-PK9 keeps the new code from running half loaded).
 */
import type { Subscription } from 'rxjs';
import { installedVersion } from '../config/plugins.ts';
import type { ConnectionInfo, Problem, TypeOrigin } from '../connections/connection.ts';
import { every, type Scheduler } from '../core/scheduler.ts';

/** How often the packages on disk are looked at: a stamp of two small files each. */
const LOOK_EVERY_MS = 1000;

export class InstalledAnew {
  /** The version installed of each package installed again, by package name. */
  private found = new Map<string, string>();
  private looking: Subscription | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    /** The packages the running flow loaded, one origin a type. */
    private readonly origins: () => readonly TypeOrigin[],
    /** Told when what is found changes. */
    private readonly changed: () => void,
  ) {}

  /** Looks every second while the running flow has packages (a flow without any schedules nothing); again after each reload. */
  watch(): void {
    if (this.origins().length === 0) return this.stop();
    this.looking ??= every(this.scheduler, LOOK_EVERY_MS, () => this.look());
  }

  stop(): void {
    this.looking?.unsubscribe();
    this.looking = undefined;
  }

  /** Looks now (a reload loaded the packages afresh, an upload installed one). */
  look(): void {
    const found = new Map<string, string>();
    for (const origin of this.origins()) {
      if (found.has(origin.package)) continue;
      const version = installedVersion(origin);
      if (version !== undefined) found.set(origin.package, version);
    }
    const same = found.size === this.found.size && [...found].every(([name, version]) => this.found.get(name) === version);
    this.found = found;
    if (!same) this.changed();
  }

  /** A connection as `/connections` lists it, with the version of its package installed now when it is not the one running. */
  shown(info: ConnectionInfo): ConnectionInfo {
    const installed = info.package && this.found.get(info.package.name);
    return info.package && installed !== undefined ? { ...info, package: { ...info.package, installed } } : info;
  }

  /** Each package installed again, as a problem: what runs, what is installed, and what loads it. */
  problems(): Problem[] {
    const running = new Map(this.origins().map((origin) => [origin.package, origin.version]));
    return [...this.found].map(([name, version]) => ({
      source: 'package',
      id: name,
      code: 'PB_PLUGIN_CHANGED',
      message: `version ${version} is installed and ${running.get(name) ?? '?'} runs: reload the flow to run ${version} (a process of its connections started meanwhile does not start)`,
    }));
  }
}
