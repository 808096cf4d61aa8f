/**
 * The ATEM switcher simulator of atem-switcher.ts, proved against `atem-connection` — the
 * library nobody on the team wrote: each state command it writes is read back with the
 * library's own `deserialize`, each client command it reads is written by the library's own
 * `serialize`; and the library's `Atem` connects to it, fills its state, has its commands
 * taken, hears the panel, loses it when it goes silent and comes back on its own.
 */
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';
import test, { type ExecutionContext } from 'ava';
import { AtemSwitcher, decode, encode, type InputState, type Keyer, type MixEffect, type Model } from './atem-switcher.ts';
import { eventually } from './eventually.ts';

const require = createRequire(import.meta.url);
const { Atem, Commands, Enums } = require('atem-connection') as typeof import('atem-connection');
const { COMMAND_CONNECT_HELLO } =
  require('atem-connection/dist/lib/atemSocketChild.js') as typeof import('atem-connection/dist/lib/atemSocketChild.js');
type Client = InstanceType<typeof Atem>;

// The library's threadedclass resumes stdin ("so the program will not close instantly") in a
// process with exit handlers, as ava's worker is: paused again after, or the worker never exits.
test.after.always(() => process.stdin.pause());

const V8 = Enums.ProtocolVersion.V8_1_1;
const V7 = Enums.ProtocolVersion.V7_5_2;

/** A command's body, once its header is checked: its length (header included) and name. */
function body(t: ExecutionContext, command: Buffer, name: string): Buffer {
  t.is(command.readUInt16BE(0), command.length);
  t.is(command.toString('ascii', 4, 8), name);
  return command.subarray(8);
}

/** `atem-connection`'s `Atem` connected to `port`; every 'error' it emits is kept, for the test to say there were none. */
async function client(t: ExecutionContext, port: number): Promise<{ atem: Client; errors: unknown[] }> {
  const atem = new Atem({ disableMultithreaded: true });
  const errors: unknown[] = [];
  atem.on('error', (error) => errors.push(error));
  t.teardown(() => atem.destroy());
  let connected = false;
  atem.once('connected', () => (connected = true));
  await atem.connect('127.0.0.1', port);
  await eventually(() => connected, 'the client is connected', 10_000);
  return { atem, errors };
}

async function switcher(t: ExecutionContext): Promise<AtemSwitcher> {
  const device = await AtemSwitcher.start();
  t.teardown(() => device.close());
  return device;
}

