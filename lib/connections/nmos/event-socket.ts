/**
 * A receiver's link to an IS-07 sender (R-NM3): a WebSocket client to the sender's
 * `connection_uri` that subscribes to the one source a controller staged
 * (`ext_is_07_source_id`), as IS-07's WebSocket transport says — a `subscription` command on
 * every connect, a `health` command every 5 s — and hands each `state` of that source to its
 * owner, a number divided by its `scale` when it has one. The sender is a network peer that may lie, flood or hang, so: a message larger than
 * `maxMessageBytes` closes the link (ws's own bound, compression off so no small message
 * grows), more than `maxMessagesPerSecond` closes it as a flood, a sender silent for
 * `silentMs` (no answer to health, no state) is dropped, and a handshake is bounded; each
 * drop reconnects after a backoff of 1 s doubling to 30 s, reset once the sender sends the
 * source's state (its answer to the subscription: a sender that only floods never resets it).
 * A sender that says `shutdown` or `reboot` for the source is reconnected to the same way.
 * Nothing a peer sends is thrown: what is wrong is said (`status`) and the link carries on.
 */
import type { SchedulerAction, Subscription } from 'rxjs';
import WebSocket from 'ws';
import { reasonOf, type Scheduler } from '../../sdk/index.ts';
import { taiOf } from './tai-time.ts';

export interface EventSocketOptions {
  readonly url: string;
  readonly sourceId: string;
  readonly scheduler: Scheduler;
  readonly maxMessageBytes: number;
  readonly maxMessagesPerSecond: number;
  /** How often a `health` command is sent (IS-07: 5 s). */
  readonly healthMs: number;
  /** A sender that sends nothing for this long is dropped (IS-07's 12 s, seen from the client's side). */
  readonly silentMs: number;
  /** The source's state: the value of its payload and its event type. */
  state(value: unknown, eventType: string): void;
  /** How the link stands: a problem to show, or undefined once the sender answers. */
  status(problem: string | undefined): void;
}

const FIRST_BACKOFF_MS = 1000;
const LAST_BACKOFF_MS = 30_000;

export class EventSocket {
  private socket: WebSocket | undefined;
  private ticking: Subscription | undefined;
  private retry: Subscription | undefined;
  private backoffMs = FIRST_BACKOFF_MS;
  private heard = 0;
  private windowStart = 0;
  private inWindow = 0;
  private stopped = false;
  /** Messages refused (not JSON, not a state of IS-07), for the connection's details. */
  refused = 0;
  /** Links lost or dropped, each dialled again after a backoff. */
  drops = 0;

  constructor(private readonly options: EventSocketOptions) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Closes the link for good: a receiver deactivated, or the node stopping. */
  stop(): void {
    this.stopped = true;
    this.retry?.unsubscribe();
    this.drop(undefined);
  }

  private connect(): void {
    const { url, maxMessageBytes, silentMs, scheduler } = this.options;
    let socket: WebSocket;
    try {
      socket = new WebSocket(url, {
        maxPayload: maxMessageBytes,
        perMessageDeflate: false,
        handshakeTimeout: silentMs,
        followRedirects: false,
      });
    } catch (error) {
      return this.lost(`cannot open ${url}: ${reasonOf(error)}`);
    }
    this.socket = socket;
    this.heard = scheduler.now();
    socket.on('open', () => {
      this.send({ command: 'subscription', sources: [this.options.sourceId] });
      this.tick();
    });
    socket.on('message', (data, isBinary) => this.received(isBinary ? undefined : data.toString()));
    socket.on('error', (error) => this.socket === socket && this.lost(`${url}: ${reasonOf(error)}`));
    socket.on(
      'close',
      (code, reason) =>
        this.socket === socket &&
        this.lost(`${url} closed the link (${code}${reason.length > 0 ? `: ${reason.toString().slice(0, 120)}` : ''})`),
    );
  }

  /** Sends health every `healthMs` and drops a sender silent past `silentMs`. */
  private tick(): void {
    const link = this;
    const { healthMs, silentMs, scheduler } = this.options;
    this.ticking?.unsubscribe();
    this.ticking = scheduler.schedule(function (this: SchedulerAction<unknown>) {
      if (scheduler.now() - link.heard > silentMs) return link.lost(`${link.options.url} sent nothing for ${silentMs} ms`);
      link.send({ command: 'health', timestamp: taiOf(scheduler.now()) });
      this.schedule(undefined, healthMs);
    }, 0);
  }

  private received(text: string | undefined): void {
    const now = this.options.scheduler.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (++this.inWindow > this.options.maxMessagesPerSecond) {
      return this.lost(`${this.options.url} sent more than ${this.options.maxMessagesPerSecond} messages in a second`);
    }
    const message = parse(text);
    if (message === undefined) {
      this.refused++;
      return;
    }
    this.heard = now;
    const { message_type, identity, event_type, payload } = message;
    const ours =
      typeof identity === 'object' && identity !== null && (identity as { source_id?: unknown }).source_id === this.options.sourceId;
    if (message_type === 'health' || !ours) return;
    if (message_type === 'shutdown' || message_type === 'reboot')
      return this.lost(`${this.options.url} said ${message_type} for the source`);
    if (message_type !== 'state' || typeof payload !== 'object' || payload === null || !('value' in payload)) {
      this.refused++;
      return;
    }
    this.answered();
    // IS-07 numbers may carry a scale: the number is value / scale (nmos-cpp sends 22.4 °C as 224 and 10).
    const { value, scale } = payload as { value: unknown; scale?: unknown };
    const scaled = typeof value === 'number' && typeof scale === 'number' && scale !== 0 ? value / scale : value;
    this.options.state(scaled, typeof event_type === 'string' ? event_type : '');
  }

  private answered(): void {
    this.backoffMs = FIRST_BACKOFF_MS;
    this.options.status(undefined);
  }

  private send(command: object): void {
    try {
      this.socket?.send(JSON.stringify(command));
    } catch {
      // Closing: its close event reconnects.
    }
  }

  /** The link went: said, and made again after the backoff (unless stopped). */
  private lost(reason: string): void {
    this.drop(reason);
    if (this.stopped) return;
    this.drops++;
    this.options.status(`${reason}; connecting again in ${this.backoffMs / 1000} s`);
    this.retry?.unsubscribe();
    this.retry = this.options.scheduler.schedule(() => this.connect(), this.backoffMs);
    this.backoffMs = Math.min(LAST_BACKOFF_MS, this.backoffMs * 2);
  }

  private drop(reason: string | undefined): void {
    this.ticking?.unsubscribe();
    this.ticking = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket === undefined) return;
    socket.removeAllListeners();
    socket.on('error', () => {});
    try {
      if (socket.readyState === WebSocket.OPEN) socket.close(1000, reason === undefined ? 'receiver deactivated' : 'dropped');
      else socket.terminate();
    } catch {
      // Gone already.
    }
  }
}

/** A message as an object, or undefined when it is not a JSON object. */
function parse(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
