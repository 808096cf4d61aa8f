import test, { type ExecutionContext } from 'ava';
import { type ConnectionConfig, connectionTypeOf } from '../../lib/connections/connection.ts';
import { midiTypeWith, sysexBytes } from '../../lib/connections/midi/midi.ts';
import type { MidiPorts } from '../../lib/connections/midi/ports.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { eventually } from '../helpers/eventually.ts';
import { flowOf } from '../helpers/hub.ts';

/** The ports of a machine as a spec makes them: what an input hears is `play`ed, what an output sends is `sent`. */
class Ports implements MidiPorts {
  inputNames = ['Midi Through:Midi Through Port-0 14:0', 'X-TOUCH MINI:X-TOUCH MINI MIDI 1 20:0'];
  outputNames = ['Midi Through:Midi Through Port-0 14:0', 'X-TOUCH MINI:X-TOUCH MINI MIDI 1 20:0'];
  readonly sent: number[][] = [];
  private listener: ((bytes: readonly number[]) => void) | undefined;
  opened: string[] = [];
  inputs = () => [...this.inputNames];
  outputs = () => [...this.outputNames];
  openInput(index: number, heard: (bytes: readonly number[]) => void) {
    this.opened.push(`in ${this.inputNames[index]}`);
    this.listener = heard;
    return { close: () => (this.listener = undefined) };
  }
  openOutput(index: number) {
    this.opened.push(`out ${this.outputNames[index]}`);
    return { send: (bytes: readonly number[]) => void this.sent.push([...bytes]), close: () => {} };
  }
  play(...bytes: number[]) {
    this.listener?.(bytes);
  }
}

async function midiHub(t: ExecutionContext, ports: () => Promise<MidiPorts>, settings: Record<string, unknown>): Promise<Hub> {
  const plan = connectionTypeOf(midiTypeWith(ports)).prepare(settings, { id: 'desk', baseDir: '/virtual' });
  if (!plan.ok) throw new Error(JSON.stringify(plan));
  const common = { enabled: true, description: '', location: '', group: '', debug: false, statusParameters: false, persist: false };
  const config = { id: 'desk', plan: plan.value, common } as ConnectionConfig;
  const flow = flowOf({ connections: {} });
  const hub = new Hub({ flow: { ...flow, connections: [config] } });
  t.teardown(() => hub.stop());
  await hub.start();
  return hub;
}

const value = (hub: Hub, address: string) => hub.graph.get(address)?.value;

test('an input port by part of its name: channel messages become <status>/<data1> parameters as heard, program change <status> (R-SU3)', async (t) => {
  const ports = new Ports();
  const hub = await midiHub(t, async () => ports, { input: 'x-touch', parameters: ['176/7'] });
  await eventually(() => hub.connection('desk')?.info.status === 'ok', 'ok');
  t.deepEqual(ports.opened, ['in X-TOUCH MINI:X-TOUCH MINI MIDI 1 20:0']);
  t.is(hub.graph.get('desk/176/7')?.access, 'read-only');
  ports.play(0xb0, 7, 100);
  t.is(value(hub, 'desk/176/7'), 100, 'fader 7 on channel 1');
  ports.play(0x90, 60, 127);
  t.is(value(hub, 'desk/144/60'), 127, 'note on, learned');
  ports.play(0xc1, 5);
  t.is(value(hub, 'desk/193'), 5, 'program change on channel 2: one data byte');
  t.is(hub.graph.get('desk/176/7')?.lastChange?.by, 'midi X-TOUCH MINI:X-TOUCH MINI MIDI 1 20:0');
  ports.play(0xf8);
  t.like(hub.connection('desk')?.info.details, { received: 3, ignored: 1 });
});

