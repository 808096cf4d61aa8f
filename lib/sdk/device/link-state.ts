/**
 * What `DeviceLink` and `ClientLink` share: whether the device is up and why not, the
 * status they report, and the way a write goes through them (R-G1, R-PK7) — refused at
 * once while down or unfenced, answered by the device, or PB_DEVICE_TIMEOUT — as a
 * callback (`DeviceLink.write`) or a library's promise (`command`, on both).
 */
import { type ErrorCode, HubError, reasonOf } from '../../core/errors.ts';
import type { Fence } from '../../core/lease.ts';
import type { Answered, SetResult } from '../../core/parameter.ts';
import { after, type Scheduler } from '../../core/scheduler.ts';
import { type ConnectionContext, Status } from '../context.ts';

export const DEFAULT_TIMEOUT_MS = 2000;

export interface LinkOptions {
  readonly scheduler: Scheduler;
  /** Where the link's status goes: the connection's own, `context.setStatus` as it is. */
  readonly status: ConnectionContext['setStatus'];
  /** The code of the `degraded` status and of writes refused while down; default PB_DEVICE_UNAVAILABLE. */
  readonly unavailable?: ErrorCode;
  /** How long a write may wait for the device's confirmation (R-G1 `timeout`); default 2000 ms. */
  readonly timeoutMs?: number;
  /** Asked before every write (R-B3): `context.fence` for a device, `unfenced` for a broker. */
  readonly fence: Fence;
}

export abstract class LinkState {
  protected isUp = false;
  /** A fault the device reports while it answers (`fault`): the status while up. */
  private own: { readonly reason: string; readonly code: ErrorCode } | undefined;
  protected stopped = false;
  protected reason: string;
  protected readonly unavailable: ErrorCode;
  private readonly timeoutMs: number;

  protected constructor(
    protected readonly options: LinkOptions,
    firstReason: string,
  ) {
    this.reason = firstReason;
    this.unavailable = options.unavailable ?? 'PB_DEVICE_UNAVAILABLE';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get up(): boolean {
    return this.isUp;
  }

  /** Why the device is away, while it is. */
  get downReason(): string {
    return this.isUp ? '' : this.reason;
  }

  /** The device is up: the status is ok, or the fault it reports. */
  protected markUp(): void {
    this.isUp = true;
    this.reason = '';
    this.showUp();
  }

  /**
   * A fault of the device while it answers (a GPIO box that reports a blown output, a deck
   * with no disk), or undefined once it is gone: while the link is up the status is `degraded`
   * with it — the link going down and up again does not hide it — and `ok` without. The
   * device stays reachable, so `_status/connected` stays true (give a code other than
   * PB_DEVICE_UNAVAILABLE). The link's own `degraded` while the device is away wins.
   */
  fault(fault: { readonly reason: string; readonly code: ErrorCode } | undefined): void {
    this.own = fault;
    if (this.isUp && !this.stopped) this.showUp();
  }

  private showUp(): void {
    if (this.own) this.options.status(Status.Degraded, this.own.reason, this.own.code);
    else this.options.status(Status.Ok);
  }

  /** The device went away for this reason: the status is degraded with the link's code. */
  protected markDown(reason: string): void {
    this.isUp = false;
    this.reason = reason;
    this.options.status(Status.Degraded, reason, this.unavailable);
  }

  /**
   * A write through the link: refused at once while the link is down or the fence does
   * not hold; else `send` hands it to the device and calls `confirm` when the device took
   * it (or with its refusal); `answered` hears the outcome once, or PB_DEVICE_TIMEOUT when
   * none came within `timeoutMs`.
   */
  protected writeThrough(send: (confirm: (error?: unknown) => void) => void, answered?: Answered): SetResult {
    const { fence, scheduler } = this.options;
    if (!this.isUp) return { ok: false, error: new HubError(this.unavailable, `the link is down: ${this.reason || 'not connected yet'}`) };
    if (!fence.holds()) return { ok: false, error: fence.refusal() };
    let pending = true;
    const finish = (result: SetResult) => {
      if (!pending) return;
      pending = false;
      timer.unsubscribe();
      answered?.(result);
    };
    const timer = after(scheduler, this.timeoutMs, () =>
      finish({ ok: false, error: new HubError('PB_DEVICE_TIMEOUT', `the device did not confirm the write within ${this.timeoutMs} ms`) }),
    );
    const unavailable = this.unavailable;
    try {
      send((error) => finish(error === undefined ? { ok: true, value: true } : { ok: false, error: asDeviceError(error, unavailable) }));
    } catch (error) {
      finish({ ok: false, error: asDeviceError(error, unavailable) });
    }
    return { ok: true, value: true };
  }

  /**
   * A write as a command of a library (a parameter's `forward`): refused at once while the
   * device is away or the fence does not hold; else `command()` runs, and its promise's
   * outcome answers the write — a rejection is the device's refusal (a HubError keeps its
   * code and its type's own code), and a promise that never settles is PB_DEVICE_TIMEOUT.
   */
  command(command: () => Promise<unknown>, answered?: Answered): SetResult {
    return this.writeThrough(
      (confirm) =>
        void command().then(
          () => confirm(),
          // Libraries reject with what they like: an Error, a HubError, or a plain object of the device's answer.
          (error: unknown) => confirm(error instanceof Error ? error : `the device refused: ${JSON.stringify(error) ?? 'no reason'}`),
        ),
      answered,
    );
  }
}

function asDeviceError(error: unknown, code: ErrorCode): HubError {
  return error instanceof HubError ? error : new HubError(code, reasonOf(error));
}
