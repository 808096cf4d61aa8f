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
import type { Json, Logger, Records } from '../../sdk/index.ts';

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

export class SavedConfig {
  constructor(
    private readonly records: Records,
    /** The config as the flow writes it. */
    private readonly written: Readonly<Record<string, unknown>>,
    private readonly log: Logger,
  ) {}

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
    const text = JSON.stringify(config);
    if (text.length > MOST_SAVED_BYTES) {
      this.log.warn(`the module saved a config of ${text.length} bytes: over ${MOST_SAVED_BYTES}, not kept`);
      return;
    }
    const changed = Object.keys({ ...runsWith, ...config }).filter(
      (key) => !isDeepStrictEqual((config as Record<string, unknown>)[key], runsWith[key]),
    );
    this.records.set(KEY, { over: this.written as Json, config: JSON.parse(text) as Json });
    this.log.info(`the module saved its config (${changed.join(', ')}): kept for its next start; the flow file is unchanged`);
  }

  /** What `details` shows. */
  shown(): Json | undefined {
    const kept = this.records.get(KEY);
    return isSaved(kept) ? kept.config : undefined;
  }
}