test('each state command the switcher writes reads back alike with the library deserialize', (t) => {
  const me: MixEffect = {
    program: 1,
    preview: 2,
    style: 2,
    selection: 1,
    nextStyle: 3,
    nextSelection: 3,
    mixRate: 30,
    inTransition: true,
    remainingFrames: 12,
  };
  const keyer: Keyer = { onAir: true, inTransition: true, isAuto: true, towardsOnAir: false, tie: true, rate: 40 };
  const camera: InputState = { id: 5, longName: 'Presenter camera', shortName: 'PRES', externalPortType: 1, renamed: true };
  const output: InputState = { id: 10020, longName: 'ME 2 Program', shortName: 'M2PG', externalPortType: 256, renamed: false };
  const inputs = new Map([0, 1, 2, 1000, 3010, 3011, 3020, 10010].map((id) => [id, { ...camera, id }]));
  const model: Model = {
    product: 'ATEM Sample',
    version: V8,
    mixEffects: [me, { ...me, program: 3 }],
    auxes: [1, 2, 3],
    keyers: [keyer],
    inputs,
    macros: [],
    running: undefined,
  };

  t.is(Commands.VersionCommand.deserialize(body(t, encode._ver(V8), '_ver')).properties.version, V8);
  t.deepEqual(Commands.ProductIdentifierCommand.deserialize(body(t, encode._pin('ATEM Sample', 2), '_pin')).properties, {
    productIdentifier: 'ATEM Sample',
    model: Enums.Model.TwoME,
  });
  for (const version of [V8, V7]) {
    const topology = Commands.TopologyCommand.deserialize(body(t, encode._top({ ...model, version }), '_top'), version).properties;
    t.like(
      topology,
      { mixEffects: 2, sources: 8, downstreamKeyers: 1, auxilliaries: 3, mediaPlayers: 2, DVEs: 1, stingers: 1 },
      `${version}`,
    );
    t.like(topology, { superSources: 0, serialPorts: 0, maxHyperdecks: 0, cameraControl: false, multiviewers: version === V8 ? 0 : -1 });
  }
  t.like(Commands.MixEffectBlockConfigCommand.deserialize(body(t, encode._MeC(1), '_MeC')), { index: 1, properties: { keyCount: 0 } });
  t.deepEqual(Commands.MacroPoolConfigCommand.deserialize(body(t, encode._MAC(10), '_MAC')).properties, { macroCount: 10 });
  t.is(Commands.VideoModeUpdateCommand.deserialize(body(t, encode.VidM(6), 'VidM')).properties.mode, 6);
  t.deepEqual(Commands.InputPropertiesUpdateCommand.deserialize(body(t, encode.InPr(camera, 2), 'InPr')).properties, {
    inputId: 5,
    longName: 'Presenter camera',
    shortName: 'PRES',
    areNamesDefault: false,
    externalPorts: [1],
    externalPortType: 1,
    internalPortType: Enums.InternalPortType.External,
    sourceAvailability: 0x1f,
    meAvailability: Enums.MeAvailability.Me1 | Enums.MeAvailability.Me2,
  });
  t.like(Commands.InputPropertiesUpdateCommand.deserialize(body(t, encode.InPr(output, 2), 'InPr')).properties, {
    inputId: 10020,
    longName: 'ME 2 Program',
    areNamesDefault: true,
    internalPortType: Enums.InternalPortType.MEOutput,
    sourceAvailability: Enums.SourceAvailability.Auxiliary | Enums.SourceAvailability.Multiviewer,
    meAvailability: Enums.MeAvailability.Me1,
  });
  const ports = [0, 1000, 2001, 3010, 3011, 8001].map(
    (id) => Commands.InputPropertiesUpdateCommand.deserialize(encode.InPr({ ...camera, id }, 2).subarray(8)).properties.internalPortType,
  );
  t.deepEqual(ports, [1, 2, 3, 4, 5, 129], 'black, bars, colour, media player fill and key, aux by id');

  const program = Commands.ProgramInputUpdateCommand.deserialize(body(t, encode.PrgI(1, 3010), 'PrgI'));
  t.like(program, { mixEffect: 1, properties: { source: 3010 } });
  t.like(Commands.PreviewInputUpdateCommand.deserialize(body(t, encode.PrvI(1, 10010), 'PrvI')), {
    mixEffect: 1,
    properties: { source: 10010 },
  });
  t.like(Commands.TransitionPropertiesUpdateCommand.deserialize(body(t, encode.TrSS(1, me), 'TrSS')), {
    mixEffect: 1,
    properties: { style: 2, selection: [1], nextStyle: 3, nextSelection: [1, 2] },
  });
  t.like(Commands.TransitionMixUpdateCommand.deserialize(body(t, encode.TMxP(1, 30), 'TMxP')), { mixEffect: 1, properties: { rate: 30 } });
  t.like(Commands.TransitionPositionUpdateCommand.deserialize(body(t, encode.TrPs(1, me), 'TrPs')), {
    mixEffect: 1,
    properties: { inTransition: true, remainingFrames: 12, handlePosition: 0 },
  });
  t.like(Commands.AuxSourceUpdateCommand.deserialize(body(t, encode.AuxS(2, 8001), 'AuxS')), { auxBus: 2, properties: { source: 8001 } });
  t.like(Commands.DownstreamKeyPropertiesCommand.deserialize(body(t, encode.DskP(1, keyer), 'DskP')), {
    downstreamKeyerId: 1,
    properties: { tie: true, rate: 40, preMultiply: true, invert: false },
  });
  const v8 = Commands.DownstreamKeyStateV8Command.deserialize(body(t, encode.DskS(1, keyer, V8), 'DskS'));
  t.deepEqual({ ...v8.properties }, { onAir: true, inTransition: true, isAuto: true, isTowardsOnAir: false, remainingFrames: 0 });
  const v7 = Commands.DownstreamKeyStateCommand.deserialize(body(t, encode.DskS(1, { ...keyer, onAir: false }, V7), 'DskS'));
  t.like(v7, { downstreamKeyerId: 1, properties: { onAir: false, inTransition: true, isAuto: true, remainingFrames: 0 } });
  t.like(Commands.MacroPropertiesUpdateCommand.deserialize(body(t, encode.MPrp(2, 'Outro'), 'MPrp')), {
    macroIndex: 2,
    properties: { isUsed: true, hasUnsupportedOps: false, name: 'Outro', description: '' },
  });
  t.like(Commands.MacroPropertiesUpdateCommand.deserialize(encode.MPrp(7, undefined).subarray(8)).properties, { isUsed: false, name: '' });
  t.is(encode.MPrp(2, 'Outro').length % 4, 0, 'padded to four bytes, as the switcher does');
  t.deepEqual(Commands.MacroRunStatusUpdateCommand.deserialize(body(t, encode.MRPr(4), 'MRPr')).properties, {
    isRunning: true,
    isWaiting: false,
    loop: false,
    macroIndex: 4,
  });
  t.like(Commands.MacroRunStatusUpdateCommand.deserialize(encode.MRPr(undefined).subarray(8)).properties, {
    isRunning: false,
    macroIndex: 0xffff,
  });
  const tally = Commands.TallyBySourceCommand.deserialize(body(t, encode.TlSr(model), 'TlSr')).properties;
  t.is(Object.keys(tally).length, inputs.size);
  t.deepEqual(tally[1], { program: true, preview: false }, 'M/E 1 in a transition from 1 to 2: 1 on air ...');
  t.deepEqual(tally[2], { program: true, preview: true }, '... and 2 on air as on preview');
  t.deepEqual(tally[0], { program: false, preview: false });
  t.is(body(t, encode.InCm(), 'InCm').length, 4, 'a body, or the library would not read it last in a packet');
});