test('an output port: a write sends the message, 0–127 only; sysex is written as hex (R-SU3)', async (t) => {
  const ports = new Ports();
  const hub = await midiHub(t, async () => ports, { output: 'X-TOUCH MINI', parameters: ['176/7', '192'] });
  await eventually(() => hub.connection('desk')?.info.status === 'ok', 'ok');
  const fader = hub.graph.get('desk/176/7');
  t.is(fader?.access, 'write-only');
  t.true(fader?.set(64, 'a client').ok);
  hub.graph.get('desk/192')?.set(3, 'a client');
  await eventually(() => ports.sent.length === 2, 'sent');
  t.deepEqual(ports.sent, [
    [0xb0, 7, 64],
    [0xc0, 3],
  ]);
  const refused = await new Promise((resolve) => fader?.set(128, 'a client', resolve));
  t.like(refused, { ok: false, error: { code: 'PB_CONVERSION' } });
  hub.graph.get('desk/sysex')?.set('F0 7E 7F 06 01 F7', 'a client');
  await eventually(() => ports.sent.length === 3, 'sysex sent');
  t.deepEqual(ports.sent[2], [0xf0, 0x7e, 0x7f, 0x06, 0x01, 0xf7]);
  t.is(sysexBytes('F0 80 F7'), 'the bytes between F0 and F7 are 00–7F');
  t.is(sysexBytes('7E 7F'), 'a system exclusive message starts with F0 and ends with F7');
});

test('a port not there is a reason, and the connection finds it when it is plugged in; a port that goes away is noticed (R-SU3, R-G1)', async (t) => {
  const ports = new Ports();
  ports.inputNames = ['Midi Through:Midi Through Port-0 14:0'];
  const hub = await midiHub(t, async () => ports, { input: 'nanoKONTROL' });
  await eventually(() => hub.connection('desk')?.info.status === 'degraded', 'degraded');
  t.is(hub.connection('desk')?.info.reason, 'no MIDI input port like "nanoKONTROL" (there: Midi Through:Midi Through Port-0 14:0)');
  ports.inputNames.push('nanoKONTROL2:nanoKONTROL2 MIDI 1 24:0');
  await eventually(() => hub.connection('desk')?.info.status === 'ok', 'found once plugged in', 15_000);
  ports.inputNames.pop();
  await eventually(() => hub.connection('desk')?.info.status === 'degraded', 'gone', 5000);
  t.is(hub.connection('desk')?.info.reason, 'the MIDI port "nanoKONTROL2:nanoKONTROL2 MIDI 1 24:0" went away');
});

test('on a machine without an ALSA sequencer, the real port layer makes the connection degraded with the reason, never a crash (R-SU3)', async (t) => {
  const { existsSync } = await import('node:fs');
  if (existsSync('/dev/snd/seq')) {
    t.pass('this machine has a sequencer: nothing to show');
    return;
  }
  const { midiType } = await import('../../lib/connections/midi/midi.ts');
  const plan = connectionTypeOf(midiType).prepare({ input: 'anything' }, { id: 'desk', baseDir: '/virtual' });
  if (!plan.ok) throw new Error('settings refused');
  const common = { enabled: true, description: '', location: '', group: '', debug: false, statusParameters: false, persist: false };
  const flow = flowOf({ connections: {} });
  const hub = new Hub({ flow: { ...flow, connections: [{ id: 'desk', plan: plan.value, common }] } });
  t.teardown(() => hub.stop());
  await hub.start();
  await eventually(() => hub.connection('desk')?.info.status === 'degraded', 'degraded');
  t.is(hub.connection('desk')?.info.reason, 'no MIDI on this machine: no ALSA sequencer (/dev/snd/seq)');
});

test('midi settings are checked with their paths', async (t) => {
  const { validateFlow } = await import('../../lib/config/flow-file.ts');
  const { formatIssue } = await import('../../lib/core/issue.ts');
  const result = validateFlow(
    { connections: { desk: { type: 'midi', parameters: ['176/7', '192/3', '176', '100/1', '176/200'] } } },
    '/virtual/flow.json5',
  );
  t.deepEqual(result.ok ? [] : result.issues.map(formatIssue), [
    'connections.desk.input: expected an input port, an output port, or both',
    'connections.desk.parameters[1]: a message of status 192 has one data byte: "192" holds it',
    'connections.desk.parameters[2]: a message of status 176 has two data bytes: "176/<data1>"',
    'connections.desk.parameters[3]: expected <status>/<data1> or <status>, the status a channel message (128–239)',
    'connections.desk.parameters[4]: a data byte is 0–127',
  ]);
});
