/**
 * What a broker or a device sent past a bound (R-G4): dropped, counted by kind, and the
 * connection `degraded` with the latest reason for a minute after the latest overrun — on
 * top of the status its link reports, which it leaves alone otherwise.
 */
import type { Subscription } from 'rxjs';
import type { ErrorCode } from '../../core/errors.ts';
import { after, type Scheduler } from '../../core/scheduler.ts';
import { type ConnectionContext, Status } from '../context.ts';
import type { ConnectionMetric } from '../type.ts';

/** How long the connection stays degraded after the latest overrun. */
const DEGRADED_FOR_MS = 60_000;

/** A status as the broker link reports it, in either form `setStatus` takes. */
type LinkStatus = [status: (typeof Status)[keyof typeof Status], reason?: string, code?: ErrorCode];
type AnyStatus = (...status: LinkStatus) => void;

/** `Kind` names what was dropped (`payload`, `parameters`…): each kind has its count. */
export class Overruns<Kind extends string> {
  readonly counts: Record<Kind, number>;
  private link: LinkStatus = [Status.Connecting];
  private latest: string | undefined;
  private clear: Subscription | undefined;

  constructor(
    kinds: readonly Kind[],
    private readonly scheduler: Scheduler,
    private readonly setStatus: ConnectionContext['setStatus'],
    /** What the reason ends with, in brackets: what happened, and where the bound is set. */
    private readonly hint = 'dropped; see limits',
  ) {
    this.counts = Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<Kind, number>;
  }

  /** Where the link reports the connection's status. */
  readonly status = ((...status: LinkStatus) => {
    this.link = status;
    this.show();
  }) as ConnectionContext['setStatus'];

  /** `count` items of `kind` dropped, for `reason`; degrades the connection unless `quiet` (counted only). */
  dropped(kind: Kind, reason: string, count = 1, quiet = false): void {
    this.counts[kind] += count;
    if (quiet) return;
    this.latest = reason;
    this.clear?.unsubscribe();
    this.clear = after(this.scheduler, DEGRADED_FOR_MS, () => {
      this.latest = undefined;
      this.show();
    });
    this.show();
  }

  stop(): void {
    this.clear?.unsubscribe();
  }

  private show(): void {
    if (this.latest !== undefined && this.link[0] === Status.Ok)
      return this.setStatus(Status.Degraded, `${this.latest} (${this.hint})`, 'PB_OVER_LIMIT');
    (this.setStatus as AnyStatus)(...this.link);
  }
}

/**
 * The counter of what a connection dropped, by kind or reason: read from its details'
 * `dropped` record (`{ ...overruns.counts }`, and any counts of the type's own).
 */
export function droppedMetric(name: string, help: string, labelName = 'kind'): ConnectionMetric {
  return {
    name,
    help,
    kind: 'counter',
    labelNames: [labelName],
    samples: (details) => {
      const dropped = details['dropped'];
      if (dropped === undefined || dropped === null || typeof dropped !== 'object') return [];
      return Object.entries(dropped as Record<string, number>).map(([label, value]) => ({ labels: { [labelName]: label }, value }));
    },
  };
}
