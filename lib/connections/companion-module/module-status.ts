/**
 * What a module says of itself, shown as the connection's status (R-CM2), with what the hub
 * bounded: `ok` once its init answered (before, a write could overtake what init sets), any
 * status but `ok` and `connecting` degraded with the module's message, a module `connecting`
 * longer than `connectTimeoutMs` degraded too, with how long and what it last said — an ATEM
 * away through Companion's module was `connecting` for ever, and never a problem (R-CM9).
 * While it is not ok, writes are refused with why (`away`).
 */
import type { Subscription } from 'rxjs';
import { after, type ConnectionContext, type ErrorCode, Status } from '../../sdk/index.ts';

/** The longest message of the module's shown in its status: the rest is in the connection's details (R-CM10). */
const MOST_SHOWN = 200;

/** A message as a status shows it: its first line, at most `MOST_SHOWN` characters. */
const shown = (message: string): string => {
  const line = message.split('\n', 1)[0]?.trim() ?? '';
  return line.length > MOST_SHOWN ? `${line.slice(0, MOST_SHOWN - 1)}…` : line === message ? line : `${line} …`;
};

/** Companion's statuses, as a person reads them. */
const STATUSES: Readonly<Record<string, string>> = {
  disconnected: 'disconnected',
  connection_failure: 'connection failure',
  bad_config: 'bad config',
  unknown_error: 'error',
  unknown_warning: 'warning',
};

export class ModuleStatus {
  private said = { status: 'connecting', message: '' };
  /** The module's last message whole, when longer than a status shows. */
  private whole: string | undefined;
  /** What the hub bounded (too many variables), said with the module's status. */
  private overLimit = '';
  private due = false;
  /** Since when the module has been connecting, while it is; `late` once past the deadline. */
  private connecting: { readonly since: number; late: boolean; readonly deadline: Subscription } | undefined;

  constructor(
    private readonly context: ConnectionContext,
    private readonly connectTimeoutMs: number,
    /** Whether the module's init answered. */
    private readonly ready: () => boolean,
    /** The bindings that name what the module does not define (yet). */
    private readonly unknown: () => readonly string[],
  ) {}

  /** A run starts: the module connects anew. */
  starting(what: string): void {
    this.said = { status: 'connecting', message: '' };
    this.whole = undefined;
    this.context.setStatus(Status.Connecting, what);
    this.follow('connecting');
  }

  /** What the module says of itself (`set-status`). */
  set(status: unknown, message: unknown): void {
    const whole = typeof message === 'string' ? message : '';
    this.said = { status: String(status), message: shown(whole) };
    this.whole = whole === this.said.message ? undefined : whole.slice(0, 10_000);
    this.show();
  }

  /** The module's last message as it said it, when its status shows less of it (R-CM10). */
  get wholeMessage(): string | undefined {
    return this.whole;
  }

  /** The hub bounded what the module sent: said once a burst, with its status. */
  bounded(reason: string): void {
    this.overLimit = reason;
    if (this.due) return;
    this.due = true;
    setImmediate(() => {
      this.due = false;
      this.show();
    });
  }

  /** Why a write cannot reach the device now, or undefined when it can (R-CM9); `running`: the module's process is there. */
  away(running: boolean): string | undefined {
    const { status, message } = this.said;
    if (running && this.ready() && status === 'ok') return undefined;
    const state = !running ? 'not running' : !this.ready() ? 'starting' : (STATUSES[status] ?? status);
    return `the module is ${state}${message ? `: ${message}` : ''}; the write was not sent`;
  }

  /** The module's status as the connection's, and what the hub bounded. */
  show(): void {
    const { message } = this.said;
    const status = this.said.status === 'ok' && !this.ready() ? 'connecting' : this.said.status;
    this.follow(status);
    const unknown = this.ready() ? this.unknown() : [];
    const problems = [this.overLimit, ...unknown].filter(Boolean);
    const late = this.connecting?.late
      ? `connecting for ${Math.round((this.context.scheduler.now() - this.connecting.since) / 1000)} s: ${message || 'the module says nothing more'}`
      : '';
    if (status === 'ok' && problems.length === 0) return this.context.setStatus(Status.Ok);
    if (status === 'connecting' && problems.length === 0 && !late) return this.context.setStatus(Status.Connecting, message);
    const said =
      late || (status === 'ok' || status === 'connecting' ? '' : `${STATUSES[status] ?? status}${message ? `: ${message}` : ''}`);
    const code: ErrorCode = this.overLimit
      ? 'PB_OVER_LIMIT'
      : status === 'bad_config' || unknown.length > 0
        ? 'PB_START_FAILED'
        : 'PB_DEVICE_UNAVAILABLE';
    this.context.setStatus(Status.Degraded, [said, ...problems].filter(Boolean).join('; '), code);
  }

  stop(): void {
    this.connecting?.deadline.unsubscribe();
    this.connecting = undefined;
  }

  /** Starts the connecting deadline when it begins connecting, and ends it when it no longer is. */
  private follow(status: string): void {
    if (status !== 'connecting') return this.stop();
    if (this.connecting) return;
    const connecting = {
      since: this.context.scheduler.now(),
      late: false,
      deadline: after(this.context.scheduler, this.connectTimeoutMs, () => {
        connecting.late = true;
        this.show();
      }),
    };
    this.connecting = connecting;
  }
}
