/**
 * The MIDI ports a `midi` connection opens, behind a small interface: the machine's, through
 * `@julusian/midi` (RtMidi, ALSA sequencer on Linux), loaded only when a connection needs
 * it; or ports a spec supplies, since a machine without a sequencer (a container, CI) has
 * none. RtMidi throws on such a machine at the first port object: that is a reason the
 * connection reports, never a crash.
 */
import { existsSync } from 'node:fs';

/** An open input port: what it hears goes to the handler given to `openInput`. */
export interface OpenPort {
  close(): void;
}

export interface OpenOutput extends OpenPort {
  send(bytes: readonly number[]): void;
}

export interface MidiPorts {
  /** The names of the ports there now; throws with why when the machine has no MIDI. */
  inputs(): string[];
  outputs(): string[];
  openInput(index: number, heard: (bytes: readonly number[]) => void): OpenPort;
  openOutput(index: number): OpenOutput;
}

interface RtMidiInput {
  getPortCount(): number;
  getPortName(port: number): string;
  openPort(port: number): void;
  closePort(): void;
  ignoreTypes(sysex: boolean, timing: boolean, activeSensing: boolean): void;
  on(event: 'message', listener: (deltaTime: number, message: number[]) => void): void;
  destroy(): void;
}

interface RtMidiOutput {
  getPortCount(): number;
  getPortName(port: number): string;
  openPort(port: number): void;
  closePort(): void;
  sendMessage(message: number[]): void;
  destroy(): void;
}

interface RtMidi {
  Input: new () => RtMidiInput;
  Output: new () => RtMidiOutput;
}

/**
 * The machine's ports through `@julusian/midi`, loaded at the first use. On Linux without
 * an ALSA sequencer RtMidi is not asked at all: it would fail the same way at every look,
 * and ALSA would print its own error on the hub's stderr each time.
 */
export async function machinePorts(): Promise<MidiPorts> {
  if (process.platform === 'linux' && !existsSync('/dev/snd/seq'))
    throw new Error('no MIDI on this machine: no ALSA sequencer (/dev/snd/seq)');
  const midi = (await import('@julusian/midi')) as unknown as RtMidi;
  const names = (port: RtMidiInput | RtMidiOutput) => {
    try {
      return Array.from({ length: port.getPortCount() }, (_, index) => port.getPortName(index));
    } finally {
      port.destroy();
    }
  };
  return {
    inputs: () => names(new midi.Input()),
    outputs: () => names(new midi.Output()),
    openInput(index, heard) {
      const input = new midi.Input();
      input.ignoreTypes(false, true, true);
      input.on('message', (_delta, message) => heard(message));
      input.openPort(index);
      return {
        close() {
          input.closePort();
          input.destroy();
        },
      };
    },
    openOutput(index) {
      const output = new midi.Output();
      output.openPort(index);
      return {
        send: (bytes) => output.sendMessage([...bytes]),
        close() {
          output.closePort();
          output.destroy();
        },
      };
    },
  };
}
