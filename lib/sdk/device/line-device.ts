/**
 * The device of one line-protocol connection at run time: it keeps the link to the device
 * up through the transport its type supplies, turns received frames into parameter values
 * and accepted writes into frames (as its `LineProtocol` says, see `line-protocol.ts`), and
 * sends the poll frames while the link is up.
 */
import type { Subscription } from 'rxjs';
import { HubError } from '../../core/errors.ts';
import { Access } from '../../core/parameter.ts';
import { changeClockOf, every } from '../../core/scheduler.ts';
import { SparseLog } from '../../core/sparse-log.ts';
import type { Value } from '../../core/value.ts';
import type { ConnectionContext } from '../context.ts';
import { DeviceLink, type LinkAttempt } from './device-link.ts';
import { DeviceParameters } from './device-parameters.ts';
import { Framer, notHex, wireFrame } from './framing.ts';
import { Overruns } from './overruns.ts';
import type { LineProtocol } from './line-protocol.ts';
import { fill, fillGroups } from './line-templates.ts';

/** How a transport hands over what arrives: one stream per connection or port, one per datagram. */
export interface FrameStreams {
  /** A stream of its own; `fatal` is told when it cannot go on (a length prefix past the bound). */
  open(fatal: (reason: string) => void): Framer;
}

/** What a line-protocol type supplies: its link to the device, and how a frame is written on it. */
export interface LineTransport {
  /** Opens the link once (see `LinkProtocol.open`), handing what arrives to `streams`. */
  open(attempt: LinkAttempt): void;
  /** Closes whatever is open, for good. */
  close(): void | Promise<void>;
  /** Writes one frame; `done` once the transport took it, or with why not. */
  send(frame: Buffer, done: (error?: Error) => void): void;
  /** Facts about the link worth showing (peers, the port). */
  details?(): Readonly<Record<string, unknown>>;
  /**
   * For a transport that listens: where, and whom it lets in (`receiving on *:9000; takes
   * datagrams from 10.0.0.5`), logged each time its link comes up, as every listener says.
   */
  listening?(): string;
}

export type OverrunKind = 'frames' | 'parameters' | 'flood';

/** The device of one line-protocol connection: its parameters, what frames mean, its polls. */
export class LineDevice implements FrameStreams {
  readonly counts = { matched: 0, unmatched: 0, dropped: 0, sent: 0 };
  private readonly link: DeviceLink;
  private readonly overruns: Overruns<OverrunKind>;
  private readonly parameters: DeviceParameters;
  private readonly transport: LineTransport;
  private readonly polls: Subscription[] = [];
  private readonly drops: SparseLog;
  /** What frames say that does not fit the settings: a parameter not declared, a value that does not convert. */
  private readonly oddities: SparseLog;
  /** Read once per turn on the real clock: a frame costs about a microsecond, a clock read a tenth of it. */
  private readonly clock: () => number;
  private windowStart = 0;
  private inWindow = 0;

  constructor(
    private readonly context: ConnectionContext,
    private readonly protocol: LineProtocol,
    transport: (streams: FrameStreams) => LineTransport,
  ) {
    this.transport = transport(this);
    this.overruns = new Overruns<OverrunKind>(['frames', 'parameters', 'flood'], context.scheduler, context.setStatus, 'dropped');
    this.link = new DeviceLink(
      {
        open: (attempt) =>
          this.transport.open({
            up: () => {
              const listening = this.transport.listening?.();
              if (listening !== undefined) context.log.info(listening);
              attempt.up();
              this.startPolls();
            },
            down: (reason) => {
              this.stopPolls();
              attempt.down(reason);
            },
          }),
        close: () => this.transport.close(),
      },
      { scheduler: context.scheduler, status: this.overruns.status, timeoutMs: protocol.timeout, fence: context.fence },
    );
    this.parameters = new DeviceParameters(context, this.link, this.overruns);
    this.clock = changeClockOf(context.scheduler);
    this.drops = new SparseLog(context.log, context.scheduler, 'dropped');
    this.oddities = new SparseLog(context.log, context.scheduler, 'not taken');
  }

