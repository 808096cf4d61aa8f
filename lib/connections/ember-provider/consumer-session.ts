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
  private closed = false;

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

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
  }
}
