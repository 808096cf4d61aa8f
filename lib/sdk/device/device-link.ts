/**
 * The link of a connection to a device or a broker (R-G1), written once for every such
 * type: the type supplies its protocol — how to open the link once and how to close it —
 * and the link does the rest. It reports `connecting` while the first attempt runs, `ok`
 * while up, and `degraded` with the reason from the first attempt that fails (a device never
 * reached shows why at once) while it tries again, after 0.25 s, doubling to
 * at most 2 s (or `longestRetryMs`), forever, so that a device back is ok again within 2 s (R-DV5). Writes go through `write`: refused at once while the link is down,
 * answered when the device confirms, or refused when it does not confirm in time.
 */
import type { Subscription } from 'rxjs';
import type { Answered, SetResult } from '../../core/parameter.ts';
import { after } from '../../core/scheduler.ts';
import { Status } from '../context.ts';
import { type LinkOptions, LinkState } from './link-state.ts';

export { DEFAULT_TIMEOUT_MS } from './link-state.ts';

/** One attempt of a protocol to open its link: it says once that it is up, and once that it is down. */
export interface LinkAttempt {
  /** The link carries messages now. */
  up(): void;
  /** The attempt failed, or the link it opened closed, for this reason; the link tries again. */
  down(reason: string): void;
}

/** What a device type supplies: its way to open the link, and to close it. */
export interface LinkProtocol {
  /**
   * Opens the link once, and tells `attempt` how it goes; calls of an attempt that ended are
   * ignored. What it returns releases what this attempt opened (its socket, its client, its
   * timers): the link calls it once the attempt is down — before the next attempt opens
   * anew — and at stop, so no attempt leaves a socket behind.
   */
  open(attempt: LinkAttempt): void | (() => void);
  /** Closes whatever is open, for good. */
  close(): void | Promise<void>;
}

export interface DeviceLinkOptions extends LinkOptions {
  /** The longest wait between two attempts; default 10 s. A link that everything waits for (a broker) tries more often. */
  readonly longestRetryMs?: number;
}

export const FIRST_RETRY_MS = 250;
/** A device back is ok again within this (R-DV5): a connect attempt every 2 s to one away costs nothing a studio feels. */
export const LONGEST_RETRY_MS = 2000;

export class DeviceLink extends LinkState {
  private retryMs = FIRST_RETRY_MS;
  private retry: Subscription | undefined;
  /** Ends the current attempt: its later calls are ignored. */
  private endAttempt: () => void = () => {};
  private firstOutcome: Promise<void>;
  private settleFirst: () => void = () => {};

  constructor(
    private readonly protocol: LinkProtocol,
    protected override readonly options: DeviceLinkOptions,
  ) {
    super(options, '');
    this.firstOutcome = new Promise((resolve) => (this.settleFirst = resolve));
  }

  /** Opens the link; resolves once it is up or the first attempt failed (it goes on trying). */
  start(): Promise<void> {
    this.options.status(Status.Connecting);
    this.attempt();
    return this.firstOutcome;
  }

  private attempt(): void {
    if (this.stopped) return;
    let live = true;
    let release: (() => void) | undefined;
    /** Ends this attempt once: its later calls are ignored, and what it opened is released. */
    const end = (this.endAttempt = () => {
      live = false;
      const releasing = release;
      release = undefined;
      releasing?.();
    });
    let wasUp = false;
    const opened = this.protocol.open({
      up: () => {
        if (!live || this.stopped || wasUp) return;
        wasUp = true;
        this.retryMs = FIRST_RETRY_MS;
        this.markUp();
        this.settleFirst();
      },
      down: (reason) => {
        if (!live || this.stopped) return;
        end();
        this.markDown(reason);
        this.settleFirst();
        this.retry?.unsubscribe();
        this.retry = after(this.options.scheduler, this.retryMs, () => {
          this.retry = undefined;
          this.attempt();
        });
        this.retryMs = Math.min(this.retryMs * 2, this.options.longestRetryMs ?? LONGEST_RETRY_MS);
      },
    });
    // An attempt that went down before `open` returned releases at once.
    if (typeof opened === 'function') {
      if (live) release = opened;
      else opened();
    }
  }

  /**
   * Sends a write through the link (a parameter's `forward`): refused at once while the
   * link is down; else `send` hands it to the device and calls `confirm` when the device
   * took it (or with the error it answered). `answered` hears the outcome once: the
   * confirmation, the device's refusal, or PB_DEVICE_TIMEOUT when neither came in time.
   */
  write(send: (confirm: (error?: unknown) => void) => void, answered?: Answered): SetResult {
    return this.writeThrough(send, answered);
  }

  /** Closes the link for good and stops trying. Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.endAttempt();
    this.retry?.unsubscribe();
    this.isUp = false;
    this.settleFirst();
    await this.protocol.close();
  }
}
