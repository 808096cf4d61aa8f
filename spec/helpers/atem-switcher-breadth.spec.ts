/**
 * The ATEM switcher simulator's areas beyond M/E, aux, keyers on air and macros run — keyers
 * (atem-switcher-keyers.ts), transitions and fade to black (atem-switcher-transitions.ts),
 * media (atem-switcher-media.ts), multiviewers and SuperSource (atem-switcher-views.ts),
 * streaming, recording and the startup state (atem-switcher-outputs.ts), classic audio
 * (atem-switcher-audio.ts), Fairlight audio (atem-switcher-fairlight.ts) —
 * proved against `atem-connection`, as atem-switcher.spec.ts proves the rest: each state
 * command is read back with the library's own `deserialize`, each client command it reads
 * is written by the library's own `serialize`, and the library's `Atem` has its commands taken.
 */
import { createRequire } from 'node:module';
import test, { type ExecutionContext } from 'ava';
import { AtemSwitcher, decode, encode, type Keyer } from './atem-switcher.ts';
import { encode as audio } from './atem-switcher-audio.ts';
import { encode as camera } from './atem-switcher-camera.ts';
import { encode as clock } from './atem-switcher-clock.ts';
import { encode as fairlight, STEREO } from './atem-switcher-fairlight.ts';
import { encode as keyers, type UpstreamKeyer } from './atem-switcher-keyers.ts';
import { encode as media } from './atem-switcher-media.ts';
import { encode as outputs, type Outputs } from './atem-switcher-outputs.ts';
import { encode as transitions, type Transitions } from './atem-switcher-transitions.ts';
import { encode as views } from './atem-switcher-views.ts';
import { eventually } from './eventually.ts';

const require = createRequire(import.meta.url);
const { Atem, Commands, Enums } = require('atem-connection') as typeof import('atem-connection');

test.after.always(() => process.stdin.pause());

