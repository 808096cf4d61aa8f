/**
 * One consumer connected to an ember-provider: its socket, its subscriptions, and the bound
 * on what waits to be sent to it. A consumer that stops reading is cut off once more than
 * `maxQueuedBytes` wait for it: the provider never waits for a consumer, so one that stalls
 * holds nobody up, and what it cost stays bounded.
 */
import type { Socket } from 'node:net';

export class ConsumerSession {
  /** `ember <address>:<port>`: the origin of its writes (R-O2). */
  readonly origin: string;
  /** The numbered paths it follows: nodes it asked for (their children), elements it subscribed to. */
  readonly subscriptions = new Set<string>();
  /** Its messages dropped so far (malformed, past a bound). */
  dropped = 0;
  private closed = false;
  /** Requests in the current second, and when it began. */
  private requests = 0;
  private secondBegan = Number.NEGATIVE_INFINITY;
  private lastKeepalive = Number.NEGATIVE_INFINITY;

  constructor(
    readonly socket: Socket,
    private readonly maxQueuedBytes: number,
    private readonly cutOff: (session: ConsumerSession) => void,
  ) {
    this.origin = `ember ${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
  }

  send(message: Buffer): void {
    if (this.closed) return;
    this.socket.write(message);
    if (this.socket.writableLength > this.maxQueuedBytes) {
      this.close();
      this.cutOff(this);
    }
  }

  /**
   * Counts `count` requests (commands and elements of its messages) at `now`: false once it
   * asked for more than `perSecond` within a second — the caller cuts it off.
   */
  asks(count: number, now: number, perSecond: number): boolean {
    if (now - this.secondBegan >= 1000) {
      this.secondBegan = now;
      this.requests = 0;
    }
    this.requests += count;
    return this.requests <= perSecond;
  }

  /** Whether a keep-alive asked at `now` is answered: one in 100 ms at most. */
  mayAnswerKeepalive(now: number): boolean {
    if (now - this.lastKeepalive < 100) return false;
    this.lastKeepalive = now;
    return true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
  }
}
