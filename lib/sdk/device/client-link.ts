/**
 * The link of a connection to a device through a client library that connects, reconnects
 * and times out on its own (R-PK7): atem-connection, hyperdeck-connection. The library
 * keeps the connection; the link takes what it says (up,
 * down with a reason) as the connection's status, and gives its commands the hub's bounds:
 * refused while the device is away or another hub is active (the fence), answered with the
 * command's outcome, or PB_DEVICE_TIMEOUT when the library never settles it. The author
 * writes no glue to switch the library's own reconnecting off.
 */
import type { Subscription } from 'rxjs';
import { after } from '../../core/scheduler.ts';
import { Status } from '../context.ts';
import type { LinkAttempt } from './device-link.ts';
import { DEFAULT_TIMEOUT_MS, type LinkOptions, LinkState } from './link-state.ts';

/** A client library as a type wraps it: start it once, and close it for good. */
export interface LinkClient {
  /**
   * Starts the library's own connecting, once: it tells `events` each time it is up and
   * each time it is down (with why), for as long as it runs, in any order and as often.
   */
  start(events: LinkAttempt): void;
  /** Closes the library for good (its `disconnect`, `destroy`…). */
  close(): void | Promise<void>;
}

export interface ClientLinkOptions extends LinkOptions {
  /** How long `start` waits for the library to be up before it says the device is away; default 2000 ms. */
  readonly connectTimeoutMs?: number;
}

export class ClientLink extends LinkState {
  private waiting: Subscription | undefined;
  /** Ends the wait of `start`: at the first up or down, after `connectTimeoutMs`, or at `stop`. */
  private settleStart: () => void = () => {};

  constructor(
    private readonly client: LinkClient,
    protected override readonly options: ClientLinkOptions,
  ) {
    super(options, 'not connected yet');
  }

  /**
   * Starts the library; resolves once it is up, it said it is down, `connectTimeoutMs`
   * passed without either (then the status says the device has not answered; the library
   * goes on trying, and its `up` makes the connection ok), or `stop` was called.
   */
  start(): Promise<void> {
    const { status, scheduler } = this.options;
    status(Status.Connecting);
    return new Promise((settled) => {
      const settle = (this.settleStart = () => {
        this.waiting?.unsubscribe();
        this.waiting = undefined;
        settled();
      });
      this.waiting = after(scheduler, this.options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS, () => {
        if (!this.stopped && !this.isUp) status(Status.Degraded, `the device has not answered: ${this.reason}`, this.unavailable);
        settle();
      });
      this.client.start({
        up: () => {
          if (this.stopped) return;
          this.markUp();
          settle();
        },
        down: (reason) => {
          if (this.stopped) return;
          this.markDown(reason);
          settle();
        },
      });
    });
  }

  /** Closes the library for good. Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.isUp = false;
    this.settleStart();
    await this.client.close();
  }
}
