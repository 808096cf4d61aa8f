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
import { Type } from '@sinclair/typebox';
import {
  checked,
  defineConnectionType,
  DeviceLink,
  DeviceParameters,
  type DeviceSend,
  droppedMetric,
  every,
  HubError,
  type Issue,
  type LinkAttempt,
  Overruns,
  reasonOf,
  withDefault,
  SparseLog,
} from '../../sdk/index.ts';
import { machinePorts, type MidiPorts, type OpenOutput, type OpenPort } from './ports.ts';

/** How often an open port is looked for among the machine's (RtMidi tells no one when one goes). */
const PORT_CHECK_MS = 2000;

const ID = /^(\d{1,3})(?:\/(\d{1,3}))?$/;

const settings = Type.Object({
  input: withDefault(
    Type.String({ onMachine: 'device', description: 'The input port: its name, or a part of it (case ignored); "" for none.' }),
    '',
  ),
  output: withDefault(
    Type.String({ onMachine: 'device', description: 'The output port: its name, or a part of it (case ignored); "" for none.' }),
    '',
  ),
  parameters: withDefault(
    Type.Array(
      Type.String({
        description: '`<status>/<data1>` (176/7: control change 7 on channel 1), or `<status>` for program change and channel pressure.',
      }),
      {
        description: 'Messages made parameters from the start; an output sends only these.',
      },
    ),
    [],
  ),
  learn: withDefault(Type.Boolean({ description: 'Messages the input hears that are not listed become parameters too.' }), true),
  maxParameters: withDefault(
    Type.Integer({ minimum: 1, maximum: 100_000, description: 'Parameters learned at most; past it others are dropped (R-G4).' }),
    2048,
  ),
});

/** The data bytes of a channel message by its kind (the status's high nibble): two, or one. */
const dataBytes = (status: number) => (status >= 0xc0 && status <= 0xdf ? 1 : 2);

const OVERRUN_KINDS = ['parameters'] as const;

