/**
 * A running `midi` connection: channel messages as parameters, set by what the input hears
 * (made as heard with `learn`) and sent on the output when written, and `sysex` with an
 * output, over the ports it has open (opened-ports.ts).
 */
import {
  type ConnectionContext,
  DeviceLink,
  DeviceParameters,
  type DeviceSend,
  HubError,
  Overruns,
  SparseLog,
  type TypedInstance,
} from '../../sdk/index.ts';
import { channelOf, heardValue, sysexBytes } from './messages.ts';
import { OpenedPorts } from './opened-ports.ts';
import type { MidiPorts } from './ports.ts';
import type { MidiSettings } from './settings.ts';

const OVERRUN_KINDS = ['parameters'] as const;

export class MidiConnection implements TypedInstance<MidiSettings> {
  private readonly overruns: Overruns<(typeof OVERRUN_KINDS)[number]>;
  private readonly ignored: SparseLog;
  private readonly counts = { received: 0, sent: 0, ignored: 0 };
  /** Its channel messages' access: read with an input, written with an output. */
  private readonly access: 'read-write' | 'read-only' | 'write-only';
  private readonly ports: OpenedPorts;
  private readonly link: DeviceLink;
  private readonly parameters: DeviceParameters;

  constructor(
    context: ConnectionContext,
    private readonly settings: MidiSettings,
    machine: () => Promise<MidiPorts>,
  ) {
    const { input, output, maxParameters } = settings;
    this.overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    this.ignored = new SparseLog(context.log, context.scheduler, 'ignored', 'debug');
    this.access = input !== '' && output !== '' ? 'read-write' : input !== '' ? 'read-only' : 'write-only';
    this.ports = new OpenedPorts(machine, { input, output }, context.scheduler, (bytes) => this.heard(bytes));
    this.link = new DeviceLink(this.ports, { scheduler: context.scheduler, status: this.overruns.status, fence: context.fence });
    this.parameters = new DeviceParameters(context, this.link, this.overruns, maxParameters);
  }

  async start(): Promise<void> {
    for (const id of this.settings.parameters) this.define(id);
    if (this.settings.output !== '') this.defineSysex();
    await this.link.start();
  }

  details(): Readonly<Record<string, unknown>> {
    return {
      input: this.ports.inputName ?? null,
      output: this.ports.outputName ?? null,
      parameters: this.parameters.size,
      ...this.counts,
      dropped: { ...this.overruns.counts, system: this.counts.ignored },
    };
  }

  async stop(): Promise<void> {
    this.overruns.stop();
    await this.link.stop();
  }

  /** A channel message's parameter, `<status>/<data1>` or `<status>`. */
  private define(id: string) {
    const { status, data1 } = channelOf(id);
    return this.parameters.define(id, { type: 'I', access: this.access }, this.sendChannel(status, data1), { echoes: false });
  }

  private defineSysex(): void {
    this.parameters.define(
      'sysex',
      { type: 'S', access: 'write-only' },
      (value, confirm) => {
        const bytes = sysexBytes(String(value));
        if (typeof bytes === 'string') return confirm(new HubError('PB_CONVERSION', bytes));
        this.send(bytes, confirm);
      },
      { echoes: false },
    );
  }

  private sendChannel(status: number, data1: number | undefined): DeviceSend {
    return (value, confirm) => {
      const data = Number(value);
      if (!Number.isInteger(data) || data < 0 || data > 127)
        return confirm(new HubError('PB_CONVERSION', `a MIDI data byte is 0–127, not ${String(value)}`));
      this.send(data1 === undefined ? [status, data] : [status, data1, data], confirm);
    };
  }

  private send(bytes: readonly number[], confirm: (error?: unknown) => void): void {
    const output = this.ports.output;
    if (!output) return confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the output port is not open'));
    try {
      output.send(bytes);
      this.counts.sent++;
      confirm();
    } catch (error) {
      confirm(error);
    }
  }

  /** Sets the parameter of a channel message the input heard; a system message is counted, not shown. */
  private heard(bytes: readonly number[]): void {
    const [status = 0] = bytes;
    if (status < 0x80 || status > 0xef) {
      this.counts.ignored++;
      return this.ignored.warn(`midi ${this.ports.inputName}: a system message (0x${status.toString(16)}), not shown`);
    }
    this.counts.received++;
    const { id, value } = heardValue(bytes);
    const parameter = this.parameters.get(id) ?? (this.settings.learn ? this.define(id) : undefined);
    parameter?.report(value, `midi ${this.ports.inputName}`);
  }
}
