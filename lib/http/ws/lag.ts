/**
 * Clients that stop reading. While changes flow, send buffers are looked at every
 * `scanIntervalMs`: a client holding more than the lag limit (beyond its last snapshot) is
 * taken off its topic's stream, so its memory stays bounded, and once it has drained it is
 * sent what it missed — exactly, from a resumable topic's replay (R-W3), else the current
 * value of every parameter that changed meanwhile — and joins the stream again.
 */
import type { Subscription } from 'rxjs';
import { after, type Scheduler } from '../../core/scheduler.ts';
import type { Changes } from './changes.ts';
import type { Outbox } from './outbox.ts';
import type { Snapshots } from './snapshots.ts';
import type { Member, WsSocket } from './state.ts';

export interface LagLimits {
  /** A client whose send buffer holds more than this (beyond its snapshot) stops getting changes. */
  readonly lagLimit: number;
  /** How often, while changes flow, send buffers are checked against the limit. */
  readonly scanIntervalMs: number;
  /** uWS's per-socket cap: a client found beyond it may have lost messages. */
  readonly dropLimit: number;
  readonly scheduler: Scheduler;
}

export class LagWatch {
  /**
   * Clients off the stream now, waiting to drain, each with the point it missed what
   * followed from: the hub's change count (or a resumable topic's `seq`) when it was taken
   * off, -1 when some of what it was sent before may have been lost.
   */
  private readonly lagging = new Map<Member, number>();
  private scan: Subscription | undefined;
  private publishedSinceScan = false;

  constructor(
    private readonly limits: LagLimits,
    /** Every client that joined and has not left. */
    private readonly members: ReadonlyMap<WsSocket, Member>,
    private readonly changes: Changes,
    private readonly outbox: Outbox,
    private readonly snapshots: Snapshots,
  ) {
    snapshots.cutOff$.subscribe(({ member, missedSince }) => this.add(member, missedSince));
  }

  /** Clients off the stream now. */
  get size(): number {
    return this.lagging.size;
  }

  /** Something was sent: buffers are looked at within the scan interval. */
  published(): void {
    this.publishedSinceScan = true;
    this.scanSoon();
  }

  /** uWS reports that the client's send buffer shrank: a lagging client may be ready again. */
  drained(member: Member): void {
    if (this.lagging.has(member)) this.resumeIfDrained(member);
  }

  left(member: Member): void {
    this.lagging.delete(member);
  }

  stop(): void {
    this.scan?.unsubscribe();
    this.lagging.clear();
  }

  /** A client found lagging elsewhere (its queue behind a snapshot outgrew the limit). */
  private add(member: Member, missedSince: number): void {
    this.lagging.set(member, missedSince);
    this.scanSoon();
  }

  /** A lagging client that drained below a quarter of the limit is sent what it missed and joins again. */
  private resumeIfDrained(member: Member): void {
    const { ws, topic } = member;
    if (ws.getBufferedAmount() > this.limits.lagLimit / 4) return;
    const missedSince = this.lagging.get(member) as number;
    this.lagging.delete(member);
    this.outbox.flush(topic);
    // What it was sent before it lagged is on its way; only what changed since is missing:
    // replayed exactly, trigger fires too, when its topic keeps it (R-W3).
    const missed = missedSince >= 0 ? topic.replay?.since(missedSince, topic.interval > 0, this.limits.scheduler.now()) : undefined;
    if (missed) this.snapshots.send(member, missedSince, missed.messages);
    else this.snapshots.send(member, topic.replay ? -1 : missedSince);
  }

  private scanSoon(): void {
    this.scan ??= after(this.limits.scheduler, this.limits.scanIntervalMs, () => this.checkBuffers());
  }

  private checkBuffers(): void {
    this.scan = undefined;
    if (this.publishedSinceScan) {
      this.publishedSinceScan = false;
      for (const member of this.members.values()) {
        if (
          !this.lagging.has(member) &&
          !this.snapshots.underWay(member) &&
          member.ws.getBufferedAmount() > this.limits.lagLimit + this.snapshots.lastBytes(member)
        )
          this.setLagging(member);
      }
    }
    for (const member of this.lagging.keys()) this.resumeIfDrained(member);
    // Lagging clients that never read again are checked until they do or disconnect.
    if (this.lagging.size > 0) this.scanSoon();
  }

  private setLagging(member: Member): void {
    const { ws, topic } = member;
    // Below uWS's cap every message so far is queued for it; beyond, some may be lost.
    this.lagging.set(member, ws.getBufferedAmount() < this.limits.dropLimit ? this.changes.count : -1);
    this.outbox.unlisten(topic, ws);
  }
}
