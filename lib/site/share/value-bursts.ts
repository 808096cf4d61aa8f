/**
 * Shared values in bursts (R-M5 at speed). A shared parameter whose value changes again
 * within a second of its value topic's last message goes to the other hubs in the turn's
 * burst: one signed message on `<prefix>/$values/<hub id>`, not retained, with every such
 * change of the turn. Its value topic is told the latest when its second is up (a little
 * later while many are due: a tick tells its share), so that a hub joining, a tool reading
 * value topics and a hub of a version before bursts all have it. A quiet parameter's change
 * still goes on its value topic at once: only what changes faster than once a second is late
 * there, and by about a second.
 *
 * A hub then signs, frames and has acknowledged one message a turn where it had one a change
 * (at 20,000 changes a second, most of what sharing cost both hubs). A change sent on its
 * value topic sends the burst under way first (the bridge asks the link), so the other hubs
 * see this hub's changes in the order it made them. Nothing goes in a burst until the broker
 * took an empty one (an ACL may refuse the topic: then every change goes on its value topic).
 *
 * A burst carries the sender's broker session as its presence says it: a receiver takes it
 * only while that presence stands, so one played back after the sender reconnected is
 * refused. Values count in the order of the sender's counters, whichever topic brought them
 * (mirrors.ts): a burst played back within the session holds nothing newer than what its
 * value topics hold a second later.
 */
import { type Observable, Subject, type Subscription } from 'rxjs';
import { after, afterTurn, every, type Logger, type Parameter, type Scheduler } from '../../sdk/index.ts';
import type { BrokerLink } from '../../broker/broker-link.ts';
import type { SiteChecks } from '../peers/checks.ts';
import type { SiteSettings } from '../settings.ts';

/** How long after its value topic was told a parameter's changes go in bursts, before the topic is told again. */
export const SETTLE_MS = 1000;

/**
 * How often the parameters whose second is up are looked at. Each tick tells at most its
 * share of the value topics (those told within a second, over the ticks of a second), the
 * rest at the next: parameters that all began changing at once would otherwise be told all
 * at once, every second — a spike of a thousand messages that held back every value behind
 * it (the p99 of scenario 9 at 10,000 changes/s, 30 ms).
 */
const TICK_MS = 20;

/** MQTT 5's reason code of a publish the broker's access control refused. */
const NOT_AUTHORIZED = 135;

/** How long after the broker refused a burst it is asked again (an ACL put right takes effect without a restart). */
const ASK_AGAIN_MS = 60_000;

/** A burst's payload at most, in bytes: well under what a receiver takes (`limits.payloadBytes`, 1 KiB at least). */
const MOST_BYTES = 16_384;

/** What a burst's payload says: the sender's session and `[address, value, who changed it]` in the order they changed. */
export interface Burst {
  readonly session: string;
  /** The sender's fencing token (R-EG2): its lease's epoch, while it is the active hub of a group. */
  readonly token: number | undefined;
  readonly values: readonly (readonly [address: string, value: string, by: string])[];
}

export class ValueBursts {
  /** When each parameter's value topic was told, oldest first, for a second: its changes meanwhile go in bursts. */
  private readonly told = new Map<string, number>();
  /** Parameters whose changes went in bursts since their value topic was told: it is told again when their second is up. */
  private readonly pending = new Set<string>();
  /** This turn's burst, each entry a JSON array, its bytes and the address of its last entry. */
  private entries: string[] = [];
  private lastAddress = '';
  private bytes = 0;
  private flushQueued = false;
  private readonly mostBytes: number;
  private ticking: Subscription | undefined;
  /**
   * Whether the broker takes this hub's bursts, as an empty one sent at each connect was
   * answered: until it says yes, and after it said no (an access list from before bursts),
   * every value goes on its value topic. Asked first, so that no change is lost in a burst
   * the broker refuses.
   */
  private taken: 'asking' | 'yes' | 'no' = 'asking';
  private askingAgain: Subscription | undefined;
  private readonly settled = new Subject<readonly string[]>();
  /** Emits the addresses whose value topics are to be told their latest value now. */
  readonly settle$: Observable<readonly string[]> = this.settled.asObservable();

  constructor(
    private readonly settings: SiteSettings,
    private readonly link: BrokerLink,
    private readonly checks: SiteChecks,
    private readonly scheduler: Scheduler,
    private readonly log: Logger,
    /** The token this hub's bursts carry (share/tokens.ts); undefined: none. */
    private readonly token: () => number | undefined = () => undefined,
  ) {
    // The wrapper (session, token, brackets) is under 100 bytes.
    this.mostBytes = Math.min(MOST_BYTES, settings.limits.payloadBytes) - 100;
    // A write's answer, and the acknowledgement an active hub waits for (R-B2), come after its value.
    link.gathering(() => this.flush());
  }

  /**
   * True when the change goes in this turn's burst; false when it goes on its value topic now
   * (the first in a second, or one too large for a burst).
   */
  take(parameter: Parameter, value: string, by: string): boolean {
    const { address } = parameter;
    if (this.taken !== 'yes' || !this.link.up) return false;
    if (!this.told.has(address)) {
      this.toldNow(address);
      return false;
    }
    const entry = JSON.stringify([address, value, by]);
    const bytes = Buffer.byteLength(entry) + 1;
    if (bytes > this.mostBytes) return false;
    if (this.bytes + bytes > this.mostBytes) this.flush();
    this.entries.push(entry);
    this.bytes += bytes;
    this.lastAddress = address;
    this.pending.add(address);
    if (!this.flushQueued) {
      this.flushQueued = true;
      afterTurn(() => {
        this.flush();
        // The turn is over: its bytes go now, not at the end of the next.
        this.link.writeNow();
      });
    }
    return true;
  }

