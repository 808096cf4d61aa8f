/**
 * `midi`: MIDI ports as parameters (R-SU3), in BTConnect's shape: a channel message is
 * `<status>/<data1>` holding its second data byte (a fader: control change 176 = 0xB0 on
 * channel 1, controller 7: `176/7`), or `<status>` holding its only data byte (program
 * change, channel pressure). Ports are named by `input` and `output`: a port's name, or a
 * part of it. What the input hears sets its parameter (made as heard, with `learn`); a write
 * sends the message on the output; `sysex` sends a system exclusive message written as hex.
 *
 * A machine without MIDI (no ALSA sequencer, as in a container) or without the port named
 * makes the connection `degraded` with the reason, and it looks again with backoff: a USB
 * box plugged in later is found. A port that goes away is noticed within two seconds.
 *
 * Parameters:
 *   <status>/<data1>, <status>   I   0–127   read-only with an input only, write-only with
 *                                            an output only, read-write with both
 *   sysex                        S   write-only, with an output: hex bytes, F0 … F7
 */
import { defineConnectionType, droppedMetric } from '../../sdk/index.ts';
import { MidiConnection } from './midi-connection.ts';
import { machinePorts, type MidiPorts } from './ports.ts';
import { type MidiSettings, midiSettings, parseMidiSettings } from './settings.ts';

export { sysexBytes } from './messages.ts';

/** The `midi` type over the ports `ports` gives: the machine's, or a spec's. */
export function midiTypeWith(ports: () => Promise<MidiPorts>) {
  return defineConnectionType({
    type: 'midi',
    summary: 'MIDI input and output ports: channel messages as parameters in BTConnect’s shape, and system exclusive messages.',
    settings: midiSettings,
    parse: parseMidiSettings,
    discovers: ({ learn, input }) => ({ parameters: learn && input !== '' }),
    metrics: [
      {
        name: 'patchbay_midi_messages_total',
        help: 'MIDI messages a midi connection received and sent.',
        kind: 'counter',
        labelNames: ['direction'],
        samples: (details) =>
          (['received', 'sent'] as const).map((direction) => ({ labels: { direction }, value: Number(details[direction] ?? 0) })),
      },
      droppedMetric(
        'patchbay_midi_dropped_total',
        'What a midi connection dropped: system messages it does not show, parameters past maxParameters.',
      ),
    ],
    create: (context, parsed: MidiSettings) => new MidiConnection(context, parsed, ports),
  });
}

export const midiType = midiTypeWith(machinePorts);
