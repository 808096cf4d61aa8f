/**
 * The clients of the node's events WebSocket (R-NM2, IS-07's WebSocket transport): a
 * client's `subscription` replaces what it follows and is answered with each subscribed
 * source's `state`; every change of a source after is a `state` to each client that follows
 * it; a `health` command is answered with a `health` message; a client that sends no
 * `health` for `timeoutMs` (IS-07: 12 s) is dropped, as one whose unsent messages pass a
 * bound (it stopped reading). A node that stops says `shutdown` for each source followed. The socket is a seam (`EventClient`), so the rules are
 * specified with fake sockets in virtual time and the uWS glue stays thin.
 */
import type { SchedulerAction, Subscription } from 'rxjs';
import type { Scheduler } from '../../sdk/index.ts';
import { parseClientCommand } from './client-commands.ts';
import type { HealthMessage, StateMessage } from './resource-shapes.ts';
import { taiOf } from './tai-time.ts';

/** What the rules need of a client's socket. */
export interface EventClient {
  readonly peer: string;
  send(text: string): void;
  /** Bytes sent but not yet taken by the client. */
  bufferedBytes(): number;
  /** Ends the socket, saying why; `closed` is then called for it as for any close. */
  end(reason: string): void;
}

export interface EventClientsOptions {
  readonly timeoutMs: number;
  /** Sources one client may follow at once: a subscription to more is refused. */
  readonly maxSources: number;
  /** Bytes that may wait for one client; past it the client is dropped. */
  readonly maxBufferedBytes: number;
  /** A source's state now, by id; undefined when the node serves no such source. */
  stateOf(sourceId: string): StateMessage | undefined;
  /** Something a client sent was refused (logged sparsely by the owner). */
  refused(peer: string, reason: string): void;
}

interface Followed {
  sources: ReadonlySet<string>;
  /** When the client last sent `health` (or connected). */
  heard: number;
}

export class EventClients {
  private readonly clients = new Map<EventClient, Followed>();
  private sweep: Subscription | undefined;
  dropped = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly options: EventClientsOptions,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  start(): void {
    const clients = this;
    // Checked at a quarter of the timeout: a silent client goes between 1 and 1.25 timeouts after its last health.
    const every = Math.max(50, Math.floor(this.options.timeoutMs / 4));
    this.sweep = this.scheduler.schedule(function (this: SchedulerAction<unknown>) {
      clients.dropSilent();
      this.schedule(undefined, every);
    }, every);
  }

  /** Tells each client that each source it follows is going (IS-07's `shutdown`), then closes it. */
  stop(): void {
    this.sweep?.unsubscribe();
    const creation_timestamp = taiOf(this.scheduler.now());
    for (const [client, { sources }] of [...this.clients]) {
      for (const id of sources) {
        const identity = this.options.stateOf(id)?.identity;
        if (identity) this.send(client, JSON.stringify({ message_type: 'shutdown', identity, timing: { creation_timestamp } }));
      }
      client.end('the node stopped');
    }
    this.clients.clear();
  }

  opened(client: EventClient): void {
    this.clients.set(client, { sources: new Set(), heard: this.scheduler.now() });
  }

  closed(client: EventClient): void {
    this.clients.delete(client);
  }

  received(client: EventClient, text: string): void {
    const followed = this.clients.get(client);
    if (followed === undefined) return;
    const command = parseClientCommand(text, this.options.maxSources);
    if ('reason' in command) return this.options.refused(client.peer, command.reason);
    if (command.command === 'health') {
      followed.heard = this.scheduler.now();
      const health: HealthMessage = {
        message_type: 'health',
        timing: { creation_timestamp: taiOf(this.scheduler.now()), origin_timestamp: command.timestamp },
      };
      return this.send(client, JSON.stringify(health));
    }
    followed.sources = new Set(command.sources);
    for (const id of command.sources) {
      const state = this.options.stateOf(id);
      if (state !== undefined) this.send(client, JSON.stringify(state));
    }
  }

  /** A source's state changed: sent to each client that follows it. */
  changed(sourceId: string): void {
    let text: string | undefined;
    for (const [client, { sources }] of this.clients) {
      if (!sources.has(sourceId)) continue;
      text ??= JSON.stringify(this.options.stateOf(sourceId));
      if (text !== undefined) this.send(client, text);
    }
  }

  private send(client: EventClient, text: string): void {
    if (client.bufferedBytes() > this.options.maxBufferedBytes) {
      this.drop(client, `more than ${this.options.maxBufferedBytes} bytes waiting for it`);
      return;
    }
    client.send(text);
  }

  private dropSilent(): void {
    const now = this.scheduler.now();
    for (const [client, { heard }] of [...this.clients]) {
      if (now - heard > this.options.timeoutMs) this.drop(client, `no health command for ${this.options.timeoutMs} ms`);
    }
  }

  private drop(client: EventClient, reason: string): void {
    this.dropped++;
    this.clients.delete(client);
    client.end(reason);
  }
}