test('each client command the switcher reads is the library serialize, read alike', (t) => {
  const read = (command: { serialize(version: number): Buffer; constructor: unknown }, version = V8) => {
    const name = (command.constructor as { rawName: string }).rawName;
    return { name, ...decode[name]?.(command.serialize(version), version) };
  };
  t.deepEqual(read(new Commands.ProgramInputCommand(1, 3010)), { name: 'CPgI', me: 1, source: 3010 });
  t.deepEqual(read(new Commands.PreviewInputCommand(1, 2002)), { name: 'CPvI', me: 1, source: 2002 });
  t.deepEqual(read(new Commands.CutCommand(1)), { name: 'DCut', me: 1 });
  t.deepEqual(read(new Commands.AutoTransitionCommand(1)), { name: 'DAut', me: 1 });
  const style = new Commands.TransitionPropertiesCommand(1);
  style.updateProps({ nextStyle: Enums.TransitionStyle.WIPE });
  t.deepEqual(read(style), { name: 'CTTp', flag: 1, me: 1, nextStyle: 2, nextSelection: 0 });
  t.deepEqual(read(new Commands.TransitionMixCommand(1, 50)), { name: 'CTMx', me: 1, rate: 50 });
  t.deepEqual(read(new Commands.AuxSourceCommand(1, 10010)), { name: 'CAuS', flag: 1, aux: 1, source: 10010 });
  t.deepEqual(read(new Commands.DownstreamKeyOnAirCommand(1, true)), { name: 'CDsL', keyer: 1, onAir: true });
  const auto = new Commands.DownstreamKeyAutoCommand(1);
  t.deepEqual(read(auto), { name: 'DDsA', flag: 0, keyer: 1, towardsOnAir: false });
  auto.updateProps({ isTowardsOnAir: true });
  t.deepEqual(read(auto), { name: 'DDsA', flag: 1, keyer: 1, towardsOnAir: true });
  t.deepEqual(read(auto, V7), { name: 'DDsA', keyer: 1 });
  t.deepEqual(read(new Commands.MacroActionCommand(2, Enums.MacroAction.Run)), { name: 'MAct', index: 2, action: 0 });
  t.deepEqual(read(new Commands.MacroActionCommand(2, Enums.MacroAction.Stop)), { name: 'MAct', index: 0xffff, action: 1 });
  const rename = new Commands.InputPropertiesCommand(5);
  rename.updateProps({ longName: 'Presenter', shortName: 'PRES' });
  t.deepEqual(read(rename), { name: 'CInL', flag: 3, input: 5, longName: 'Presenter', shortName: 'PRES', externalPortType: 0 });
});

