/**
 * The ports a `midi` connection has open, as the side of its link: opened by name when the
 * link opens, looked for among the machine's every two seconds while open (RtMidi tells no
 * one when one goes), and closed when one goes or the machine has no MIDI.
 */
import { every, type LinkAttempt, type LinkProtocol, reasonOf, type Scheduler } from '../../sdk/index.ts';
import type { MidiPorts, OpenOutput, OpenPort } from './ports.ts';

/** How often an open port is looked for among the machine's. */
const PORT_CHECK_MS = 2000;

/** The ports a connection asks for, by name or a part of it; "" for none. */
export interface WantedPorts {
  readonly input: string;
  readonly output: string;
}

export class OpenedPorts implements LinkProtocol {
  private opened: { input?: OpenPort; output?: OpenOutput; inputName?: string; outputName?: string } = {};
  private watch: { unsubscribe(): void } | undefined;

  constructor(
    private readonly ports: () => Promise<MidiPorts>,
    private readonly wanted: WantedPorts,
    private readonly scheduler: Scheduler,
    /** Told each message the input hears. */
    private readonly heard: (bytes: readonly number[]) => void,
  ) {}

  /** The name of the open input port, or undefined. */
  get inputName(): string | undefined {
    return this.opened.inputName;
  }

  get outputName(): string | undefined {
    return this.opened.outputName;
  }

  /** The open output port, or undefined. */
  get output(): OpenOutput | undefined {
    return this.opened.output;
  }

  open(attempt: LinkAttempt): void {
    void this.opening(attempt);
  }

  close(): void {
    this.watch?.unsubscribe();
    this.watch = undefined;
    this.opened.input?.close();
    this.opened.output?.close();
    this.opened = {};
  }

  private async opening(attempt: LinkAttempt): Promise<void> {
    let machine: MidiPorts;
    try {
      machine = await this.ports();
      this.openOn(machine);
    } catch (error) {
      this.close();
      return attempt.down(whyNoMidi(error));
    }
    attempt.up();
    this.watch = every(this.scheduler, PORT_CHECK_MS, () => this.check(machine, attempt));
  }

  private openOn(machine: MidiPorts): void {
    const { input, output } = this.wanted;
    const inputIndex = input === '' ? undefined : pick(machine.inputs(), input, 'input');
    const outputIndex = output === '' ? undefined : pick(machine.outputs(), output, 'output');
    if (inputIndex !== undefined) {
      this.opened.inputName = machine.inputs()[inputIndex] as string;
      this.opened.input = machine.openInput(inputIndex, this.heard);
    }
    if (outputIndex !== undefined) {
      this.opened.outputName = machine.outputs()[outputIndex] as string;
      this.opened.output = machine.openOutput(outputIndex);
    }
  }

  /** Closes the ports, the link down, when one of them went away. */
  private check(machine: MidiPorts, attempt: LinkAttempt): void {
    const { inputName, outputName } = this.opened;
    try {
      const gone =
        (inputName !== undefined && !machine.inputs().includes(inputName) && inputName) ||
        (outputName !== undefined && !machine.outputs().includes(outputName) && outputName);
      if (gone === false || gone === undefined) return;
      this.close();
      attempt.down(`the MIDI port "${gone}" went away`);
    } catch (error) {
      this.close();
      attempt.down(whyNoMidi(error));
    }
  }
}

/** The index of the port named `wanted`: the same name, else the first whose name holds it (case ignored). */
function pick(names: readonly string[], wanted: string, kind: 'input' | 'output'): number {
  const exact = names.indexOf(wanted);
  if (exact !== -1) return exact;
  const part = names.findIndex((name) => name.toLowerCase().includes(wanted.toLowerCase()));
  if (part !== -1) return part;
  throw new Error(`no MIDI ${kind} port like "${wanted}" (${names.length === 0 ? 'none there' : `there: ${names.join(', ')}`})`);
}

function whyNoMidi(error: unknown): string {
  const message = reasonOf(error);
  return /RtMidi/i.test(message) ? `no MIDI on this machine (${message.split('\n')[0]})` : message;
}
