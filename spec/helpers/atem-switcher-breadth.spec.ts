/**
 * The ATEM switcher simulator's areas beyond M/E, aux, keyers on air and macros run — keyers
 * (atem-switcher-keyers.ts), transitions and fade to black (atem-switcher-transitions.ts) —
 * proved against `atem-connection`, as atem-switcher.spec.ts proves the rest: each state
 * command is read back with the library's own `deserialize`, each client command it reads
 * is written by the library's own `serialize`, and the library's `Atem` has its commands taken.
 */
import { createRequire } from 'node:module';
import test, { type ExecutionContext } from 'ava';
import { AtemSwitcher, decode } from './atem-switcher.ts';
import { encode as keyers, type UpstreamKeyer } from './atem-switcher-keyers.ts';
import { encode as transitions, type Transitions } from './atem-switcher-transitions.ts';
import { eventually } from './eventually.ts';

const require = createRequire(import.meta.url);
const { Atem, Commands, Enums } = require('atem-connection') as typeof import('atem-connection');

test.after.always(() => process.stdin.pause());

const V8 = Enums.ProtocolVersion.V8_1_1;

/** A command's body, once its header is checked: its length (header included) and name. */
function body(t: ExecutionContext, command: Buffer, name: string): Buffer {
  t.is(command.readUInt16BE(0), command.length);
  t.is(command.toString('ascii', 4, 8), name);
  return command.subarray(8);
}

/** What the switcher reads of a command the library writes. */
const read = (command: { serialize(version: number): Buffer; constructor: unknown }, version = V8) => {
  const name = (command.constructor as { rawName: string }).rawName;
  return { name, ...decode[name]?.(command.serialize(version), version) };
};

test('the keyers and transitions the switcher writes read back alike with the library deserialize', (t) => {
  const usk: UpstreamKeyer = {
    onAir: true,
    type: Enums.MixEffectKeyType.DVE,
    flyEnabled: true,
    fill: 3010,
    cut: 3011,
    isASet: true,
    isBSet: false,
    atKeyFrame: Enums.IsAtKeyFrame.RunToInfinite,
    infinite: Enums.FlyKeyDirection.BottomRight,
  };
  t.like(Commands.MixEffectKeyOnAirUpdateCommand.deserialize(body(t, keyers.KeOn(1, 2, true), 'KeOn')), {
    mixEffect: 1,
    upstreamKeyerId: 2,
    properties: { onAir: true },
  });
  t.like(Commands.MixEffectKeyPropertiesGetCommand.deserialize(body(t, keyers.KeBP(1, 2, usk), 'KeBP')), {
    mixEffect: 1,
    upstreamKeyerId: 2,
    properties: { mixEffectKeyType: Enums.MixEffectKeyType.DVE, canFlyKey: true, flyEnabled: true, fillSource: 3010, cutSource: 3011 },
  });
  t.deepEqual(Commands.MixEffectKeyFlyPropertiesGetCommand.deserialize(body(t, keyers.KeFS(1, 2, usk), 'KeFS')).properties, {
    isASet: true,
    isBSet: false,
    isAtKeyFrame: Enums.IsAtKeyFrame.RunToInfinite,
    runToInfiniteIndex: Enums.FlyKeyDirection.BottomRight,
  });
  t.like(Commands.DownstreamKeySourcesCommand.deserialize(body(t, keyers.DskB(1, { fill: 2001, cut: 3011 }), 'DskB')), {
    downstreamKeyerId: 1,
    properties: { fillSource: 2001, cutSource: 3011 },
  });

  const fading: Transitions = { fadeRate: 30, black: false, fading: true, preview: true, dipRate: 40, wipeRate: 50, dveRate: 60 };
  t.like(Commands.FadeToBlackStateCommand.deserialize(body(t, transitions.FtbS(1, fading), 'FtbS')), {
    mixEffect: 1,
    properties: { isFullyBlack: false, inTransition: true, remainingFrames: 30 },
  });
  t.like(Commands.FadeToBlackRateUpdateCommand.deserialize(body(t, transitions.FtbP(1, 30), 'FtbP')), {
    mixEffect: 1,
    properties: { rate: 30 },
  });
  t.like(Commands.PreviewTransitionUpdateCommand.deserialize(body(t, transitions.TrPr(1, true), 'TrPr')), {
    mixEffect: 1,
    properties: { preview: true },
  });
  t.like(Commands.TransitionDipUpdateCommand.deserialize(body(t, transitions.TDpP(1, 40), 'TDpP')), {
    mixEffect: 1,
    properties: { rate: 40, input: 2001 },
  });
  t.like(Commands.TransitionWipeUpdateCommand.deserialize(body(t, transitions.TWpP(1, 50), 'TWpP')), {
    mixEffect: 1,
    properties: { rate: 50 },
  });
  t.like(Commands.TransitionDVEUpdateCommand.deserialize(body(t, transitions.TDvP(1, 60), 'TDvP')), {
    mixEffect: 1,
    properties: { rate: 60 },
  });
});