test('atem-connection connects and its state is the switcher as configured, without an error', async (t) => {
  const device = await switcher(t);
  const { atem, errors } = await client(t, device.port);
  const state = atem.state!;
  t.like(state.info, {
    apiVersion: V8,
    productIdentifier: 'ATEM Simulated 2 M/E',
    model: Enums.Model.TwoME,
    macroPool: { macroCount: 10 },
  });
  t.like(state.info.capabilities, { mixEffects: 2, auxilliaries: 2, downstreamKeyers: 2, mediaPlayers: 1, sources: 21 });
  t.deepEqual(state.info.mixEffects, [{ keyCount: 2 }, { keyCount: 2 }]);
  t.is(state.settings.videoMode, Enums.VideoMode.P1080i50);
  t.deepEqual(
    Object.keys(state.inputs).map(Number),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 1000, 2001, 2002, 3010, 3011, 6000, 8001, 8002, 10010, 10011, 10020, 10021],
  );
  t.like(state.inputs[1], { longName: 'Camera 1', shortName: 'CAM1', areNamesDefault: true, externalPortType: Enums.ExternalPortType.SDI });
  t.like(state.inputs[3010], { longName: 'Media Player 1', internalPortType: Enums.InternalPortType.MediaPlayerFill });
  t.like(state.inputs[10020], { longName: 'ME 2 Program', meAvailability: Enums.MeAvailability.Me1 });
  t.is(state.video.mixEffects.length, 2);
  t.like(state.video.mixEffects[0], { programInput: 1, previewInput: 2, transitionSettings: { mix: { rate: 25 } } });
  t.like(state.video.mixEffects[1], { programInput: 3, previewInput: 4, transitionPosition: { inTransition: false } });
  t.like(state.video.mixEffects[0]?.transitionProperties, { style: Enums.TransitionStyle.MIX, nextStyle: Enums.TransitionStyle.MIX });
  t.deepEqual(state.video.auxilliaries, [10010, 10010]);
  t.like(state.video.downstreamKeyers[1], { onAir: false, inTransition: false, properties: { tie: false, rate: 25 } });
  t.deepEqual(
    state.macro.macroProperties.map((macro) => macro?.isUsed && macro.name),
    ['Intro', 'Break', 'Outro', false, false, false, false, false, false, false],
  );
  t.like(state.macro.macroPlayer, { isRunning: false });
  t.is(device.clients(), 1);
  t.deepEqual(errors, []);
});

