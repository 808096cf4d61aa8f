/** What a `midi` connection is written as: its ports, the messages it makes parameters of, and its bounds. */
import { Type } from '@sinclair/typebox';
import { type Checked, checked, type Issue, type Parsed, withDefault } from '../../sdk/index.ts';
import { idProblem } from './messages.ts';

export const midiSettings = Type.Object({
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

export type MidiSettings = Parsed<typeof midiSettings>;

/** What the schema cannot say: a port at least, and parameter ids that name channel messages. */
export function parseMidiSettings(written: MidiSettings): Checked<MidiSettings> {
  const issues: Issue[] = [];
  if (written.input === '' && written.output === '')
    issues.push({ path: ['input'], message: 'expected an input port, an output port, or both' });
  written.parameters.forEach((id, index) => {
    const problem = idProblem(id);
    if (problem) issues.push({ path: ['parameters', index], message: problem });
  });
  return checked(issues, written);
}
