/**
 * A config the module saves itself (R-CM3): Companion modules call `saveConfig` when they
 * learn something worth keeping (a device's serial number, a setting changed from the
 * device) and when their upgrade scripts rewrite the config. The hub keeps it with the
 * connection's records beside the flow's config it was saved over, gives it to the module
 * at its next start while the flow still writes that config, and shows it; the flow file is
 * never written. A flow whose config changed since wins: the saved one is dropped.
 * Secrets a module saves are not kept — the state folder and a standby group's records are
 * no place for them; the flow's secrets are what the module gets.
 */
import { isDeepStrictEqual } from 'node:util';
import { type Json, type Logger, Paced, type Records, type Scheduler } from '../../sdk/index.ts';

const KEY = 'savedConfig';

/** The most a saved config may be, as JSON: a config is a form's worth of values. */
export const MOST_SAVED_BYTES = 64 * 1024;

interface Saved {
  /** The flow's config when the module saved this one. */
  readonly over: Json;
  readonly config: Json;
}

const isSaved = (kept: Json | undefined): kept is Json & Saved =>
  typeof kept === 'object' && kept !== null && !Array.isArray(kept) && 'over' in kept && 'config' in kept;

/** Saves kept a second: a module saving in a loop writes the records (and a standby's copy) this often, its last save kept. */
const MOST_SAVES_A_SECOND = 2;

interface Save {
  readonly config: Record<string, unknown>;
  readonly runsWith: Readonly<Record<string, unknown>>;
}

export class SavedConfig {
  /** The module's latest save, with the config it ran with when it saved; kept at most twice a second. */
  private readonly latest: Paced<Save | undefined>;

  constructor(
    private readonly records: Records,
    /** The config as the flow writes it. */
    private readonly written: Readonly<Record<string, unknown>>,
    private readonly log: Logger,
    scheduler: Scheduler,
  ) {
    this.latest = new Paced<Save | undefined>(scheduler, MOST_SAVES_A_SECOND, undefined, (save) => save && this.keep(save));
  }

  /** The config the module saved over the flow's config as it is now; undefined when there is none (or the flow changed). */
  current(): Record<string, unknown> | undefined {
    const kept = this.records.get(KEY);
    if (!isSaved(kept)) return undefined;
    if (isDeepStrictEqual(kept.over, this.written)) return kept.config as Record<string, unknown>;
    this.records.set(KEY, undefined);
    this.log.info("the flow's config changed since the module saved its own: the module starts from the flow's");
    return undefined;
  }

  /** Keeps what the module saved, when it differs from what it runs with now. */
  save(config: unknown, runsWith: Readonly<Record<string, unknown>>): void {
    if (typeof config !== 'object' || config === null || Array.isArray(config) || isDeepStrictEqual(config, runsWith)) return;
    this.latest.set({ config: config as Record<string, unknown>, runsWith });
  }

  /** Keeps a save that waits now: the module stops. */
  stop(): void {
    this.latest.flush();
  }

  private keep({ config, runsWith }: Save): void {
    const text = JSON.stringify(config);
    if (text.length > MOST_SAVED_BYTES) {
      this.log.warn(`the module saved a config of ${text.length} bytes: over ${MOST_SAVED_BYTES}, not kept`);
      return;
    }
    const changed = Object.keys({ ...runsWith, ...config }).filter((key) => !isDeepStrictEqual(config[key], runsWith[key]));
    this.records.set(KEY, { over: this.written as Json, config: JSON.parse(text) as Json });
    this.log.info(`the module saved its config (${changed.join(', ')}): kept for its next start; the flow file is unchanged`);
  }

  /** What `details` shows. */
  shown(): Json | undefined {
    const kept = this.records.get(KEY);
    return isSaved(kept) ? kept.config : undefined;
  }
}