const V8 = Enums.ProtocolVersion.V8_1_1;
const V7 = Enums.ProtocolVersion.V7_5_2;

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
    mask: { enabled: true, sides: [9000, -9000, -16000, 4000] },
    pattern: { style: 5, size: 2500, symmetry: 6000, softness: 100, x: 1000, y: 9000, invert: true },
  };
  t.like(Commands.MixEffectKeyUpdateCommand.deserialize(body(t, keyers.KePt(1, 2, usk.pattern), 'KePt')), {
    mixEffect: 1,
    upstreamKeyerId: 2,
    properties: {
      style: Enums.Pattern.RectangleIris,
      size: 2500,
      symmetry: 6000,
      softness: 100,
      positionX: 1000,
      positionY: 9000,
      invert: true,
    },
  });
  t.like(Commands.MixEffectKeyOnAirUpdateCommand.deserialize(body(t, keyers.KeOn(1, 2, true), 'KeOn')), {
    mixEffect: 1,
    upstreamKeyerId: 2,
    properties: { onAir: true },
  });
  t.like(Commands.MixEffectKeyPropertiesGetCommand.deserialize(body(t, keyers.KeBP(1, 2, usk), 'KeBP')), {
    mixEffect: 1,
    upstreamKeyerId: 2,
    properties: {
      mixEffectKeyType: Enums.MixEffectKeyType.DVE,
      canFlyKey: true,
      flyEnabled: true,
      fillSource: 3010,
      cutSource: 3011,
      maskSettings: { maskEnabled: true, maskTop: 9000, maskBottom: -9000, maskLeft: -16000, maskRight: 4000 },
    },
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
  const pattern = new Commands.MixEffectKeyPatternCommand(1, 2);
  pattern.updateProps({ style: Enums.Pattern.RectangleIris, size: 2500, positionY: 9000, invert: true });
  t.deepEqual(read(pattern), {
    name: 'CKPt',
    flag: 1 | 2 | 32 | 64,
    me: 1,
    keyer: 2,
    style: 5,
    size: 2500,
    symmetry: 0,
    softness: 0,
    x: 0,
    y: 9000,
    invert: true,
  });
  const uskMask = new Commands.MixEffectKeyMaskSetCommand(1, 2);
  uskMask.updateProps({ maskEnabled: true, maskTop: 5000, maskLeft: -3000 });
  t.deepEqual(read(uskMask), {
    name: 'CKMs',
    flag: 1 | 2 | 8,
    me: 1,
    keyer: 2,
    enabled: true,
    top: 5000,
    bottom: 0,
    left: -3000,
    right: 0,
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
  const general = new Commands.DownstreamKeyGeneralCommand(1);
  general.updateProps({ preMultiply: false, clip: 500, gain: 250, invert: true });
  t.deepEqual(read(general), { name: 'CDsG', flag: 15, keyer: 1, preMultiply: false, clip: 500, gain: 250, invert: true });
  const mask = new Commands.DownstreamKeyMaskCommand(1);
  mask.updateProps({ enabled: true, top: 9000, bottom: -9000, left: -16000, right: 3000 });
  t.deepEqual(read(mask), { name: 'CDsM', flag: 31, keyer: 1, enabled: true, top: 9000, bottom: -9000, left: -16000, right: 3000 });
  const shaped = { onAir: false, inTransition: false, isAuto: false, towardsOnAir: false, tie: true, rate: 30 };
  const keyed = {
    ...shaped,
    general: { preMultiply: false, clip: 500, gain: 250, invert: true },
    mask: { enabled: true, sides: [9000, -9000, -16000, 3000] },
  };
  t.like(Commands.DownstreamKeyPropertiesCommand.deserialize(encode.DskP(1, keyed as Keyer).subarray(8)).properties, {
    tie: true,
    rate: 30,
    preMultiply: false,
    clip: 500,
    gain: 250,
    invert: true,
    mask: { enabled: true, top: 9000, bottom: -9000, left: -16000, right: 3000 },
  });

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
  t.like(Commands.MacroRunStatusUpdateCommand.deserialize(encode.MRPr(2, true, true).subarray(8)).properties, {
    isRunning: true,
    isWaiting: true,
    loop: true,
    macroIndex: 2,
  });

  // The panel reaches the client.
  device.panel('CKOn', { me: 1, keyer: 0, onAir: true });
  await eventually(() => atem.state!.video.mixEffects[1]?.upstreamKeyers[0]?.onAir === true, 'the panel keyed');
  t.deepEqual(errors, []);
});

test('media, multiviewers, SuperSource, streaming and recording the switcher writes read back alike with the library deserialize', (t) => {
  t.deepEqual(Commands.MediaPoolConfigCommand.deserialize(body(t, media._mpl(20, 2), '_mpl')).properties, { stillCount: 20, clipCount: 2 });
  t.like(Commands.MediaPoolFrameDescriptionCommand.deserialize(body(t, media.MPfe(2, 'Slate'), 'MPfe')), {
    mediaPool: 0,
    frameIndex: 2,
    properties: { isUsed: true, fileName: 'Slate' },
  });
  t.like(Commands.MediaPoolFrameDescriptionCommand.deserialize(media.MPfe(7, undefined).subarray(8)).properties, {
    isUsed: false,
    fileName: '',
  });
  t.like(Commands.MediaPlayerSourceUpdateCommand.deserialize(body(t, media.MPCE(1, { type: 2, still: 3, clip: 1 }), 'MPCE')), {
    mediaPlayerId: 1,
    properties: { sourceType: Enums.MediaSourceType.Clip, stillIndex: 3, clipIndex: 1 },
  });

  t.like(Commands.MultiviewerConfigCommand.deserialize(body(t, views._MvC(2, 10), '_MvC'), V8).properties, { windowCount: 10 });
  t.like(Commands.MultiviewerConfigCommand.deserialize(views._MvC(2, 10).subarray(8), V7).properties, { count: 2, windowCount: 10 });
  t.like(Commands.MultiViewerPropertiesUpdateCommand.deserialize(body(t, views.MvPr(1, 12), 'MvPr')), {
    multiViewerId: 1,
    properties: { layout: Enums.MultiViewerLayout.ProgramTop, programPreviewSwapped: false },
  });
  t.like(Commands.MultiViewerSourceUpdateCommand.deserialize(body(t, views.MvIn(1, 4, 3010), 'MvIn')), {
    multiViewerId: 1,
    properties: { windowIndex: 4, source: 3010, supportsVuMeter: true, supportsSafeArea: true },
  });
  t.like(
    Commands.SuperSourcePropertiesUpdateV8Command.deserialize(
      body(t, views.SSrc(0, { fill: 3010, cut: 3011, option: 1, preMultiplied: false, clip: 500, gain: 250, invert: true }), 'SSrc'),
    ),
    {
      ssrcId: 0,
      properties: {
        artFillSource: 3010,
        artCutSource: 3011,
        artOption: Enums.SuperSourceArtOption.Foreground,
        artPreMultiplied: false,
        artClip: 500,
        artGain: 250,
        artInvertKey: true,
      },
    },
  );
  const art = new Commands.SuperSourcePropertiesV8Command(0);
  art.updateProps({
    artFillSource: 2001,
    artCutSource: 3011,
    artOption: 1,
    artPreMultiplied: false,
    artClip: 100,
    artGain: 200,
    artInvertKey: true,
  });
  t.deepEqual(read(art), {
    name: 'CSSc',
    flag: 127,
    ssrc: 0,
    fill: 2001,
    cut: 3011,
    option: 1,
    preMultiplied: false,
    clip: 100,
    gain: 200,
    invert: true,
  });
  const box = {
    enabled: true,
    source: 5,
    x: -800,
    y: 450,
    size: 500,
    cropped: true,
    crop: [1000, 2000, 3000, 4000] as [number, number, number, number],
  };
  for (const version of [V8, V7]) {
    t.like(Commands.SuperSourceConfigCommand.deserialize(body(t, views._SSC(0, 4, version), '_SSC'), version), {
      properties: { boxCount: 4 },
    });
    t.like(Commands.SuperSourceBoxParametersUpdateCommand.deserialize(body(t, views.SSBP(0, 3, box, version), 'SSBP'), version), {
      boxId: 3,
      properties: {
        enabled: true,
        source: 5,
        x: -800,
        y: 450,
        size: 500,
        cropped: true,
        cropTop: 1000,
        cropBottom: 2000,
        cropLeft: 3000,
        cropRight: 4000,
      },
    });
  }

  const o: Outputs = {
    streaming: Enums.StreamingStatus.Streaming,
    service: 'Twitch',
    url: 'rtmp://live.twitch.tv/app',
    key: 'secret',
    recording: Enums.RecordingStatus.Recording,
    filename: 'Morning show',
    iso: true,
    disks: [3, 4],
    saved: 0,
    cleared: 0,
    timeMode: 0,
    time: '',
  };
  t.like(Commands.StreamingServiceUpdateCommand.deserialize(body(t, outputs.SRSU(o), 'SRSU')).properties, {
    serviceName: 'Twitch',
    url: 'rtmp://live.twitch.tv/app',
    key: 'secret',
  });
  t.deepEqual(
    Commands.StreamingStatusUpdateCommand.deserialize(body(t, outputs.StRS(Enums.StreamingStatus.Streaming), 'StRS')).properties,
    {
      state: Enums.StreamingStatus.Streaming,
      error: Enums.StreamingError.None,
    },
  );
  t.like(Commands.RecordingSettingsUpdateCommand.deserialize(body(t, outputs.RMSu(o), 'RMSu')).properties, {
    filename: 'Morning show',
    workingSet1DiskId: 3,
    workingSet2DiskId: 4,
  });
  t.like(Commands.RecordingStatusUpdateCommand.deserialize(body(t, outputs.RTMS(Enums.RecordingStatus.Recording), 'RTMS')).properties, {
    state: Enums.RecordingStatus.Recording,
    error: Enums.RecordingError.None,
    recordingTimeAvailable: 3600,
  });
  t.like(Commands.RecordingISOCommand.deserialize(body(t, outputs.ISOi(true), 'ISOi')).properties, { recordAllInputs: true });
  t.like(Commands.TimeConfigUpdateCommand.deserialize(body(t, outputs.TCCc(Enums.TimeMode.TimeOfDay), 'TCCc')).properties, {
    mode: Enums.TimeMode.TimeOfDay,
  });
});

test('the media, multiviewer, SuperSource, streaming, recording and startup commands the switcher reads are the library serialize, read alike', (t) => {
  const player = new Commands.MediaPlayerSourceCommand(1);
  player.updateProps({ sourceType: Enums.MediaSourceType.Still, stillIndex: 4 });
  t.deepEqual(read(player), { name: 'MPSS', flag: 3, player: 1, type: 1, still: 4, clip: 0 });
  t.deepEqual(read(new Commands.MediaPoolCaptureStillCommand()), { name: 'Capt' });
  t.deepEqual(read(new Commands.MediaPoolClearStillCommand(5)), { name: 'CSTL', index: 5 });
  t.deepEqual(read(new Commands.MultiViewerSourceCommand(1, 4, 3010)), { name: 'CMvI', mv: 1, window: 4, source: 3010 });
  const layout = new Commands.MultiViewerPropertiesCommand(1);
  layout.updateProps({ layout: Enums.MultiViewerLayout.ProgramRight });
  t.deepEqual(read(layout), { name: 'CMvP', flag: 1, mv: 1, layout: 5, swapped: false });
  t.deepEqual(read(new Commands.TimeConfigCommand(Enums.TimeMode.TimeOfDay)), { name: 'CTCC', mode: 1 });
  t.deepEqual(read(new Commands.TimeCommand({ hour: 9, minute: 30, second: 5, frame: 12, dropFrame: false })), {
    name: 'Time',
    time: '09:30:05:12',
    dropFrame: false,
  });
  for (const version of [V8, V7]) {
    const box = new Commands.SuperSourceBoxParametersCommand(0, 2);
    box.updateProps({
      enabled: true,
      source: 6,
      x: -100,
      y: 200,
      size: 700,
      cropped: true,
      cropTop: 1,
      cropBottom: 2,
      cropLeft: 3,
      cropRight: 4,
    });
    t.deepEqual(
      read(box, version),
      {
        name: 'CSBP',
        flag: 1023,
        ssrc: 0,
        box: 2,
        enabled: true,
        source: 6,
        x: -100,
        y: 200,
        size: 700,
        cropped: true,
        cropTop: 1,
        cropBottom: 2,
        cropLeft: 3,
        cropRight: 4,
      },
      `${version}`,
    );
  }
  t.deepEqual(read(new Commands.StreamingStatusCommand(true)), { name: 'StrR', streaming: true });
  const service = new Commands.StreamingServiceCommand();
  service.updateProps({ serviceName: 'Twitch', key: 'secret' });
  t.deepEqual(read(service), { name: 'CRSS', flag: 5, service: 'Twitch', url: '', key: 'secret' });
  t.deepEqual(read(new Commands.RecordingStatusCommand(true)), { name: 'RcTM', recording: true });
  const settings = new Commands.RecordingSettingsCommand();
  settings.updateProps({ filename: 'Morning show' });
  t.deepEqual(read(settings), { name: 'CRMS', flag: 1, filename: 'Morning show' });
  t.deepEqual(read(new Commands.RecordingISOCommand(true)), { name: 'ISOi', iso: true });
  t.deepEqual(read(new Commands.RecordingRequestSwitchDiskCommand()), { name: 'RMSp' });
  t.deepEqual(read(new Commands.StartupStateSaveCommand()), { name: 'SRsv' });
  t.deepEqual(read(new Commands.StartupStateClearCommand()), { name: 'SRcl' });
  t.deepEqual(read(new Commands.DisplayClockStateSetCommand(Enums.DisplayClockClockState.Running)), { name: 'DCSC', state: 1 });
  const shown = new Commands.DisplayClockPropertiesSetCommand();
  shown.updateProps({
    enabled: true,
    size: 80,
    opacity: 60,
    positionX: -4000,
    positionY: 2000,
    autoHide: true,
    startFrom: { hours: 1, minutes: 2, seconds: 3, frames: 4 },
    clockMode: Enums.DisplayClockClockMode.Countup,
  });
  t.deepEqual(read(shown), {
    name: 'DCPC',
    flag: 1 | 2 | 4 | 8 | 16 | 32 | 64 | 256,
    enabled: true,
    size: 80,
    opacity: 60,
    x: -4000,
    y: 2000,
    autoHide: true,
    start: '1:2:3:4',
    mode: 1,
  });
  const face = {
    enabled: true,
    size: 80,
    opacity: 60,
    x: -4000,
    y: 2000,
    autoHide: true,
    start: [1, 2, 3, 4] as [number, number, number, number],
    mode: 1,
    state: 1,
  };
  t.deepEqual(Commands.DisplayClockPropertiesGetCommand.deserialize(body(t, clock.DCPV(face), 'DCPV')).properties, {
    enabled: true,
    size: 80,
    opacity: 60,
    positionX: -4000,
    positionY: 2000,
    autoHide: true,
    startFrom: { hours: 1, minutes: 2, seconds: 3, frames: 4 },
    clockMode: Enums.DisplayClockClockMode.Countup,
    clockState: Enums.DisplayClockClockState.Running,
  });
});

test('atem-connection has the media, multiviewer, SuperSource, streaming and recording, and each of their commands changes the switcher and comes back as state', async (t) => {
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
  const state = () => atem.state!;

  t.like(state().info, {
    mediaPool: { stillCount: 20, clipCount: 2 },
    multiviewer: { count: 1, windowCount: 10 },
    superSources: [{ boxCount: 4 }],
  });
  t.like(state().media.stillPool[1], { isUsed: true, fileName: 'Lower third' });
  t.like(state().media.players[0], { sourceType: Enums.MediaSourceType.Still, stillIndex: 0 });
  t.is(state().settings.multiViewers[0]?.windows[2]?.source, 1);
  t.like(state().video.superSources[0]?.boxes[1], { enabled: true, source: 2 });
  t.like(state().streaming, { service: { serviceName: 'YouTube' }, status: { state: Enums.StreamingStatus.Idle } });
  t.like(state().recording, { properties: { filename: 'Show' }, status: { state: Enums.RecordingStatus.Idle }, recordAllInputs: false });

  await atem.setMediaPlayerSource({ sourceType: Enums.MediaSourceType.Still, stillIndex: 2 }, 0);
  t.like(state().media.players[0], { stillIndex: 2 });
  await atem.captureMediaPoolStill();
  t.like(state().media.stillPool[3], { isUsed: true, fileName: 'Capture 4' });
  await atem.clearMediaPoolStill(0);
  t.like(state().media.stillPool[0], { isUsed: false });
  await atem.setMultiViewerWindowSource(3010, 0, 5);
  t.is(state().settings.multiViewers[0]?.windows[5]?.source, 3010);
  t.is(device.views.multiviewers[0]![5], 3010);
  await atem.setSuperSourceBoxSettings({ enabled: true, source: 7, x: 100 }, 3, 0);
  t.like(state().video.superSources[0]?.boxes[3], { enabled: true, source: 7, x: 100, y: -450 });
  await atem.setStreamingService({ serviceName: 'Twitch', key: 'secret' });
  t.like(state().streaming?.service, { serviceName: 'Twitch', key: 'secret', url: 'rtmp://a.rtmp.youtube.com/live2' });
  await atem.startStreaming();
  t.is(state().streaming?.status?.state, Enums.StreamingStatus.Connecting);
  await eventually(() => state().streaming?.status?.state === Enums.StreamingStatus.Streaming, 'streaming');
  await atem.stopStreaming();
  t.is(state().streaming?.status?.state, Enums.StreamingStatus.Idle);
  await atem.setRecordingSettings({ filename: 'Take 2' });
  await atem.startRecording();
  t.like(state().recording, { properties: { filename: 'Take 2' }, status: { state: Enums.RecordingStatus.Recording } });
  await atem.setEnableISORecording(true);
  t.true(state().recording?.recordAllInputs);
  await atem.switchRecordingDisk();
  t.like(state().recording?.properties, { workingSet1DiskId: 2, workingSet2DiskId: 1 });
  await atem.setMultiViewerProperties({ layout: Enums.MultiViewerLayout.ProgramBottom }, 0);
  t.is(state().settings.multiViewers[0]?.properties?.layout, Enums.MultiViewerLayout.ProgramBottom);
  t.is(state().settings.timeMode, Enums.TimeMode.FreeRun);
  await atem.setTimeMode(Enums.TimeMode.TimeOfDay);
  t.is(state().settings.timeMode, Enums.TimeMode.TimeOfDay);
  await atem.setTime(10, 0, 0, 0);
  t.is(device.outputs.now.time, '10:00:00:00');
  await atem.saveStartupState();
  await atem.clearStartupState();
  t.like(device.outputs.now, { saved: 1, cleared: 1 });
  t.deepEqual(errors, []);
});

test('classic audio the switcher writes reads back alike with the library deserialize, and its commands are the library serialize', (t) => {
  t.like(Commands.AudioMixerConfigCommand.deserialize(body(t, audio._AMC(9), '_AMC')).properties, {
    inputs: 9,
    monitors: 1,
    headphones: 1,
  });
  const channel = { mixOption: Enums.AudioMixOption.AudioFollowVideo, gain: 16422, balance: -5000 };
  t.like(Commands.AudioMixerInputUpdateV8Command.deserialize(body(t, audio.AMIP(3, channel), 'AMIP')), {
    index: 3,
    properties: { sourceType: Enums.AudioSourceType.ExternalVideo, mixOption: 2, gain: -6, balance: -25, rcaToXlrEnabled: false },
  });
  t.like(Commands.AudioMixerInputUpdateCommand.deserialize(audio.AMIP(2001, channel).subarray(8)).properties, {
    sourceType: Enums.AudioSourceType.MediaPlayer,
    gain: -6,
  });
  t.like(Commands.AudioMixerMasterUpdateCommand.deserialize(body(t, audio.AMMO(channel), 'AMMO')).properties, { gain: -6, balance: -25 });

  const input = new Commands.AudioMixerInputCommand(3);
  input.updateProps({ gain: -6, balance: 10 });
  t.deepEqual(read(input), { name: 'CAMI', flag: 6, channel: 3, mixOption: 0, gain: 16422, balance: 2000 });
  const option = new Commands.AudioMixerInputCommand(2001);
  option.updateProps({ mixOption: Enums.AudioMixOption.On });
  t.like(read(option), { flag: 1, channel: 2001, mixOption: 1 });
  const master = new Commands.AudioMixerMasterCommand();
  master.updateProps({ gain: 6, balance: -50 });
  t.deepEqual(read(master), { name: 'CAMM', flag: 3, gain: 65380, balance: -10000, followFadeToBlack: false });
  const peaks = new Commands.AudioMixerResetPeaksCommand();
  peaks.updateProps({ input: 3 });
  t.deepEqual(read(peaks), { name: 'RAMP', flag: 2, all: false, channel: 3, master: false, monitor: false });
});

test('atem-connection has the classic audio mixer, and its commands change the switcher and come back as state', async (t) => {
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
  const audioState = () => atem.state!.audio!;
  t.is(Object.keys(audioState().channels).length, 9);
  t.like(audioState().channels[1], { mixOption: Enums.AudioMixOption.AudioFollowVideo, gain: 0, balance: 0 });
  t.like(audioState().channels[2001], { mixOption: Enums.AudioMixOption.Off });
  await atem.setClassicAudioMixerInputProps(2, { mixOption: Enums.AudioMixOption.On, gain: -10 });
  t.like(audioState().channels[2], { mixOption: Enums.AudioMixOption.On, gain: -10 });
  await atem.setClassicAudioMixerMasterProps({ gain: -3, balance: 20 });
  t.like(audioState().master, { gain: -3, balance: 20 });
  await atem.setClassicAudioResetPeaks({ all: true });
  t.like(device.audio?.resets.at(-1), { all: true });
  t.deepEqual(errors, []);
});

test('Fairlight audio the switcher writes reads back alike with the library deserialize, and its commands are the library serialize', (t) => {
  t.like(Commands.FairlightAudioMixerConfigCommand.deserialize(body(t, fairlight._FAC(9), '_FAC')).properties, { inputs: 9, monitors: 1 });
  t.like(Commands.FairlightMixerInputUpdateCommand.deserialize(body(t, fairlight.FAIP(3), 'FAIP'), V8), {
    index: 3,
    properties: { inputType: Enums.FairlightInputType.EmbeddedWithVideo, activeConfiguration: Enums.FairlightInputConfiguration.Stereo },
  });
  const source = {
    framesDelay: 3,
    gain: -450,
    faderGain: -1000,
    balance: -5000,
    mixOption: Enums.FairlightAudioMixOption.AudioFollowVideo,
  };
  const sourced = Commands.FairlightMixerSourceUpdateCommand.deserialize(body(t, fairlight.FASP(3, STEREO, source), 'FASP'));
  t.like(sourced, { index: 3, source: BigInt(STEREO) });
  t.like(sourced.properties, { framesDelay: 3, maxFramesDelay: 8, gain: -450, faderGain: -1000, balance: -5000, mixOption: 4 });
  t.deepEqual(sourced.properties.supportedMixOptions, [1, 2, 4]);
  t.like(Commands.FairlightMixerMasterUpdateCommand.deserialize(body(t, fairlight.FAMP(-300), 'FAMP')).properties, { faderGain: -300 });
  const monitor = { gain: -100, masterGain: -200, masterMuted: true, talkbackGain: -300, talkbackMuted: false, sidetoneGain: -400 };
  t.deepEqual(Commands.FairlightMixerMonitorUpdateCommand.deserialize(body(t, fairlight.FMHP(monitor), 'FMHP')).properties, {
    gain: -100,
    inputMasterGain: -200,
    inputMasterMuted: true,
    inputTalkbackGain: -300,
    inputTalkbackMuted: false,
    inputSidetoneGain: -400,
  });
  t.deepEqual(
    Commands.FairlightMixerMonitorSoloUpdateCommand.deserialize(body(t, fairlight.FAMS({ solo: true, index: 3, source: STEREO }), 'FAMS'))
      .properties,
    {
      solo: true,
      index: 3,
      source: STEREO,
    },
  );

  const set = new Commands.FairlightMixerSourceCommand(3, BigInt(STEREO));
  set.updateProps({ faderGain: -1000, gain: 250, framesDelay: 2, balance: 300, mixOption: Enums.FairlightAudioMixOption.On });
  t.deepEqual(read(set), {
    name: 'CFSP',
    flag: 1 | 2 | 64 | 128 | 256,
    input: 3,
    source: STEREO,
    framesDelay: 2,
    gain: 250,
    balance: 300,
    faderGain: -1000,
    mixOption: 2,
  });
  t.like(Commands.AudioRoutingSourceUpdateCommand.deserialize(body(t, fairlight.ARSP((2 << 16) | 1, 'Camera 2'), 'ARSP')).properties, {
    audioSourceId: 2,
    audioChannelPair: 1,
    name: 'Camera 2',
  });
  t.like(
    Commands.AudioRoutingOutputUpdateCommand.deserialize(body(t, fairlight.AROP((1502 << 16) | 1, (2 << 16) | 1, 'Monitor'), 'AROP'))
      .properties,
    {
      audioOutputId: 1502,
      audioChannelPair: 1,
      sourceId: (2 << 16) | 1,
      name: 'Monitor',
    },
  );
  const route = new Commands.AudioRoutingOutputCommand((1502 << 16) | 1);
  route.updateProps({ sourceId: (2 << 16) | 1 });
  t.deepEqual(read(route), { name: 'AROC', flag: 1, output: (1502 << 16) | 1, source: (2 << 16) | 1 });
  const master = new Commands.FairlightMixerMasterCommand();
  master.updateProps({ faderGain: -500 });
  t.deepEqual(read(master), { name: 'CFMP', flag: 8, faderGain: -500 });
  const monitoring = new Commands.FairlightMixerMonitorCommand();
  monitoring.updateProps({ gain: -100, inputMasterMuted: true, inputTalkbackGain: -300, inputSidetoneGain: -400 });
  t.like(read(monitoring), { name: 'CFMH', flag: 1 | 4 | 8 | 128, gain: -100, masterMuted: true, talkbackGain: -300, sidetoneGain: -400 });
  const solo = new Commands.FairlightMixerMonitorSoloCommand();
  solo.updateProps({ solo: true, index: 3, source: STEREO });
  t.deepEqual(read(solo), { name: 'CFMS', flag: 3, solo: true, input: 3, source: STEREO });
  t.deepEqual(read(new Commands.FairlightMixerResetPeakLevelsCommand({ all: true, master: false })), {
    name: 'RFLP',
    all: true,
    master: false,
  });
  t.deepEqual(
    read(
      new Commands.FairlightMixerSourceResetPeakLevelsCommand(3, BigInt(STEREO), {
        output: true,
        dynamicsInput: false,
        dynamicsOutput: false,
      }),
    ),
    {
      name: 'RFIP',
      input: 3,
      source: STEREO,
      output: true,
    },
  );
});

test('atem-connection has the Fairlight mixer of a switcher that has one, and its commands change the switcher and come back as state', async (t) => {
  const device = await AtemSwitcher.start({ audio: 'fairlight' });
  t.teardown(() => device.close());
  const atem = new Atem({ disableMultithreaded: true });
  const errors: unknown[] = [];
  atem.on('error', (error) => errors.push(error));
  t.teardown(() => atem.destroy());
  let connected = false;
  atem.once('connected', () => (connected = true));
  await atem.connect('127.0.0.1', device.port);
  await eventually(() => connected, 'the client is connected', 10_000);
  const state = () => atem.state!.fairlight!;
  t.is(atem.state!.audio, undefined, 'no classic mixer beside it');
  t.like(state().inputs[2]?.sources[STEREO]?.properties, { mixOption: Enums.FairlightAudioMixOption.AudioFollowVideo, faderGain: 0 });
  await atem.setFairlightAudioMixerSourceProps(2, STEREO, { faderGain: -1500, mixOption: Enums.FairlightAudioMixOption.On });
  t.like(state().inputs[2]?.sources[STEREO]?.properties, { faderGain: -1500, mixOption: Enums.FairlightAudioMixOption.On });
  await atem.setFairlightAudioMixerMasterProps({ faderGain: -300 });
  t.is(state().master?.properties?.faderGain, -300);
  await atem.setFairlightAudioMixerMonitorProps({ inputTalkbackMuted: false, inputTalkbackGain: -600 });
  t.like(state().monitor, { inputTalkbackMuted: false, inputTalkbackGain: -600 });
  await atem.setFairlightAudioMixerMonitorSolo({ solo: true, index: 2, source: STEREO });
  t.like(state().solo, { solo: true, index: 2, source: STEREO });
  t.like(state().audioRouting?.outputs[(1501 << 16) | 1], { name: 'Headphones', sourceId: (1 << 16) | 1 });
  await atem.setFairlightAudioRoutingOutputProperties((1501 << 16) | 1, { sourceId: (2 << 16) | 1 });
  t.is(state().audioRouting?.outputs[(1501 << 16) | 1]?.sourceId, (2 << 16) | 1);
  t.deepEqual(errors, []);
});

test('the camera control commands the switcher reads are the library serialize, read alike, and its reports the library deserialize, in every data type', (t) => {
  const { CameraControlCommand, CameraControlDataType: Type } = Commands;
  const packet = (type: import('atem-connection').Commands.CameraControlDataType, values: number[] | boolean[], relative = false) => ({
    type,
    boolData: type === Type.BOOL ? (values as boolean[]) : [],
    numberData: type === Type.BOOL ? [] : (values as number[]),
    bigintData: [],
    stringData: '',
    relative,
  });
  t.like(read(new CameraControlCommand(3, 0, 3, packet(Type.FLOAT, [0.5]))), {
    name: 'CCmd',
    camera: 3,
    category: 0,
    parameter: 3,
    relative: false,
    type: 'fixed16',
    values: '0.5',
  });
  t.like(read(new CameraControlCommand(1, 0, 0, packet(Type.FLOAT, [-0.25], true))), { relative: true, type: 'fixed16', values: '-0.25' });
  t.like(read(new CameraControlCommand(2, 0, 1, packet(Type.BOOL, []))), { type: 'bool', values: '' });
  t.like(read(new CameraControlCommand(2, 0, 6, packet(Type.BOOL, [true]))), { type: 'bool', values: '1' });
  t.like(read(new CameraControlCommand(4, 1, 13, packet(Type.SINT8, [-6], true))), {
    camera: 4,
    category: 1,
    parameter: 13,
    type: 'int8',
    values: '-6',
  });
  t.like(read(new CameraControlCommand(1, 1, 2, packet(Type.SINT16, [5600, -12]))), { type: 'int16', values: '5600 -12' });
  t.like(read(new CameraControlCommand(1, 1, 5, packet(Type.SINT32, [20000]))), { type: 'int32', values: '20000' });
  t.like(read(new CameraControlCommand(8, 8, 0, packet(Type.FLOAT, [0.125, -0.25, 0.375, 1.5]))), {
    category: 8,
    values: '0.125 -0.25 0.375 1.5',
  });
  const report = (c: Parameters<typeof camera.CCdP>[0]) => Commands.CameraControlUpdateCommand.deserialize(body(t, camera.CCdP(c), 'CCdP'));
  const at = { camera: 5, category: 4, parameter: 4, relative: false };
  t.like(report({ ...at, type: 'int8', values: [30] }), {
    source: 5,
    category: 4,
    parameter: 4,
    properties: { type: Type.SINT8, numberData: [30] },
  });
  t.like(report({ ...at, type: 'bool', values: [1] }).properties, { type: Type.BOOL, boolData: [true] });
  t.like(report({ ...at, type: 'int8', values: [2, 0, 0, 0, 0] }).properties, { numberData: [2, 0, 0, 0, 0] });
  t.like(report({ ...at, type: 'int16', values: [5600, -10] }).properties, { type: Type.SINT16, numberData: [5600, -10] });
  t.like(report({ ...at, type: 'int32', values: [20000] }).properties, { type: Type.SINT32, numberData: [20000] });
  t.like(report({ ...at, type: 'fixed16', values: [0.5, -1.25] }).properties, { type: Type.FLOAT, numberData: [0.5, -1.25] });
  const model = { product: 'ATEM', mixEffects: [], auxes: [], keyers: [], inputs: new Map(), macros: [], running: undefined };
  for (const version of [V8, V7]) {
    const top = (cameraControl: boolean) =>
      Commands.TopologyCommand.deserialize(encode._top({ ...model, version, cameraControl }).subarray(8), version).properties.cameraControl;
    t.true(top(true), `${version}`);
    t.false(top(false), `${version}`);
  }
});
