/**
 * A running `tsl-umd` connection: its displays as parameters, what it hears shown on them,
 * and what is written to them sent at the end of the turn, over the side of the link its
 * mode opens (receiving.ts, sending.ts).
 */
import {
  afterTurn,
  type ConnectionContext,
  DeviceLink,
  DeviceParameters,
  type DeviceSend,
  every,
  HubError,
  Overruns,
  SparseLog,
  type TypedInstance,
  type Value,
} from '../../sdk/index.ts';
import { displayMessage, displaysSaid } from './display-messages.ts';
import { HeardDisplays } from './heard-displays.ts';
import { MOST_DATAGRAMS_A_SECOND, type TslLink, tslReceiver } from './receiving.ts';
import { type TslSender, tslSender } from './sending.ts';
import { FIELDS, type Field, matches, type TslUmdOptions } from './settings.ts';

/** A display's values, by field id. */
type DisplayValues = Map<string, Value>;

const OVERRUN_KINDS = ['displays', 'parameters', 'datagrams'] as const;

export class TslUmdConnection implements TypedInstance<TslUmdOptions> {
  private readonly fields: readonly Field[];
  private readonly overruns: Overruns<(typeof OVERRUN_KINDS)[number]>;
  private readonly debug: SparseLog;
  private readonly counts = { received: 0, sent: 0, malformed: 0, strangers: 0, displays: 0 };
  private readonly values = new Map<string, DisplayValues>();
  /** Displays made from what was heard, for the place of one heard first past `maxDisplays`. */
  private readonly recent: HeardDisplays;
  private readonly listed: ReadonlySet<string>;
  /** What waits for each display's message at the end of the turn: the writes it confirms. */
  private readonly due = new Map<string, ((error?: unknown) => void)[]>();
  private readonly sender: TslSender | undefined;
  private readonly side: TslLink;
  private readonly link: DeviceLink;
  private readonly parameters: DeviceParameters;
  private repeating: { unsubscribe(): void } | undefined;

  constructor(
    private readonly context: ConnectionContext,
    private readonly options: TslUmdOptions,
  ) {
    this.fields = FIELDS[options.version];
    this.overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    this.debug = new SparseLog(context.log, context.scheduler, 'dropped', 'debug');
    this.recent = new HeardDisplays(() => context.scheduler.now(), options.forgetAfter);
    this.listed = new Set(options.displays);
    this.sender = options.mode === 'send' ? tslSender(options, () => this.sendEvery()) : undefined;
    this.side =
      this.sender ??
      tslReceiver(options, context.log, {
        packet: (bytes, from) => this.received(bytes, from),
        malformed: (why, from) => this.malformed(why, from),
        stranger: () => void this.counts.strangers++,
        flooded: (first) =>
          this.overruns.dropped('datagrams', `more than ${MOST_DATAGRAMS_A_SECOND} datagrams a second: the others dropped`, 1, !first),
      });
    this.link = new DeviceLink(this.side, { scheduler: context.scheduler, status: this.overruns.status, fence: context.fence });
    this.parameters = new DeviceParameters(context, this.link, this.overruns);
  }

  async start(): Promise<void> {
    for (const key of this.options.displays) this.display(key);
    await this.link.start();
    const { mode, repeat } = this.options;
    if (mode === 'send' && repeat > 0)
      this.repeating = every(this.context.scheduler, repeat, () => {
        if (this.sender?.up) this.sendEvery();
      });
  }

  details(): Readonly<Record<string, unknown>> {
    const { version, mode, transport } = this.options;
    return { version, mode, transport, ...this.side.details(), ...this.counts, dropped: { ...this.overruns.counts } };
  }

  async stop(): Promise<void> {
    this.repeating?.unsubscribe();
    this.overruns.stop();
    await this.link.stop();
  }

  private malformed(why: string, from: string): void {
    this.counts.malformed++;
    this.debug.warn(`${from}: ${why}`);
  }