test('the keyer and transition commands the switcher reads are the library serialize, read alike', (t) => {
  t.deepEqual(read(new Commands.MixEffectKeyOnAirCommand(1, 2, true)), { name: 'CKOn', me: 1, keyer: 2, onAir: true });
  const type = new Commands.MixEffectKeyTypeSetCommand(1, 2);
  type.updateProps({ mixEffectKeyType: Enums.MixEffectKeyType.Pattern });
  t.deepEqual(read(type), { name: 'CKTp', flag: 1, me: 1, keyer: 2, type: 2, flyEnabled: false });
  const fly = new Commands.MixEffectKeyTypeSetCommand(0, 1);
  fly.updateProps({ flyEnabled: true });
  t.deepEqual(read(fly), { name: 'CKTp', flag: 2, me: 0, keyer: 1, type: 0, flyEnabled: true });
  t.deepEqual(read(new Commands.MixEffectKeyFillSourceSetCommand(1, 2, 3010)), { name: 'CKeF', me: 1, keyer: 2, source: 3010 });
  t.deepEqual(read(new Commands.MixEffectKeyCutSourceSetCommand(1, 2, 3011)), { name: 'CKeC', me: 1, keyer: 2, source: 3011 });
  t.deepEqual(read(new Commands.MixEffectKeyRunToCommand(1, 2, Enums.FlyKeyKeyFrame.B, Enums.FlyKeyDirection.CentreOfKey)), {
    name: 'RFlK',
    flag: 0,
    me: 1,
    keyer: 2,
    keyFrame: Enums.FlyKeyKeyFrame.B,
    direction: 0,
  });
  t.like(read(new Commands.MixEffectKeyRunToCommand(1, 2, Enums.FlyKeyKeyFrame.RunToInfinite, Enums.FlyKeyDirection.TopLeft)), {
    flag: 2,
    keyFrame: Enums.FlyKeyKeyFrame.RunToInfinite,
    direction: Enums.FlyKeyDirection.TopLeft,
  });
  t.deepEqual(read(new Commands.MixEffectKeyFlyKeyframeStoreCommand(1, 2, Enums.FlyKeyKeyFrame.A)), {
    name: 'SFKF',
    me: 1,
    keyer: 2,
    keyFrame: 1,
  });
  t.deepEqual(read(new Commands.DownstreamKeyFillSourceCommand(1, 2002)), { name: 'CDsF', keyer: 1, source: 2002 });
  t.deepEqual(read(new Commands.DownstreamKeyCutSourceCommand(1, 3011)), { name: 'CDsC', keyer: 1, source: 3011 });
  t.deepEqual(read(new Commands.DownstreamKeyRateCommand(1, 40)), { name: 'CDsR', keyer: 1, rate: 40 });

  t.deepEqual(read(new Commands.FadeToBlackAutoCommand(1)), { name: 'FtbA', me: 1 });
  t.deepEqual(read(new Commands.FadeToBlackRateCommand(1, 30)), { name: 'FtbC', flag: 1, me: 1, rate: 30 });
  t.deepEqual(read(new Commands.PreviewTransitionCommand(1, true)), { name: 'CTPr', me: 1, preview: true });
  t.deepEqual(read(new Commands.TransitionPositionCommand(1, 5000)), { name: 'CTPs', me: 1, position: 5000 });
  const dip = new Commands.TransitionDipCommand(1);
  dip.updateProps({ rate: 40 });
  t.deepEqual(read(dip), { name: 'CTDp', flag: 1, me: 1, rate: 40, input: 0 });
  const wipe = new Commands.TransitionWipeCommand(1);
  wipe.updateProps({ rate: 50 });
  t.deepEqual(read(wipe), { name: 'CTWp', flag: 1, me: 1, rate: 50 });
  const dve = new Commands.TransitionDVECommand(1);
  dve.updateProps({ rate: 60 });
  t.deepEqual(read(dve), { name: 'CTDv', flag: 1, me: 1, rate: 60 });
  const loop = new Commands.MacroRunStatusCommand();
  loop.updateProps({ loop: true });
  t.deepEqual(read(loop), { name: 'MRCP', flag: 1, loop: true });
});

