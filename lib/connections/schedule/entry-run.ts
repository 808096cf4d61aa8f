/**
 * One entry of a running schedule: its parameters, its wait for the next time, and the
 * record of how far its times are handled — fired, dropped, or passed while disabled. The
 * record is what makes a time fire at most once across restarts and clocks set back: the
 * next fire is always looked for after it.
 */
import type { Subscription } from 'rxjs';
import { after, type ConnectionContext, type OwnedParameter } from '../../sdk/index.ts';
import type { FireTimes } from './fire-times.ts';
import type { Zone } from './zone.ts';

/** An entry of the settings, parsed. */
export interface Entry {
  readonly id: string;
  readonly zone: Zone;
  readonly times: FireTimes;
  readonly catchUp: boolean;
}

/** What an entry keeps across restarts (scheduler time). */
interface EntryRecord {
  readonly handledUntil: number;
}

const isEntryRecord = (value: unknown): value is EntryRecord =>
  typeof value === 'object' && value !== null && typeof (value as EntryRecord).handledUntil === 'number';

export class EntryRun {
  private readonly fire: OwnedParameter;
  private readonly next: OwnedParameter;
  private readonly enabled: OwnedParameter;
  private readonly recordKey: string;
  private wait: Subscription | undefined;
  private catchUpWait: Subscription | undefined;
  private stopped = false;

  /** Defines the entry's parameters: `enabled` takes its kept value here (R-S3). */
  constructor(
    private readonly context: ConnectionContext,
    private readonly entry: Entry,
  ) {
    this.recordKey = `entry/${entry.id}`;
    this.fire = context.define(`${entry.id}/fire`, { type: 'T', access: 'read-only' });
    this.next = context.define(`${entry.id}/next`, { type: 'S', access: 'read-only' });
    this.enabled = context.define(`${entry.id}/enabled`, {
      type: 'B',
      access: 'read-write',
      initial: true,
      persist: true,
      onWrite: () => {
        // Times that passed while disabled are handled: enabling never fires them late.
        this.handle(context.scheduler.now());
        this.plan();
      },
    });
  }

  /** Drops or catches up what passed while the hub was down, then waits for the next time. */
  start(): void {
    const { scheduler, log } = this.context;
    const { id, times, zone, catchUp } = this.entry;
    const now = scheduler.now();
    const kept = this.handledUntil();
    const missed = kept === undefined || !this.isEnabled() ? undefined : times.after(kept);
    if (missed === undefined || missed > now) this.handle(now);
    else if (!catchUp) {
      log.info(`${id}: the fire due at ${zone.iso(missed)} passed while the hub was down; dropped`);
      this.handle(now);
    } else {
      log.info(`${id}: the fire due at ${zone.iso(missed)} passed while the hub was down; it fires now (catchUp)`);
      // Fired once rules and code flows listen, and handled only then: a hub stopped before still owes it.
      this.context.whenRunning(() => {
        if (this.stopped) return;
        this.catchUpWait = after(scheduler, 0, () => {
          if (this.isEnabled()) this.fireNow(scheduler.now());
        });
      });
    }
    this.plan();
  }

  stop(): void {
    this.stopped = true;
    this.wait?.unsubscribe();
    this.catchUpWait?.unsubscribe();
  }

  /** Waits for the first time after what is handled (and after now); shows it in `next`. */
  private plan(): void {
    const { scheduler } = this.context;
    this.wait?.unsubscribe();
    this.wait = undefined;
    if (this.stopped || !this.isEnabled()) return void this.next.report('');
    const at = this.entry.times.after(Math.max(scheduler.now(), this.handledUntil() ?? Number.NEGATIVE_INFINITY));
    if (at === undefined) return void this.next.report('');
    this.next.report(this.entry.zone.iso(at));
    const due = () => {
      // A wall clock set back while waiting wakes this early: wait for the rest.
      if (scheduler.now() < at) this.wait = after(scheduler, at - scheduler.now(), due);
      // Times that passed while the process was blocked are dropped with this one's fire.
      else this.fireNow(Math.max(at, scheduler.now()));
    };
    this.wait = after(scheduler, at - scheduler.now(), due);
  }

  /** Stores the times up to `handledUntil` as handled before firing, so that no restart fires them again. */
  private fireNow(handledUntil: number): void {
    this.handle(handledUntil);
    this.fire.report(true);
    this.plan();
  }

  private isEnabled(): boolean {
    return this.enabled.value === true;
  }

  private handledUntil(): number | undefined {
    const kept = this.context.records.get(this.recordKey);
    return isEntryRecord(kept) ? kept.handledUntil : undefined;
  }

  /** Never moves back: a clock set back does not make handled times due again. */
  private handle(until: number): void {
    const record: EntryRecord = { handledUntil: Math.max(until, this.handledUntil() ?? until) };
    this.context.records.set(this.recordKey, { ...record });
  }
}