/** The `midi` type over the ports `ports` gives: the machine's, or a spec's. */
export function midiTypeWith(ports: () => Promise<MidiPorts>) {
  return defineConnectionType({
    type: 'midi',
    summary: 'MIDI input and output ports: channel messages as parameters in BTConnect’s shape, and system exclusive messages.',
    settings,
    parse(written) {
      const issues: Issue[] = [];
      if (written.input === '' && written.output === '')
        issues.push({ path: ['input'], message: 'expected an input port, an output port, or both' });
      written.parameters.forEach((id, index) => {
        const problem = idProblem(id);
        if (problem) issues.push({ path: ['parameters', index], message: problem });
      });
      return checked(issues, written);
    },
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
    create(context, { input, output, parameters: listed, learn, maxParameters }) {
      const overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
      const ignored = new SparseLog(context.log, context.scheduler, 'ignored', 'debug');
      const counts = { received: 0, sent: 0, ignored: 0 };
      const access = input !== '' && output !== '' ? 'read-write' : input !== '' ? 'read-only' : 'write-only';
      let opened: { input?: OpenPort; output?: OpenOutput; inputName?: string; outputName?: string } = {};
      let watch: { unsubscribe(): void } | undefined;

      const send = (bytes: readonly number[], confirm: (error?: unknown) => void) => {
        if (!opened.output) return confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the output port is not open'));
        try {
          opened.output.send(bytes);
          counts.sent++;
          confirm();
        } catch (error) {
          confirm(error);
        }
      };

      const sendChannel =
        (status: number, data1: number | undefined): DeviceSend =>
        (value, confirm) => {
          const data = Number(value);
          if (!Number.isInteger(data) || data < 0 || data > 127)
            return confirm(new HubError('PB_CONVERSION', `a MIDI data byte is 0–127, not ${String(value)}`));
          send(data1 === undefined ? [status, data] : [status, data1, data], confirm);
        };

      const define = (id: string) => {
        const match = ID.exec(id) as RegExpExecArray;
        const status = Number(match[1]);
        const data1 = match[2] === undefined ? undefined : Number(match[2]);
        return parameters.define(id, { type: 'I', access }, sendChannel(status, data1), { echoes: false });
      };

      const heard = (bytes: readonly number[]) => {
        const [status = 0, data1 = 0, data2 = 0] = bytes;
        if (status < 0x80 || status > 0xef) {
          counts.ignored++;
          return ignored.warn(`midi ${opened.inputName}: a system message (0x${status.toString(16)}), not shown`);
        }
        counts.received++;
        const id = dataBytes(status) === 1 ? String(status) : `${status}/${data1}`;
        const value = dataBytes(status) === 1 ? data1 : data2;
        const parameter = parameters.get(id) ?? (learn ? define(id) : undefined);
        parameter?.report(value, `midi ${opened.inputName}`);
      };

      const close = () => {
        watch?.unsubscribe();
        watch = undefined;
        opened.input?.close();
        opened.output?.close();
        opened = {};
      };

      const link = new DeviceLink(
        {
          open(attempt: LinkAttempt) {
            void (async () => {
              let machine: MidiPorts;
              try {
                machine = await ports();
                const inputIndex = input === '' ? undefined : pick(machine.inputs(), input, 'input');
                const outputIndex = output === '' ? undefined : pick(machine.outputs(), output, 'output');
                if (inputIndex !== undefined) {
                  opened.inputName = machine.inputs()[inputIndex] as string;
                  opened.input = machine.openInput(inputIndex, heard);
                }
                if (outputIndex !== undefined) {
                  opened.outputName = machine.outputs()[outputIndex] as string;
                  opened.output = machine.openOutput(outputIndex);
                }
              } catch (error) {
                close();
                return attempt.down(whyNoMidi(error));
              }
              attempt.up();
              watch = every(context.scheduler, PORT_CHECK_MS, () => {
                try {
                  const gone =
                    (opened.inputName !== undefined && !machine.inputs().includes(opened.inputName) && opened.inputName) ||
                    (opened.outputName !== undefined && !machine.outputs().includes(opened.outputName) && opened.outputName);
                  if (gone === false || gone === undefined) return;
                  close();
                  attempt.down(`the MIDI port "${gone}" went away`);
                } catch (error) {
                  close();
                  attempt.down(whyNoMidi(error));
                }
              });
            })();
          },
          close,
        },
        { scheduler: context.scheduler, status: overruns.status, fence: context.fence },
      );
      const parameters = new DeviceParameters(context, link, overruns, maxParameters);

      return {
        async start() {
          for (const id of listed) define(id);
          if (output !== '')
            parameters.define(
              'sysex',
              { type: 'S', access: 'write-only' },
              (value, confirm) => {
                const bytes = sysexBytes(String(value));
                if (typeof bytes === 'string') return confirm(new HubError('PB_CONVERSION', bytes));
                send(bytes, confirm);
              },
              { echoes: false },
            );
          await link.start();
        },
        details: () => ({
          input: opened.inputName ?? null,
          output: opened.outputName ?? null,
          parameters: parameters.size,
          ...counts,
          dropped: { ...overruns.counts, system: counts.ignored },
        }),
        async stop() {
          overruns.stop();
          await link.stop();
        },
      };
    },
  });
}

export const midiType = midiTypeWith(machinePorts);

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

function idProblem(id: string): string | undefined {
  const match = ID.exec(id);
  const status = Number(match?.[1]);
  if (!match || status < 0x80 || status > 0xef) return 'expected <status>/<data1> or <status>, the status a channel message (128–239)';
  const data1 = match[2];
  if (dataBytes(status) === 1 && data1 !== undefined) return `a message of status ${status} has one data byte: "${status}" holds it`;
  if (dataBytes(status) === 2 && data1 === undefined) return `a message of status ${status} has two data bytes: "${status}/<data1>"`;
  if (data1 !== undefined && Number(data1) > 127) return 'a data byte is 0–127';
  return undefined;
}

/** The bytes of a system exclusive message written as hex (spaces allowed), or what is wrong with it. */
export function sysexBytes(text: string): number[] | string {
  const hex = text.replace(/\s+/g, '');
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) return 'a system exclusive message is hex bytes, such as "F0 7E 7F 06 01 F7"';
  const bytes = hex.match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? [];
  if (bytes[0] !== 0xf0 || bytes.at(-1) !== 0xf7) return 'a system exclusive message starts with F0 and ends with F7';
  if (bytes.slice(1, -1).some((byte) => byte > 0x7f)) return 'the bytes between F0 and F7 are 00–7F';
  return bytes;
}