test('atem-connection has the keyers and transitions, and each of their commands changes the switcher and comes back as state', async (t) => {
  const device = await AtemSwitcher.start();
  t.teardown(() => device.close());
  const atem = new Atem({ disableMultithreaded: true });
  const errors: unknown[] = [];
  atem.on('error', (error) => errors.push(error));
  t.teardown(() => atem.destroy());
  let connected = false;
  atem.once('connected', () => (connected = true));
  await atem.connect('127.0.0.1', device.port);
  await eventually(() => connected, 'the client is connected', 10_000);
  const me = () => atem.state!.video.mixEffects[0]!;
  const usk = () => me().upstreamKeyers[1]!;

  t.deepEqual(atem.state!.info.mixEffects, [{ keyCount: 2 }, { keyCount: 2 }]);
  t.like(usk(), { onAir: false, mixEffectKeyType: Enums.MixEffectKeyType.Luma, canFlyKey: true, fillSource: 3010 });
  t.like(me().fadeToBlack, { rate: 25, isFullyBlack: false });
  t.like(me().transitionSettings, { dip: { rate: 25 }, wipe: { rate: 25 }, DVE: { rate: 25 } });

  await atem.setUpstreamKeyerOnAir(true, 0, 1);
  t.true(usk().onAir);
  t.true(device.keyers.upstream[0]![1]!.onAir);
  await atem.setUpstreamKeyerType({ mixEffectKeyType: Enums.MixEffectKeyType.DVE, flyEnabled: true }, 0, 1);
  t.like(usk(), { mixEffectKeyType: Enums.MixEffectKeyType.DVE, flyEnabled: true });
  await atem.setUpstreamKeyerFillSource(2002, 0, 1);
  await atem.setUpstreamKeyerCutSource(3011, 0, 1);
  t.like(usk(), { fillSource: 2002, cutSource: 3011 });
  await atem.runUpstreamKeyerFlyKeyTo(0, 1, Enums.FlyKeyKeyFrame.A);
  t.is(usk().flyProperties?.isAtKeyFrame, Enums.IsAtKeyFrame.None, 'keyframe A was never stored');
  await atem.storeUpstreamKeyerFlyKeyKeyframe(0, 1, Enums.FlyKeyKeyFrame.A);
  await atem.runUpstreamKeyerFlyKeyTo(0, 1, Enums.FlyKeyKeyFrame.A);
  t.like(usk().flyProperties, { isASet: true, isAtKeyFrame: Enums.IsAtKeyFrame.A });
  await atem.runUpstreamKeyerFlyKeyToInfinite(0, 1, Enums.FlyKeyDirection.TopRight);
  t.like(usk().flyProperties, { isAtKeyFrame: Enums.IsAtKeyFrame.RunToInfinite, runToInfiniteIndex: Enums.FlyKeyDirection.TopRight });

  await atem.setDownstreamKeyFillSource(2001, 1);
  await atem.setDownstreamKeyRate(50, 1);
  t.like(atem.state!.video.downstreamKeyers[1], { sources: { fillSource: 2001, cutSource: 3011 }, properties: { rate: 50 } });

  await atem.setFadeToBlackRate(5, 0);
  await atem.fadeToBlack(0);
  t.like(me().fadeToBlack, { inTransition: true, isFullyBlack: false });
  await eventually(() => me().fadeToBlack?.isFullyBlack === true, 'black after its rate');
  t.false(me().fadeToBlack?.inTransition);
  await atem.previewTransition(true, 0);
  t.true(me().transitionPreview);
  await atem.setDipTransitionSettings({ rate: 40 }, 0);
  await atem.setWipeTransitionSettings({ rate: 50 }, 0);
  await atem.setDVETransitionSettings({ rate: 60 }, 0);
  t.like(me().transitionSettings, { dip: { rate: 40 }, wipe: { rate: 50 }, DVE: { rate: 60 } });

  // The T-bar: half-way is in transition; the far end takes it.
  const [program, preview] = [me().programInput, me().previewInput];
  await atem.setTransitionPosition(5000, 0);
  t.like(me().transitionPosition, { inTransition: true, handlePosition: 5000 });
  await atem.setTransitionPosition(10_000, 0);
  t.like(me(), { programInput: preview, previewInput: program, transitionPosition: { inTransition: false, handlePosition: 0 } });

  await atem.macroSetLoop(true);
  t.true(atem.state!.macro.macroPlayer.loop);
  t.true(device.macroLoops());
  await atem.macroContinue();
  t.like(device.heard.at(-1), { name: 'MAct', fields: { action: Enums.MacroAction.Continue } });

  // The panel reaches the client.
  device.panel('CKOn', { me: 1, keyer: 0, onAir: true });
  await eventually(() => atem.state!.video.mixEffects[1]?.upstreamKeyers[0]?.onAir === true, 'the panel keyed');
  t.deepEqual(errors, []);
});
