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
/**
 * The machine's ports through `@julusian/midi`, loaded at the first use. On Linux without
 * an ALSA sequencer RtMidi is not asked at all: it would fail the same way at every look,
 * and ALSA would print its own error on the hub's stderr each time.
 */
export declare function machinePorts(): Promise<MidiPorts>;