test('each command of the client changes the switcher and comes back as state; the panel reaches the client', async (t) => {
  const device = await switcher(t);
  const { atem, errors } = await client(t, device.port);
  let tally: InstanceType<typeof Commands.TallyBySourceCommand>['properties'] = {};
  const runs: { isRunning: boolean; macroIndex: number }[] = [];
  atem.on('receivedCommands', (commands) => {
    for (const command of commands) if (command instanceof Commands.TallyBySourceCommand) tally = command.properties;
    for (const command of commands) if (command instanceof Commands.MacroRunStatusUpdateCommand) runs.push(command.properties);
  });
  const me = () => atem.state!.video.mixEffects[0]!;
  const heard = () => device.heard.at(-1);

  // Acked once applied and its state sent: the awaited command finds the client's state changed.
  await atem.changeProgramInput(5, 0);
  t.is(device.program(0), 5);
  t.is(me().programInput, 5);
  t.like(heard(), { name: 'CPgI', fields: { me: 0, source: 5 } });
  t.regex(heard()!.from, /^127\.0\.0\.1:\d+$/);
  t.deepEqual(tally[5], { program: true, preview: false });
  await atem.changePreviewInput(6, 0);
  t.is(me().previewInput, 6);
  t.deepEqual(tally[6], { program: false, preview: true });
  await atem.cut(0);
  t.like(me(), { programInput: 6, previewInput: 5 });
  t.like(heard(), { name: 'DCut', fields: { me: 0 } });
  await atem.setTransitionStyle({ nextStyle: Enums.TransitionStyle.DIP }, 0);
  t.is(device.transitionStyle(0), Enums.TransitionStyle.DIP);
  t.like(me().transitionProperties, { style: Enums.TransitionStyle.DIP, nextStyle: Enums.TransitionStyle.DIP });
  await atem.setMixTransitionSettings({ rate: 5 }, 0);
  t.is(device.mixRate(0), 5);
  t.is(me().transitionSettings.mix?.rate, 5);

  // An auto takes its rate (5 frames, 200 ms), in transition meanwhile.
  await atem.autoTransition(0);
  t.like(me(), { programInput: 6, transitionPosition: { inTransition: true, remainingFrames: 5 } });
  t.deepEqual(tally[5], { program: true, preview: true }, 'both sides on air during a transition');
  await eventually(() => me().programInput === 5 && !me().transitionPosition.inTransition, 'the auto done');
  t.is(me().previewInput, 6);
  t.is(device.program(0), 5);

  await atem.setAuxSource(3, 1);
  t.is(device.aux(1), 3);
  t.is(atem.state!.video.auxilliaries[1], 3);
  await atem.setDownstreamKeyOnAir(true, 1);
  t.true(device.downstreamKeyerOnAir(1));
  t.true(atem.state!.video.downstreamKeyers[1]?.onAir);
  await atem.autoDownstreamKey(1, true);
  t.like(heard(), { name: 'DDsA', fields: { keyer: 1, flag: 1, towardsOnAir: true } });
  t.false(atem.state!.video.downstreamKeyers[1]?.inTransition, 'an auto towards the side it is on does nothing');
  await atem.autoDownstreamKey(0);
  t.like(atem.state!.video.downstreamKeyers[0], { onAir: false, inTransition: true, isAuto: true, isTowardsOnAir: true });
  await eventually(() => atem.state!.video.downstreamKeyers[0]?.onAir === true, 'the keyer on air after its rate');
  t.like(atem.state!.video.downstreamKeyers[0], { inTransition: false, isAuto: false });
  t.like(heard(), { name: 'DDsA', fields: { keyer: 0, flag: 0 } });

  await atem.macroRun(1);
  t.like(atem.state!.macro.macroPlayer, { isRunning: true, macroIndex: 1 });
  await eventually(() => !atem.state!.macro.macroPlayer.isRunning, 'the macro done');
  await atem.macroRun(2);
  await atem.macroStop();
  t.false(atem.state!.macro.macroPlayer.isRunning);
  t.like(heard(), { name: 'MAct', fields: { index: 0xffff, action: Enums.MacroAction.Stop } });

  await atem.setInputSettings({ longName: 'Host', shortName: 'HOST' }, 2);
  t.like(atem.state!.inputs[2], { longName: 'Host', shortName: 'HOST', areNamesDefault: false });

  // Not an input, and a command the switcher does not know: heard, acked, nothing changed.
  await atem.changeProgramInput(4242, 0);
  t.is(device.program(0), 5);
  await atem.setColorGeneratorColour({ hue: 100 }, 0);
  t.like(heard(), { name: 'CClV' });
  t.regex(String(heard()!.fields['body']), /^[0-9a-f]+$/);

  // The panel: every change reaches the client; none is among what the switcher heard.
  const before = device.heard.length;
  device.setProgram(1, 7);
  device.setPreview(1, 8);
  await eventually(() => atem.state!.video.mixEffects[1]?.previewInput === 8, 'the panel preview');
  device.cut(1);
  await eventually(() => atem.state!.video.mixEffects[1]?.programInput === 8, 'the panel cut');
  t.is(atem.state!.video.mixEffects[1]?.previewInput, 7);
  device.setAux(0, 1000);
  device.setDownstreamKeyer(1, false);
  device.rename(3, 'Guest', 'GST');
  await eventually(() => atem.state!.inputs[3]?.longName === 'Guest', 'the panel rename');
  t.is(atem.state!.video.auxilliaries[0], 1000);
  t.false(atem.state!.video.downstreamKeyers[1]?.onAir);
  t.is(atem.state!.inputs[3]?.shortName, 'GST');
  device.runMacro(0);
  // Seen as it came (it runs 100 ms, which a poll of the state could miss on a loaded machine).
  await eventually(() => runs.some((run) => run.isRunning && run.macroIndex === 0), 'the panel macro');
  t.is(device.heard.length, before);
  t.deepEqual(errors, []);
});