  /** Connected, every value sent again: asks the broker whether it takes bursts (an empty one, in this session). */
  up(): void {
    const { qos } = this.settings;
    // Without acknowledgements there is no answer to wait for.
    if (qos === 0) this.taken = 'yes';
    else this.ask();
  }

  /** The broker went: nothing is sent until it is back, and then every value goes on its value topic. */
  down(): void {
    this.entries = [];
    this.bytes = 0;
    this.pending.clear();
    this.told.clear();
    this.ticking?.unsubscribe();
    this.ticking = undefined;
    this.askingAgain?.unsubscribe();
    if (this.taken === 'yes') this.taken = 'asking';
  }

  stop(): void {
    this.down();
  }

  private ask(): void {
    this.askingAgain?.unsubscribe();
    this.publish('', (answer) => {
      if (answer === 'refused') this.refused();
      else if (answer === 'taken' && this.taken !== 'yes') {
        if (this.taken === 'no') this.log.info(`the broker takes this hub's bursts on ${this.topic} again`);
        this.taken = 'yes';
      }
    });
  }

  private get topic(): string {
    return this.settings.layout.burst(this.settings.hub.id);
  }

  /** Publishes a burst of `entries` (JSON arrays, joined); `answered` hears whether the broker took it. */
  private publish(entries: string, answered?: (answer: 'taken' | 'refused' | 'lost') => void): void {
    // The active hub of a group fences its bursts with its lease's epoch, as its values (tokens.ts).
    const token = this.token();
    const fenced = token === undefined ? '' : `"token":${token},`;
    const payload = `{"session":${JSON.stringify(this.checks.session)},${fenced}"values":[${entries}]}`;
    this.link.publish(this.topic, payload, { qos: this.settings.qos, retain: false }, 'drop', (error) => {
      const code = (error as { code?: unknown } | undefined)?.code;
      answered?.(error === undefined ? 'taken' : code === NOT_AUTHORIZED ? 'refused' : 'lost');
    });
  }

  /**
   * The broker refused a burst (its access list changed since it took the first): from now
   * every value goes on its value topic, those of the bursts at once; it is asked again in a
   * minute.
   */
  private refused(): void {
    const addresses = this.taken === 'yes' ? [...this.pending] : [];
    if (this.taken !== 'no') {
      this.down();
      this.taken = 'no';
      this.log.warn(
        `the broker refuses this hub's bursts on ${this.topic} (not authorized): its values go on their value topics alone, each fast change a message of its own; let it write ${this.topic} (see the ACL example of the operating guide) and bursts begin within a minute`,
      );
    }
    // Refused again or for the first time, it is asked again in a minute: an ACL put right takes effect then.
    this.askingAgain?.unsubscribe();
    this.askingAgain = after(this.scheduler, ASK_AGAIN_MS, () => {
      if (this.link.up) this.ask();
    });
    if (addresses.length > 0) this.settled.next(addresses);
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.entries.length === 0) return;
    if (this.entries.length === 1) {
      // One value is one message either way: on its value topic it needs no settling after.
      const address = this.lastAddress;
      this.entries = [];
      this.bytes = 0;
      this.pending.delete(address);
      this.toldNow(address);
      this.settled.next([address]);
      return;
    }
    const entries = this.entries.join(',');
    this.entries = [];
    this.bytes = 0;
    this.publish(entries, (answer) => {
      if (answer === 'refused') this.refused();
    });
  }

  /** The value topic of `address` is told now (moved to the end: the map stays oldest first). */
  private toldNow(address: string): void {
    this.told.delete(address);
    this.told.set(address, this.scheduler.now());
    this.ticking ??= every(this.scheduler, TICK_MS, () => this.sweep());
  }

  /**
   * Parameters whose second is up, a tick's share of them: the value topic of each that went
   * in bursts is told its latest value, and its next second begins; the others' next change
   * goes on the topic at once. The burst under way goes first: its counter must be below theirs, which carry
   * newer values.
   */
  private sweep(): void {
    const before = this.scheduler.now() - SETTLE_MS;
    const most = Math.ceil((this.told.size * TICK_MS) / SETTLE_MS);
    const settled: string[] = [];
    for (const [address, at] of this.told) {
      if (at > before || settled.length >= most) break;
      this.told.delete(address);
      if (this.pending.delete(address)) settled.push(address);
    }
    if (settled.length > 0) {
      this.flush();
      for (const address of settled) this.toldNow(address);
      this.settled.next(settled);
    }
    if (this.told.size === 0) {
      this.ticking?.unsubscribe();
      this.ticking = undefined;
    }
  }
}

/** A burst's payload read back; undefined when it is not one. */
export function readBurst(payload: Buffer): Burst | undefined {
  let data: unknown;
  try {
    data = JSON.parse(payload.toString());
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const { session, values, token } = data as Record<string, unknown>;
  if (typeof session !== 'string' || !Array.isArray(values)) return undefined;
  const valid = values.every(
    (entry) =>
      Array.isArray(entry) &&
      entry.length === 3 &&
      typeof entry[0] === 'string' &&
      typeof entry[1] === 'string' &&
      typeof entry[2] === 'string',
  );
  const fenced = typeof token === 'number' && Number.isSafeInteger(token) && token >= 0 ? token : undefined;
  if (token !== undefined && fenced === undefined) return undefined;
  return valid ? { session, token: fenced, values: values as Burst['values'] } : undefined;
}