  /** Shows what a received packet says of each display it names. */
  private received(packet: Buffer, from: string): void {
    const said = displaysSaid(this.options.version, packet);
    if (typeof said === 'string') return this.malformed(said, from);
    for (const { display, values } of said) {
      if (typeof display === 'string') this.show(display, values, from);
      // 0xFFFF is every screen or every index: the displays shown already.
      else for (const key of this.values.keys()) if (matches(key, display.screen, display.index)) this.show(key, values, from);
    }
  }

  /** Shows what a received display message says. */
  private show(key: string, heard: Readonly<Record<string, Value>>, from: string): void {
    // Displays are shared out by the sender's address (`address:port`, the port its own).
    const source = from.slice(0, from.lastIndexOf(':'));
    const shown = this.display(key, source);
    if (!shown) return;
    if (!this.listed.has(key)) this.recent.heard(key, source);
    this.counts.received++;
    for (const [id, value] of Object.entries(heard)) {
      shown.set(id, value);
      this.parameters.get(`${key}/${id}`)?.report(value, `tsl ${from}`);
    }
  }

  /** A display's values, its parameters made the first time; undefined when a receiver has no room for it. */
  private display(key: string, source = ''): DisplayValues | undefined {
    const known = this.values.get(key);
    if (known) return known;
    if (this.options.mode === 'receive' && this.values.size >= this.options.maxDisplays && !this.makeRoom(source)) return undefined;
    return this.define(key);
  }

  /** Forgets a display heard before, so that `source` may show a new one; false when none may go. */
  private makeRoom(source: string): boolean {
    const stale = this.recent.takeFor(source);
    if (stale === undefined) {
      this.overruns.dropped('displays', `more than maxDisplays (${this.options.maxDisplays}) displays: the others not shown`);
      return false;
    }
    this.values.delete(stale);
    for (const field of this.fields) this.parameters.remove(`${stale}/${field.id}`);
    return true;
  }

  /** Makes a display's parameters, read-only when received, writable when sent. */
  private define(key: string): DisplayValues {
    const { mode, texts } = this.options;
    const initial = (field: Field) => (field.id === 'text' ? (texts[key] ?? field.initial) : field.initial);
    const made: DisplayValues = new Map(this.fields.map((field) => [field.id, initial(field)]));
    this.values.set(key, made);
    this.counts.displays = this.values.size;
    for (const field of this.fields) {
      const parameter = this.parameters.define(
        `${key}/${field.id}`,
        // What the hub drives displays with is kept (R-DV2): after a restart they show the last tally, not dark lamps, until its sources speak again.
        {
          type: field.type,
          access: mode === 'send' ? 'read-write' : 'read-only',
          initial: initial(field),
          persist: mode === 'send',
          ...(field.meta && { meta: field.meta }),
        },
        this.sendField(key, field),
        { echoes: false },
      );
      if (parameter?.value !== undefined) made.set(field.id, parameter.value);
    }
    return made;
  }

  private sendField(key: string, field: Field): DeviceSend {
    return (value, confirm) => {
      this.values.get(key)?.set(field.id, value);
      this.sendSoon(key, confirm);
    };
  }

  private sendEvery(): void {
    for (const key of this.values.keys()) this.sendSoon(key);
  }

  /** Sends a display's message at the end of the turn, once for all of the turn's writes to it. */
  private sendSoon(key: string, confirm?: (error?: unknown) => void): void {
    const waiting = this.due.get(key);
    if (waiting) return void (confirm && waiting.push(confirm));
    this.due.set(key, confirm ? [confirm] : []);
    afterTurn(() => this.send(key));
  }

  private send(key: string): void {
    const confirms = this.due.get(key) ?? [];
    this.due.delete(key);
    const sender = this.sender;
    if (!sender?.up) {
      for (const done of confirms) done(new HubError('PB_DEVICE_UNAVAILABLE', this.link.downReason || 'not connected'));
      return;
    }
    const { version, transport } = this.options;
    const shown = this.values.get(key) as DisplayValues;
    sender.send(
      displayMessage(version, transport, key, (id) => shown.get(id) as Value),
      (error) => {
        if (!error) this.counts.sent++;
        for (const done of confirms) done(error);
      },
    );
  }
}