test('a switcher gone silent: the client says disconnected after its 5 s, and connected again on its own when it is back', async (t) => {
  const device = await switcher(t);
  const { atem, errors } = await client(t, device.port);
  let disconnectedAt = 0;
  let connectedAgain = false;
  atem.once('disconnected', () => (disconnectedAt = Date.now()));
  const silentAt = Date.now();
  device.silence();
  t.is(device.clients(), 0, 'its sessions forgotten');
  device.setProgram(0, 7);
  await eventually(() => disconnectedAt > 0, 'the client disconnected', 15_000);
  // The library waits out its 5 s of silence (a lower bound: a loaded machine only makes it later).
  t.true(disconnectedAt - silentAt >= 4500, `${disconnectedAt - silentAt} ms`);
  atem.once('connected', () => (connectedAgain = true));
  device.resume();
  await eventually(() => connectedAgain, 'the client connected again', 10_000);
  t.is(atem.state!.video.mixEffects[0]?.programInput, 7, 'what changed meanwhile is in the new state');
  t.is(device.clients(), 1);
  t.deepEqual(errors, []);
});

test('two clients: each sees what the other changed, and the switcher knows who said what', async (t) => {
  const device = await switcher(t);
  const a = await client(t, device.port);
  const b = await client(t, device.port);
  t.is(device.clients(), 2);
  await a.atem.changeProgramInput(4, 0);
  await eventually(() => b.atem.state!.video.mixEffects[0]?.programInput === 4, 'B sees A change');
  await b.atem.setAuxSource(2, 0);
  await eventually(() => a.atem.state!.video.auxilliaries[0] === 2, 'A sees B change');
  t.not(device.heard[0]?.from, device.heard[1]?.from);
  device.setPreview(0, 8);
  await eventually(() => [a, b].every(({ atem }) => atem.state!.video.mixEffects[0]?.previewInput === 8), 'both see the panel');
  t.deepEqual([...a.errors, ...b.errors], []);
});