  start(): Promise<void> {
    const { rows } = this.protocol.parameters;
    for (const row of rows) {
      const send = this.protocol.sends.get(row.id);
      this.parameters.define(
        row.id,
        {
          type: row.type,
          access: send ? Access.ReadWrite : Access.ReadOnly,
          ...(row.initial !== undefined ? { initial: row.initial } : {}),
          ...(row.meta !== undefined ? { meta: row.meta } : {}),
          persist: row.type !== 'T',
        },
        (value, confirm) => this.write(row.id, value, confirm),
        { echoes: false },
      );
    }
    return this.link.start();
  }

  async stop(): Promise<void> {
    this.stopPolls();
    this.overruns.stop();
    await this.link.stop();
  }

  details(): Readonly<Record<string, unknown>> {
    return { up: this.link.up, ...this.counts, ...this.transport.details?.() };
  }

  open(fatal: (reason: string) => void): Framer {
    return new Framer(this.protocol, {
      frame: (text) => this.received(text),
      overrun: (reason, isFatal) => {
        this.dropped('frames', reason);
        if (isFatal) fatal(reason);
      },
    });
  }

  private dropped(kind: OverrunKind, reason: string): void {
    this.counts.dropped++;
    this.overruns.dropped(kind, reason);
    this.drops.warn(`dropped ${reason}`);
  }

  /** A frame from the device: the first pattern that matches sets what it names. */
  private received(text: string): void {
    const now = this.clock();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (++this.inWindow > this.protocol.maxFramesPerSecond) {
      if (this.inWindow === this.protocol.maxFramesPerSecond + 1)
        this.dropped('flood', `frames past maxFramesPerSecond (${this.protocol.maxFramesPerSecond})`);
      else this.counts.dropped++;
      return;
    }
    for (const receiver of this.protocol.receivers) {
      const groups = receiver.pattern.groups(text);
      if (!groups) continue;
      this.counts.matched++;
      const found = receiver.each ? receiver.each.everyGroups(text).map((line) => [...line, ...groups]) : [groups];
      for (const all of found) for (const { id, value } of receiver.set) this.set(fillGroups(id, all), fillGroups(value, all), text);
      return;
    }
    this.counts.unmatched++;
    if (this.context.log.isLevelEnabled('debug')) this.context.log.debug(`unmatched frame: ${JSON.stringify(text.slice(0, 200))}`);
  }

  private set(id: string, value: string, frame: string): void {
    const parameter = this.parameters.get(id);
    if (!parameter) return this.oddities.warn(`frame ${JSON.stringify(frame.slice(0, 200))} names no parameter "${id}"`);
    const reported = parameter.report(parameter.type === 'T' ? null : value);
    if (!reported.ok) this.oddities.warn(`frame ${JSON.stringify(frame.slice(0, 200))}: ${reported.error.message}`);
  }

  private write(id: string, value: Value, confirm: (error?: unknown) => void): void {
    const send = this.protocol.sends.get(id);
    if (!send) return confirm(new HubError('PB_READ_ONLY', `${this.context.id}/${id} sends nothing`));
    // Filled as the fence was just asked (link-state.ts): the token is the epoch this write goes out under.
    const text = fill(send.frame, (name) => {
      if (name === 'TOKEN') return String(this.context.fence.epoch);
      const written = String(value ?? '');
      return send.values[written] ?? written;
    });
    if (this.protocol.encoding === 'hex' && notHex(text)) return confirm(new HubError('PB_CONVERSION', notHex(text) as string));
    this.transport.send(wireFrame(text, this.protocol), (error) => {
      if (!error) this.counts.sent++;
      confirm(error);
    });
  }

  private startPolls(): void {
    this.stopPolls();
    for (const poll of this.protocol.polls)
      this.polls.push(
        every(this.context.scheduler, poll.every, () => {
          this.transport.send(poll.frame, (error) => {
            if (!error) this.counts.sent++;
          });
        }),
      );
  }

  private stopPolls(): void {
    for (const poll of this.polls.splice(0)) poll.unsubscribe();
  }
}
