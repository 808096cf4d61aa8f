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
import type { Sending } from './sending.ts';
import type { Snapshots } from './snapshots.ts';
import type { WsSocket } from './state.ts';

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
  /** Clients off the stream now, waiting to drain. */
  readonly lagging = new Set<WsSocket>();
  private scan: Subscription | undefined;
  private publishedSinceScan = false;

  constructor(
    private readonly limits: LagLimits,
    /** Every client that joined and has not left. */
    private readonly clients: ReadonlySet<WsSocket>,
    private readonly changes: Changes,
    private readonly sending: Sending,
    private readonly snapshots: Snapshots,
  ) {}

  /** Something was sent: buffers are looked at within the scan interval. */
  published(): void {
    this.publishedSinceScan = true;
    this.scanSoon();
  }

  /** A client found lagging elsewhere (its queue behind a snapshot outgrew the limit), its `missedSince` set. */
  add(ws: WsSocket): void {
    this.lagging.add(ws);
    this.scanSoon();
  }

  remove(ws: WsSocket): void {
    this.lagging.delete(ws);
  }

  /** A lagging client that drained below a quarter of the limit is sent what it missed and joins again. */
  resumeIfDrained(ws: WsSocket): void {
    if (ws.getBufferedAmount() > this.limits.lagLimit / 4) return;
    this.lagging.delete(ws);
    const client = ws.getUserData();
    const topic = client.topic;
    if (topic) this.sending.flush(topic);
    // What it was sent before it lagged is on its way; only what changed since is missing:
    // replayed exactly, trigger fires too, when its topic keeps it (R-W3).
    const missed =
      client.missedSince >= 0 ? topic?.replay?.since(client.missedSince, topic.interval > 0, this.limits.scheduler.now()) : undefined;
    if (missed) this.snapshots.send(ws, client.missedSince, missed.messages);
    else this.snapshots.send(ws, topic?.replay ? -1 : client.missedSince);
  }

  stop(): void {
    this.scan?.unsubscribe();
    this.lagging.clear();
  }

  private scanSoon(): void {
    this.scan ??= after(this.limits.scheduler, this.limits.scanIntervalMs, () => this.checkBuffers());
  }

  private checkBuffers(): void {
    this.scan = undefined;
    if (this.publishedSinceScan) {
      this.publishedSinceScan = false;
      for (const ws of this.clients) {
        const client = ws.getUserData();
        if (!client.lagging && !client.snapshot && ws.getBufferedAmount() > this.limits.lagLimit + client.snapshotBytes)
          this.setLagging(ws);
      }
    }
    for (const ws of this.lagging) this.resumeIfDrained(ws);
    // Lagging clients that never read again are checked until they do or disconnect.
    if (this.lagging.size > 0) this.scanSoon();
  }

  private setLagging(ws: WsSocket): void {
    const client = ws.getUserData();
    client.lagging = true;
    // Below uWS's cap every message so far is queued for it; beyond, some may be lost.
    client.missedSince = ws.getBufferedAmount() < this.limits.dropLimit ? this.changes.count : -1;
    if (client.topic) {
      ws.unsubscribe(client.topic.name);
      client.topic.listening.delete(ws);
    }
    this.lagging.add(ws);
  }
}
