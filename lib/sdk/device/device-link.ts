/**
 * The link of a connection to a device or a broker (R-G1), written once for every such
 * type: the type supplies its protocol — how to open the link once and how to close it —
 * and the link does the rest. It reports `connecting` while the first attempt runs, `ok`
 * while up, and `degraded` with the reason from the first attempt that fails (a device never
 * reached shows why at once) while it tries again, after 0.25 s, doubling to
 * at most 10 s (or `longestRetryMs`), forever. Writes go through `write`: refused at once while the link is down,
 * answered when the device confirms, or refused when it does not confirm in time.
 */
import type { Subscription } from 'rxjs';
import { type ErrorCode, HubError, reasonOf } from '../../core/errors.ts';
import type { Answered, SetResult } from '../../core/parameter.ts';
import type { Fence } from '../../core/lease.ts';
import { after, type Scheduler } from '../../core/scheduler.ts';
import { type ConnectionContext, Status } from '../context.ts';

/** One attempt of a protocol to open its link: it says once that it is up, and once that it is down. */
export interface LinkAttempt {
  /** The link carries messages now. */
  up(): void;
  /** The attempt failed, or the link it opened closed, for this reason; the link tries again. */
  down(reason: string): void;
}

/** What a device type supplies: its way to open the link, and to close it. */
export interface LinkProtocol {
  /** Opens the link once, and tells `attempt` how it goes; calls of an attempt that ended are ignored. */
  open(attempt: LinkAttempt): void;
  /** Closes whatever is open, for good. */
  close(): void | Promise<void>;
}

export interface DeviceLinkOptions {
  readonly scheduler: Scheduler;
  /** Where the link's status goes: the connection's own, `context.setStatus` as it is. */
  readonly status: ConnectionContext['setStatus'];
  /** The code of the `degraded` status and of writes refused while down; default PB_DEVICE_UNAVAILABLE. */
  readonly unavailable?: ErrorCode;
  /** How long a write may wait for the device's confirmation (R-G1 `timeout`); default 2000 ms. */
  readonly timeoutMs?: number;
  /** Asked before every write (R-B3): `context.fence` for a device, `unfenced` for a broker. */
  readonly fence: Fence;
  /** The longest wait between two attempts; default 10 s. A link that everything waits for (a broker) tries more often. */
  readonly longestRetryMs?: number;
}

export const FIRST_RETRY_MS = 250;
export const LONGEST_RETRY_MS = 10_000;
export const DEFAULT_TIMEOUT_MS = 2000;

export class DeviceLink {
  private isUp = false;
  private stopped = false;
  private retryMs = FIRST_RETRY_MS;
  private retry: Subscription | undefined;
  /** Ends the current attempt: its later calls are ignored. */
  private endAttempt: () => void = () => {};
  private reason = '';
  private firstOutcome: Promise<void>;
  private settleFirst: () => void = () => {};
  private readonly unavailable: ErrorCode;
  private readonly timeoutMs: number;

  constructor(
    private readonly protocol: LinkProtocol,
    private readonly options: DeviceLinkOptions,
  ) {
    this.firstOutcome = new Promise((resolve) => (this.settleFirst = resolve));
    this.unavailable = options.unavailable ?? 'PB_DEVICE_UNAVAILABLE';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get up(): boolean {
    return this.isUp;
  }

  /** Why the link is down, while it is. */
  get downReason(): string {
    return this.isUp ? '' : this.reason;
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
    this.endAttempt = () => {
      live = false;
    };
    let wasUp = false;
    this.protocol.open({
      up: () => {
        if (!live || this.stopped || wasUp) return;
        wasUp = true;
        this.isUp = true;
        this.reason = '';
        this.retryMs = FIRST_RETRY_MS;
        this.options.status(Status.Ok);
        this.settleFirst();
      },
      down: (reason) => {
        if (!live || this.stopped) return;
        live = false;
        this.isUp = false;
        this.reason = reason;
        this.options.status(Status.Degraded, reason, this.unavailable);
        this.settleFirst();
        this.retry?.unsubscribe();
        this.retry = after(this.options.scheduler, this.retryMs, () => {
          this.retry = undefined;
          this.attempt();
        });
        this.retryMs = Math.min(this.retryMs * 2, this.options.longestRetryMs ?? LONGEST_RETRY_MS);
      },
    });
  }

  /**
   * Sends a write through the link (a parameter's `forward`): refused at once while the
   * link is down; else `send` hands it to the device and calls `confirm` when the device
   * took it (or with the error it answered). `answered` hears the outcome once: the
   * confirmation, the device's refusal, or PB_DEVICE_TIMEOUT when neither came in time.
   */
  write(send: (confirm: (error?: unknown) => void) => void, answered?: Answered): SetResult {
    const { fence, scheduler } = this.options;
    return writeThrough(
      { up: this.isUp, reason: this.reason, unavailable: this.unavailable, timeoutMs: this.timeoutMs, fence, scheduler },
      send,
      answered,
    );
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

/** What a write through a link is checked against: whether the link is up, and the hub's bounds. */
export interface WriteGate {
  readonly up: boolean;
  /** Why the link is down, while it is. */
  readonly reason: string;
  readonly unavailable: ErrorCode;
  readonly timeoutMs: number;
  readonly fence: Fence;
  readonly scheduler: Scheduler;
}

/**
 * A write through a link (`DeviceLink`, `ClientLink`): refused at once while the link is
 * down or the fence does not hold; else `send` hands it to the device and calls `confirm`
 * when the device took it (or with its refusal); `answered` hears the outcome once, or
 * PB_DEVICE_TIMEOUT when none came within `timeoutMs`.
 */
export function writeThrough(gate: WriteGate, send: (confirm: (error?: unknown) => void) => void, answered?: Answered): SetResult {
  const { up, reason, unavailable, timeoutMs, fence, scheduler } = gate;
  if (!up) return { ok: false, error: new HubError(unavailable, `the link is down: ${reason || 'not connected yet'}`) };
  if (!fence.holds()) return { ok: false, error: fence.refusal() };
  let pending = true;
  const finish = (result: SetResult) => {
    if (!pending) return;
    pending = false;
    timer.unsubscribe();
    answered?.(result);
  };
  const timer = after(scheduler, timeoutMs, () =>
    finish({ ok: false, error: new HubError('PB_DEVICE_TIMEOUT', `the device did not confirm the write within ${timeoutMs} ms`) }),
  );
  try {
    send((error) => finish(error === undefined ? { ok: true, value: true } : { ok: false, error: asDeviceError(error, unavailable) }));
  } catch (error) {
    finish({ ok: false, error: asDeviceError(error, unavailable) });
  }
  return { ok: true, value: true };
}

function asDeviceError(error: unknown, code: ErrorCode): HubError {
  return error instanceof HubError ? error : new HubError(code, reasonOf(error));
}