test('on the wire: the hello answer, state in numbered packets, keep-alives, acks once applied, a command resent or refused, hello again', async (t) => {
  const device = await switcher(t);
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  t.teardown(() => socket.close());
  const got: { at: number; packet: Buffer }[] = [];
  socket.on('message', (packet) => got.push({ at: Date.now(), packet }));
  const send = (packet: Buffer) => socket.send(packet, device.port, '127.0.0.1');
  const packet = (flags: number, session: number, ackId: number, packetId: number, payload = Buffer.alloc(0)) => {
    const out = Buffer.alloc(12 + payload.length);
    out.writeUInt16BE((flags << 11) | out.length, 0);
    out.writeUInt16BE(session, 2);
    out.writeUInt16BE(ackId, 4);
    out.writeUInt16BE(packetId, 10);
    payload.copy(out, 12);
    return out;
  };
  const command = (name: string, payload: Buffer) => Buffer.concat([body8(name, payload.length), payload]);
  const body8 = (name: string, length: number) => {
    const header = Buffer.alloc(8);
    header.writeUInt16BE(8 + length, 0);
    header.write(name, 4, 'ascii');
    return header;
  };
  const names = (p: Buffer) => {
    const found: string[] = [];
    for (let at = 12; at < p.length; at += p.readUInt16BE(at)) found.push(p.toString('ascii', at + 4, at + 8));
    return found;
  };

  send(COMMAND_CONNECT_HELLO);
  await eventually(() => got.length === 1, 'the hello answer');
  const hello = got[0]!.packet;
  t.is(hello.length, 20);
  t.is(hello[0]! >> 3, 2, 'NewSessionId');
  t.is(hello.readUInt16BE(2), COMMAND_CONNECT_HELLO.readUInt16BE(2));
  t.is(hello[12], 0x02, 'accepted');
  t.is(device.clients(), 0, 'open once the answer is acked');
  send(packet(16, hello.readUInt16BE(2), 0, 0));
  await eventually(() => got.some(({ packet: p }) => names(p).includes('InCm')), 'the state, to InCm');
  const state = got.slice(1).map(({ packet: p }) => p);
  const session = state[0]!.readUInt16BE(2);
  t.true((session & 0x8000) > 0);
  t.deepEqual(
    state.map((p) => p.readUInt16BE(10)),
    state.map((_, n) => n + 1),
    'numbered from 1',
  );
  t.true(
    state.every(
      (p) => p[0]! >> 3 === 1 && (p.readUInt16BE(0) & 0x7ff) === p.length && p.length - 12 <= 1400 && p.readUInt16BE(2) === session,
    ),
  );
  t.true(state.length > 1, 'in several packets');
  t.is(names(state[0]!)[0], '_ver');
  t.is(names(state.at(-1)!).at(-1), 'InCm');
  t.is(device.clients(), 1);

  // Keep-alives while nothing else is said: empty packets that ask for an ack (how often is
  // the simulator's timer, not asserted: a loaded machine delays it).
  const since = got.length;
  await eventually(() => got.length - since >= 2, 'two keep-alives', 10_000);
  const alive = got.slice(since);
  t.true(alive.every(({ packet: p }) => p.length === 12 && p[0]! >> 3 === 1));

  // A command: its state first, then the ack of its packet id; sent again (not acked in time), acked but not applied twice.
  const cpgi = command('CPgI', new Commands.ProgramInputCommand(0, 3).serialize());
  let from = got.length;
  send(packet(1, session, 0, 1, cpgi));
  await eventually(() => got.slice(from).some(({ packet: p }) => p[0]! >> 3 === 16), 'the ack');
  // Keep-alives may fall between: the first packet with commands, and the ack.
  const answer = got.slice(from).map(({ packet: p }) => p);
  const stateAt = answer.findIndex((p) => p.length > 12);
  const ackAt = answer.findIndex((p) => p[0]! >> 3 === 16);
  t.true(names(answer[stateAt]!).includes('PrgI'));
  t.true(stateAt < ackAt, 'its state before its ack');
  t.is(answer[ackAt]!.readUInt16BE(4), 1, 'the ack carries the packet id');
  send(packet(1, session, 0, 1, cpgi));
  await eventually(() => got.filter(({ packet: p }) => p[0]! >> 3 === 16).length === 2, 'acked again');
  t.is(device.heard.length, 1);
  t.is(device.program(0), 3);

  // Refused: no ack, nothing heard; answered when sent again after.
  device.refuseCommands(true);
  from = got.length;
  const cpvi = command('CPvI', new Commands.PreviewInputCommand(0, 4).serialize());
  send(packet(1, session, 0, 2, cpvi));
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(got.slice(from).some(({ packet: p }) => p[0]! >> 3 === 16));
  t.is(device.heard.length, 1);
  device.refuseCommands(false);
  send(packet(1, session, 0, 2, cpvi));
  await eventually(() => got.slice(from).some(({ packet: p }) => p[0]! >> 3 === 16 && p.readUInt16BE(4) === 2), 'acked at last');
  t.is(device.preview(0), 4);

  // Hello again from the same port: a new session, the state again from packet 1.
  from = got.length;
  send(COMMAND_CONNECT_HELLO);
  await eventually(() => got.slice(from).some(({ packet: p }) => p[0]! >> 3 === 2), 'a new hello answer');
  send(packet(16, hello.readUInt16BE(2), 0, 0));
  await eventually(() => got.slice(from).some(({ packet: p }) => names(p).includes('InCm')), 'the state again');
  const again = got.slice(from).filter(({ packet: p }) => p.length > 12 && p[0]! >> 3 === 1)[0]!.packet;
  t.is(again.readUInt16BE(10), 1);
  t.not(again.readUInt16BE(2), session);
  t.is(device.clients(), 1);
});
