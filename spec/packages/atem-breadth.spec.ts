/**
 * The `atem` package's breadth beside Companion's module (R-DV4): keyers upstream and
 * downstream, transitions and fade to black, macros, media, multiviewers, SuperSource,
 * streaming and recording, input names — each read from the switcher onto
 * labelled parameters (R-PK6), each write reaching the switcher as its command, each change on
 * the switcher's panel reported — against the simulator of spec/helpers/atem-switcher.ts,
 * whose encoding is checked against atem-connection's own in spec/helpers/atem-switcher*.spec.ts.
 */
import test, { type ExecutionContext } from 'ava';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { AtemSwitcher, type SwitcherOptions } from '../helpers/atem-switcher.ts';
import { STEREO } from '../helpers/atem-switcher-fairlight.ts';
import { eventually } from '../helpers/eventually.ts';
import type { HubProcess } from '../helpers/hub-process.ts';
import { connectionOf, hubWithPackage, update } from '../helpers/outside-package.ts';

const meta = async (hub: HubProcess, address: string) =>
  ((await (await fetch(`${hub.base}/parameters?meta=1&filter=^${address}$`)).json()) as { meta?: ParameterMeta }[])[0]?.meta;

const reads = (hub: HubProcess, address: string, value: string, what: string) =>
  eventually(async () => (await hub.read(address)) === value, `${what}: ${address} is ${value}`, 10_000);

async function connected(t: ExecutionContext, options: SwitcherOptions = {}) {
  const device = await AtemSwitcher.start(options);
  t.teardown(() => device.close());
  const hub = await hubWithPackage(t, 'atem', {
    mixer: { type: 'atem', host: '127.0.0.1', port: device.port, timeout: 3000, connectTimeout: 3000 },
  });
  await eventually(async () => (await connectionOf(hub, 'mixer'))?.status === 'ok', 'the switcher is up', 20_000);
  await reads(hub, 'mixer/device/model', 'ATEM Simulated 2 M/E', 'the state is read');
  return { device, hub };
}

/** A write the switcher took, and the command it heard. */
async function writes(t: ExecutionContext, hub: HubProcess, device: AtemSwitcher, address: string, value: string, command: string) {
  const before = device.heard.length;
  t.deepEqual(await update(hub, address, value), { status: 200 }, `${address} = ${value}`);
  t.true(
    device.heard.slice(before).some((heard) => heard.name === command),
    `${address} = ${value} reached the switcher as ${command}`,
  );
}

test.serial(
  'keyers upstream and downstream: on air, type, sources, flying key, rate — labelled, commanded, followed (R-DV4, R-PK6)',
  async (t) => {
    const { device, hub } = await connected(t);
    t.is(await hub.read('mixer/me/1/usk/2/onAir'), 'false');
    t.is(await hub.read('mixer/me/1/usk/2/type'), 'luma');
    t.is(await hub.read('mixer/me/1/usk/1/fill'), '3010');
    t.is(await hub.read('mixer/me/1/usk/1/key'), '3011');
    t.is(await hub.read('mixer/me/1/usk/1/keyframe'), 'none');
    t.is(await hub.read('mixer/dsk/2/rate'), '25');
    t.is(await hub.read('mixer/dsk/1/fill'), '3010');
    t.like(await meta(hub, 'mixer/me/2/usk/1/onAir'), { label: 'M/E 2 key 1 on air' });
    t.like(await meta(hub, 'mixer/me/1/usk/1/type'), { label: 'M/E 1 key 1 type' });
    t.deepEqual(
      (await meta(hub, 'mixer/me/1/usk/1/type'))?.choices?.map((c) => c.value),
      ['luma', 'chroma', 'pattern', 'dve'],
    );
    t.like(
      (await meta(hub, 'mixer/me/1/usk/1/fill'))?.choices?.find((c) => c.value === 3010),
      { label: '3010: Media Player 1' },
    );
    t.like(
      (await meta(hub, 'mixer/dsk/1/key'))?.choices?.find((c) => c.value === 2001),
      { label: '2001: Color 1' },
    );
    t.like(await meta(hub, 'mixer/dsk/1/rate'), { label: 'DSK 1 rate', unit: 'frames', minimum: 1, maximum: 250 });

    await writes(t, hub, device, 'mixer/me/1/usk/2/onAir', 'true', 'CKOn');
    await reads(hub, 'mixer/me/1/usk/2/onAir', 'true', 'the key on air');
    t.true(device.keyers.upstream[0]![1]!.onAir);
    await writes(t, hub, device, 'mixer/me/1/usk/2/type', 'dve', 'CKTp');
    await reads(hub, 'mixer/me/1/usk/2/type', 'dve', 'the type');
    t.is(device.keyers.upstream[0]![1]!.type, 3);
    await writes(t, hub, device, 'mixer/me/1/usk/2/sources', '{"fill": 2001, "key": 2002}', 'CKeF');
    await reads(hub, 'mixer/me/1/usk/2/key', '2002', 'fill and key in one write');
    t.like(device.keyers.upstream[0]![1], { fill: 2001, cut: 2002 });
    t.deepEqual(JSON.parse((await hub.read('mixer/me/1/usk/2/sources')) ?? ''), { fill: 2001, key: 2002 });
    await writes(t, hub, device, 'mixer/me/1/usk/2/mask', '{"enabled": true, "top": 3.5, "right": 16}', 'CKMs');
    await reads(hub, 'mixer/me/1/usk/2/mask', JSON.stringify({ enabled: true, top: 3.5, bottom: 0, left: 0, right: 16 }), 'the key masked');
    t.deepEqual(device.keyers.upstream[0]![1]!.mask, { enabled: true, sides: [3500, 0, 0, 16000] });
    t.like((await meta(hub, 'mixer/me/1/usk/2/pattern'))?.arguments?.['style']?.choices?.[5], {
      value: 'rectangle-iris',
      label: 'Rectangle Iris',
    });
    await writes(t, hub, device, 'mixer/me/1/usk/2/pattern', '{"style": "rectangle-iris", "size": 25, "y": 0.9, "invert": true}', 'CKPt');
    await reads(
      hub,
      'mixer/me/1/usk/2/pattern',
      JSON.stringify({ style: 'rectangle-iris', size: 25, symmetry: 50, softness: 0, x: 0.5, y: 0.9, invert: true }),
      'the pattern',
    );
    t.like(device.keyers.upstream[0]![1]!.pattern, { style: 5, size: 2500, y: 9000, invert: true });
    await writes(t, hub, device, 'mixer/me/1/usk/2/store/b', 'true', 'SFKF');
    await reads(hub, 'mixer/me/1/usk/2/stored/b', 'true', 'keyframe B stored');
    await writes(t, hub, device, 'mixer/me/1/usk/2/keyframe', 'b', 'RFlK');
    await reads(hub, 'mixer/me/1/usk/2/keyframe', 'b', 'at keyframe B');
    await writes(t, hub, device, 'mixer/me/1/usk/2/infinite', 'top-left', 'RFlK');
    await reads(hub, 'mixer/me/1/usk/2/keyframe', 'infinite', 'flown to infinite');
    t.is(await hub.read('mixer/me/1/usk/2/infinite'), 'top-left');

    await writes(t, hub, device, 'mixer/dsk/2/fill', '1000', 'CDsF');
    await reads(hub, 'mixer/dsk/2/fill', '1000', 'the DSK fill');
    t.is(device.keyers.downstream[1]!.fill, 1000);
    await writes(t, hub, device, 'mixer/dsk/2/rate', '40', 'CDsR');
    await reads(hub, 'mixer/dsk/2/rate', '40', 'the DSK rate');
    t.deepEqual(JSON.parse((await hub.read('mixer/dsk/2/premultiplied')) ?? ''), { preMultiply: true, clip: 0, gain: 0, invert: false });
    await writes(t, hub, device, 'mixer/dsk/2/premultiplied', '{"preMultiply": false, "clip": 50, "gain": 25.5}', 'CDsG');
    await reads(
      hub,
      'mixer/dsk/2/premultiplied',
      JSON.stringify({ preMultiply: false, clip: 50, gain: 25.5, invert: false }),
      'the key shaped',
    );
    await writes(t, hub, device, 'mixer/dsk/2/mask', '{"enabled": true, "top": 4.5, "left": -16}', 'CDsM');
    await reads(hub, 'mixer/dsk/2/mask', JSON.stringify({ enabled: true, top: 4.5, bottom: 0, left: -16, right: 0 }), 'the mask');
    t.like(await update(hub, 'mixer/dsk/2/mask', '{"top": 10}'), { status: 400, code: 'PB_CONVERSION' });

    // Refused before the switcher hears them: a type not named, a source not an input, a rate out of range.
    const before = device.heard.length;
    t.like(await update(hub, 'mixer/me/1/usk/1/type', 'spin'), { status: 400, code: 'PB_CONVERSION' });
    t.like(await update(hub, 'mixer/dsk/1/fill', '77'), { status: 400, code: 'PB_CONVERSION' });
    t.like(await update(hub, 'mixer/dsk/1/rate', '251'), { status: 400, code: 'PB_CONVERSION' });
    t.is(device.heard.length, before);

    // The switcher's own panel.
    device.panel('CKOn', { me: 1, keyer: 0, onAir: true });
    await reads(hub, 'mixer/me/2/usk/1/onAir', 'true', 'the panel keyed M/E 2');
    device.panel('CDsC', { keyer: 0, source: 2002 });
    await reads(hub, 'mixer/dsk/1/key', '2002', 'the panel set the DSK key');
  },
);

test.serial(
  'transitions and fade to black: layers, preview, the rates of each style, the T-bar, fade to black; macros loop and continue (R-DV4, R-PK6)',
  async (t) => {
    const { device, hub } = await connected(t, { waitingMacros: [1] });
    t.is(await hub.read('mixer/me/1/transition/next/background'), 'true');
    t.is(await hub.read('mixer/me/1/transition/next/key1'), 'false');
    t.deepEqual(JSON.parse((await hub.read('mixer/me/1/transition/selection')) ?? ''), { background: true, key1: false, key2: false });
    t.is(await hub.read('mixer/me/1/transition/dip/rate'), '25');
    t.is(await hub.read('mixer/me/1/ftb/black'), 'false');
    t.is(await hub.read('mixer/me/1/ftb/rate'), '25');
    t.like(await meta(hub, 'mixer/me/1/transition/wipe/rate'), { label: 'M/E 1 Wipe rate', unit: 'frames' });
    t.like(await meta(hub, 'mixer/me/1/transition/position'), { label: 'M/E 1 T-bar', minimum: 0, maximum: 1 });
    t.like(await meta(hub, 'mixer/me/1/ftb/auto'), { label: 'M/E 1 fade to black' });
    t.like(await meta(hub, 'mixer/macro/loop'), { label: 'Loop macros' });

    await writes(t, hub, device, 'mixer/me/1/transition/next/key1', 'true', 'CTTp');
    await reads(hub, 'mixer/me/1/transition/next/key1', 'true', 'key 1 in the next transition');
    await writes(t, hub, device, 'mixer/me/1/transition/selection', '{"background": false, "key2": true}', 'CTTp');
    await reads(hub, 'mixer/me/1/transition/next/key2', 'true', 'key 2 added');
    t.is(await hub.read('mixer/me/1/transition/next/background'), 'false');
    t.is(await hub.read('mixer/me/1/transition/next/key1'), 'true', 'a layer not named is kept');
    // By what the transition leaves: key 1 is off air, so `on` takes it in; key 2 is off air, so `off` leaves it out.
    await writes(t, hub, device, 'mixer/me/1/transition/layers', '{"background": "include", "key1": "on", "key2": "off"}', 'CTTp');
    await reads(hub, 'mixer/me/1/transition/selection', JSON.stringify({ background: true, key1: true, key2: false }), 'the layers');
    await writes(t, hub, device, 'mixer/me/1/transition/preview', 'true', 'CTPr');
    await reads(hub, 'mixer/me/1/transition/preview', 'true', 'the preview');
    await writes(t, hub, device, 'mixer/me/1/transition/dip/rate', '40', 'CTDp');
    await writes(t, hub, device, 'mixer/me/1/transition/wipe/rate', '50', 'CTWp');
    await writes(t, hub, device, 'mixer/me/1/transition/dve/rate', '60', 'CTDv');
    await reads(hub, 'mixer/me/1/transition/dve/rate', '60', 'the DVE rate');
    t.like(device.transitions.of[0], { dipRate: 40, wipeRate: 50, dveRate: 60 });

    const [program, preview] = [device.program(0), device.preview(0)];
    await writes(t, hub, device, 'mixer/me/1/transition/position', '0.5', 'CTPs');
    await reads(hub, 'mixer/me/1/transition/running', 'true', 'half-way');
    t.is(await hub.read('mixer/me/1/transition/position'), '0.5');
    await writes(t, hub, device, 'mixer/me/1/transition/position/fade', '{"to": 1, "ms": 300}', 'CTPs');
    await reads(hub, 'mixer/me/1/program', String(preview), 'the T-bar at its end took the transition');
    t.is(device.program(0), preview);
    t.is(device.preview(0), program);

    await writes(t, hub, device, 'mixer/me/1/ftb/rate', '5', 'FtbC');
    await reads(hub, 'mixer/me/1/ftb/rate', '5', 'the fade rate');
    await writes(t, hub, device, 'mixer/me/1/ftb/auto', 'true', 'FtbA');
    await reads(hub, 'mixer/me/1/ftb/black', 'true', 'faded to black');
    t.true(device.transitions.of[0]!.black);

    await writes(t, hub, device, 'mixer/macro/loop', 'true', 'MRCP');
    await reads(hub, 'mixer/macro/loop', 'true', 'macros loop');
    await writes(t, hub, device, 'mixer/macro/continue', 'true', 'MAct');
    // Macro 2 (Break) waits once started: run/continue runs it, then continues it.
    await writes(t, hub, device, 'mixer/macro/2/runContinue', 'true', 'MAct');
    await reads(hub, 'mixer/macro/waiting', 'true', 'the macro waits');
    t.is(await hub.read('mixer/macro/running'), '2');
    t.like(device.heard.at(-1), { name: 'MAct', fields: { index: 1, action: 0 } });
    await writes(t, hub, device, 'mixer/macro/2/runContinue', 'true', 'MAct');
    t.like(device.heard.at(-1), { name: 'MAct', fields: { action: 4 } }, 'continued, not run again');
    await reads(hub, 'mixer/macro/waiting', 'false', 'continued');
    t.is(await hub.read('mixer/macro/1/used'), 'true');
    t.is(await hub.read('mixer/macro/4/used'), 'false');

    // The panel.
    device.panel('FtbA', { me: 1 });
    await reads(hub, 'mixer/me/2/ftb/running', 'true', 'the panel fades M/E 2');
    await reads(hub, 'mixer/me/2/ftb/black', 'true', 'M/E 2 black');
  },
);

test.serial(
  'media players, multiviewer layouts and windows, SuperSource boxes, streaming, recording, startup state, timecode and input names (R-DV4, R-PK6)',
  async (t) => {
    const { device, hub } = await connected(t);
    t.is(await hub.read('mixer/mp/1/source'), 'still/1');
    t.is(await hub.read('mixer/media/still/2/name'), 'Lower third');
    t.is(await hub.read('mixer/media/still/5/name'), '');
    t.like(
      (await meta(hub, 'mixer/mp/1/source'))?.choices?.find((c) => c.value === 'still/3'),
      { label: 'Still 3: Slate' },
    );
    t.truthy((await meta(hub, 'mixer/mp/1/source'))?.choices?.find((c) => c.value === 'clip/2'));
    t.is(await hub.read('mixer/mv/1/window/3/source'), '1');
    t.like(await meta(hub, 'mixer/mv/1/window/3/source'), { label: 'Multiviewer 1 window 3' });
    t.like(
      (await meta(hub, 'mixer/mv/1/window/3/source'))?.choices?.find((c) => c.value === 6000),
      { label: '6000: SuperSource' },
    );
    t.is(await hub.read('mixer/ssrc/1/box/2/enabled'), 'true');
    t.is(await hub.read('mixer/ssrc/1/box/3/enabled'), 'false');
    t.is(await hub.read('mixer/ssrc/1/box/1/x'), '-8');
    t.is(await hub.read('mixer/ssrc/1/box/1/size'), '0.5');
    t.like(await meta(hub, 'mixer/ssrc/1/box/1/x'), { label: 'SuperSource 1 box 1 x', minimum: -48, maximum: 48 });
    t.is(await hub.read('mixer/stream/state'), 'idle');
    t.is(await hub.read('mixer/stream/on'), 'false');
    t.deepEqual(JSON.parse((await hub.read('mixer/stream/service')) ?? ''), { service: 'YouTube', url: 'rtmp://a.rtmp.youtube.com/live2' });
    t.is(await hub.read('mixer/record/filename'), 'Show');
    t.is(await hub.read('mixer/record/iso'), 'false');
    t.is(await hub.read('mixer/input/1000/name'), 'Color Bars');

    await writes(t, hub, device, 'mixer/mp/1/source', 'still/3', 'MPSS');
    await reads(hub, 'mixer/mp/1/source', 'still/3', 'the player plays the slate');
    t.like(device.media.players[0], { type: 1, still: 2 });
    await writes(t, hub, device, 'mixer/mp/1/next', 'true', 'MPSS');
    await reads(hub, 'mixer/mp/1/source', 'still/4', 'the next still');
    await writes(t, hub, device, 'mixer/mp/1/source', 'clip/2', 'MPSS');
    await reads(hub, 'mixer/mp/1/source', 'clip/2', 'a clip');
    await writes(t, hub, device, 'mixer/mp/1/slot', '{"slot": "Lower third"}', 'MPSS');
    await reads(hub, 'mixer/mp/1/source', 'still/2', 'a still by its name');
    await writes(t, hub, device, 'mixer/mp/1/slot', '{"slot": "1", "clip": true}', 'MPSS');
    await reads(hub, 'mixer/mp/1/source', 'clip/1', 'a clip by its place');
    t.like(await update(hub, 'mixer/mp/1/slot', '{"slot": "Nothing"}'), { status: 400, code: 'PB_CONVERSION' });
    await writes(t, hub, device, 'mixer/media/capture', 'true', 'Capt');
    await reads(hub, 'mixer/media/still/4/name', 'Capture 4', 'a still captured');
    await eventually(
      async () => (await meta(hub, 'mixer/mp/1/source'))?.choices?.find((c) => c.value === 'still/4')?.label === 'Still 4: Capture 4',
      'the captured still among the choices',
    );
    await writes(t, hub, device, 'mixer/media/still/1/clear', 'true', 'CSTL');
    await reads(hub, 'mixer/media/still/1/name', '', 'the still cleared');
    t.is(device.media.stills[0], undefined);

    t.deepEqual(JSON.parse((await hub.read('mixer/mv/1/layout')) ?? ''), {
      topLeft: false,
      topRight: false,
      bottomLeft: true,
      bottomRight: true,
    });
    await writes(t, hub, device, 'mixer/mv/1/layout', '{"bottomLeft": false, "topRight": true}', 'CMvP');
    await reads(
      hub,
      'mixer/mv/1/layout',
      JSON.stringify({ topLeft: false, topRight: true, bottomLeft: false, bottomRight: true }),
      'the layout',
    );
    t.is(device.views.layouts[0], 2 | 8, 'a quarter not named kept');
    t.is(await hub.read('mixer/timecode/mode'), 'free-run');
    await writes(t, hub, device, 'mixer/timecode/mode', 'time-of-day', 'CTCC');
    await reads(hub, 'mixer/timecode/mode', 'time-of-day', 'the timecode mode');
    await writes(t, hub, device, 'mixer/timecode/set', '10:00:00', 'Time');
    t.is(device.outputs.now.time, '10:00:00:00');
    t.is(await hub.read('mixer/clock/state'), 'stopped');
    t.is(await hub.read('mixer/clock/start'), '00:05:00');
    await writes(t, hub, device, 'mixer/clock/start', '00:10:00', 'DCPC');
    await reads(hub, 'mixer/clock/start', '00:10:00', 'the clock starts from 10 minutes');
    await writes(t, hub, device, 'mixer/clock/start/step', '-90', 'DCPC');
    await reads(hub, 'mixer/clock/start', '00:08:30', 'a minute and a half less');
    await writes(t, hub, device, 'mixer/clock/properties', '{"enabled": true, "size": 0.8, "x": -12.5, "mode": "countup"}', 'DCPC');
    await reads(
      hub,
      'mixer/clock/properties',
      JSON.stringify({ enabled: true, size: 0.8, opacity: 1, x: -12.5, y: 0, autoHide: false, mode: 'countup' }),
      'the clock shown',
    );
    t.like(device.clock.now, { enabled: true, size: 80, x: -12500, mode: 1 });
    await writes(t, hub, device, 'mixer/clock/state', 'running', 'DCSC');
    await reads(hub, 'mixer/clock/state', 'running', 'the clock runs');
    const heard = device.heard.length;
    t.like(await update(hub, 'mixer/timecode/set', 'ten'), { status: 400, code: 'PB_CONVERSION' });
    t.is(device.heard.length, heard, 'a time that is none is not sent');
    await writes(t, hub, device, 'mixer/mv/1/window/5/source', '6000', 'CMvI');
    await reads(hub, 'mixer/mv/1/window/5/source', '6000', 'the window');
    t.is(device.views.multiviewers[0]![4], 6000);

    await writes(t, hub, device, 'mixer/ssrc/1/box/3/enabled', 'true', 'CSBP');
    await writes(t, hub, device, 'mixer/ssrc/1/box/3/source', '5', 'CSBP');
    await writes(t, hub, device, 'mixer/ssrc/1/box/3/x', '12.5', 'CSBP');
    await writes(t, hub, device, 'mixer/ssrc/1/box/3/size', '0.25', 'CSBP');
    await writes(t, hub, device, 'mixer/ssrc/1/box/3/cropped', 'true', 'CSBP');
    await reads(hub, 'mixer/ssrc/1/box/3/cropped', 'true', 'the box');
    await writes(t, hub, device, 'mixer/ssrc/1/box/3/crop/left', '4.5', 'CSBP');
    await reads(hub, 'mixer/ssrc/1/box/3/crop/left', '4.5', 'the crop');
    t.deepEqual(device.views.superSources[0]![2]!.crop, [0, 0, 4500, 0]);
    t.like(device.views.superSources[0]![2], { enabled: true, source: 5, x: 1250, size: 250, cropped: true });
    t.is(await hub.read('mixer/ssrc/1/box/3/x'), '12.5');
    await writes(t, hub, device, 'mixer/ssrc/1/box/3/offset', '{"x": -2.5, "size": 0.9}', 'CSBP');
    await reads(hub, 'mixer/ssrc/1/box/3/x', '10', 'moved by an offset');
    t.is(await hub.read('mixer/ssrc/1/box/3/size'), '1', 'within its range');

    t.is(await hub.read('mixer/ssrc/1/art/fill'), '3010');
    t.is(await hub.read('mixer/ssrc/1/art/option'), 'background');
    t.like(
      (await meta(hub, 'mixer/ssrc/1/art/key'))?.choices?.find((c) => c.value === 3011),
      { label: '3011: Media Player 1 Key' },
    );
    await writes(t, hub, device, 'mixer/ssrc/1/art/option', 'foreground', 'CSSc');
    await reads(hub, 'mixer/ssrc/1/art/option', 'foreground', 'the art in front');
    await writes(t, hub, device, 'mixer/ssrc/1/art', '{"fill": 2001, "preMultiplied": false, "clip": 40}', 'CSSc');
    await reads(hub, 'mixer/ssrc/1/art/fill', '2001', 'the art');
    t.like(device.views.art[0], { fill: 2001, option: 1, preMultiplied: false, clip: 400 });
    t.deepEqual(JSON.parse((await hub.read('mixer/ssrc/1/art')) ?? ''), {
      fill: 2001,
      key: 3011,
      option: 'foreground',
      preMultiplied: false,
      clip: 40,
      gain: 0,
      invert: false,
    });

    await writes(t, hub, device, 'mixer/stream/service', '{"service": "Twitch", "key": "secret"}', 'CRSS');
    await reads(hub, 'mixer/stream/service', JSON.stringify({ service: 'Twitch', url: 'rtmp://a.rtmp.youtube.com/live2' }), 'the service');
    t.is(device.outputs.now.key, 'secret');
    await writes(t, hub, device, 'mixer/stream/on', 'true', 'StrR');
    await reads(hub, 'mixer/stream/state', 'streaming', 'streaming');
    await writes(t, hub, device, 'mixer/record/filename', 'Take 2', 'CRMS');
    await writes(t, hub, device, 'mixer/record/on', 'true', 'RcTM');
    await reads(hub, 'mixer/record/state', 'recording', 'recording');
    t.is(await hub.read('mixer/record/filename'), 'Take 2');
    await writes(t, hub, device, 'mixer/record/iso', 'true', 'ISOi');
    await reads(hub, 'mixer/record/iso', 'true', 'ISO');
    await writes(t, hub, device, 'mixer/record/switchDisk', 'true', 'RMSp');
    t.deepEqual(device.outputs.now.disks, [2, 1]);
    await writes(t, hub, device, 'mixer/startup/save', 'true', 'SRsv');
    await writes(t, hub, device, 'mixer/startup/clear', 'true', 'SRcl');
    t.like(device.outputs.now, { saved: 1, cleared: 1 });

    await writes(t, hub, device, 'mixer/input/3/names', '{"long": "Host", "short": "HOST"}', 'CInL');
    await reads(hub, 'mixer/input/3/shortName', 'HOST', 'both names');
    t.is(await hub.read('mixer/input/3/name'), 'Host');

    // The panel: a still into the player, a window, a box, streaming stopped.
    device.panel('MPSS', { flag: 3, player: 0, type: 1, still: 1 });
    await reads(hub, 'mixer/mp/1/source', 'still/2', 'the panel set the player');
    device.panel('CMvI', { mv: 0, window: 9, source: 1000 });
    await reads(hub, 'mixer/mv/1/window/10/source', '1000', 'the panel set a window');
    device.panel('CSBP', { flag: 1, ssrc: 0, box: 0, enabled: false });
    await reads(hub, 'mixer/ssrc/1/box/1/enabled', 'false', 'the panel turned a box off');
    device.panel('StrR', { streaming: false });
    await reads(hub, 'mixer/stream/on', 'false', 'the panel stopped streaming');
  },
);

test.serial(
  'classic audio: each channel on, off or following video, its gain and balance, the master, peaks reset (R-DV4, R-PK6)',
  async (t) => {
    const { device, hub } = await connected(t);
    t.is(await hub.read('mixer/audio/input/1/mix'), 'afv');
    t.is(await hub.read('mixer/audio/input/2001/mix'), 'off');
    t.is(await hub.read('mixer/audio/input/1/gain'), '0');
    t.is(await hub.read('mixer/audio/master/balance'), '0');
    t.like(await meta(hub, 'mixer/audio/input/1/gain'), { label: 'Audio 1 gain', unit: 'dB', minimum: -60, maximum: 6 });
    t.deepEqual(
      (await meta(hub, 'mixer/audio/input/1/mix'))?.choices?.map((c) => c.value),
      ['off', 'on', 'afv'],
    );

    await writes(t, hub, device, 'mixer/audio/input/2/mix', 'on', 'CAMI');
    await reads(hub, 'mixer/audio/input/2/mix', 'on', 'the channel on');
    t.is(device.audio?.channels.get(2)?.mixOption, 1);
    await writes(t, hub, device, 'mixer/audio/input/2/gain', '-6', 'CAMI');
    await reads(hub, 'mixer/audio/input/2/gain', '-6', 'the gain');
    t.is(device.audio?.channels.get(2)?.gain, 16422, '-6 dB as the switcher says it');
    await writes(t, hub, device, 'mixer/audio/input/2/balance', '-25', 'CAMI');
    await reads(hub, 'mixer/audio/input/2/balance', '-25', 'the balance');
    await writes(t, hub, device, 'mixer/audio/master/gain', '-3', 'CAMM');
    await reads(hub, 'mixer/audio/master/gain', '-3', 'the master');
    await writes(t, hub, device, 'mixer/audio/master/balance', '10', 'CAMM');
    await reads(hub, 'mixer/audio/master/balance', '10', 'the master balance');
    await writes(t, hub, device, 'mixer/audio/input/2/resetPeaks', 'true', 'RAMP');
    t.like(device.audio?.resets.at(-1), { channel: 2 });
    await writes(t, hub, device, 'mixer/audio/resetPeaks', 'true', 'RAMP');
    t.like(device.audio?.resets.at(-1), { all: true });
    await writes(t, hub, device, 'mixer/audio/monitor/resetPeaks', 'true', 'RAMP');
    t.like(device.audio?.resets.at(-1), { monitor: true });
    t.like(await update(hub, 'mixer/audio/input/2/gain', '7'), { status: 400, code: 'PB_CONVERSION' });
    // A knob's step, from where the switcher is.
    await writes(t, hub, device, 'mixer/audio/input/2/gain/step', '-4', 'CAMI');
    await reads(hub, 'mixer/audio/input/2/gain', '-10', '-6 dB and a step of -4');
    // A fade: 25 values a second along its curve, the last the target; a write stops one under way.
    const before = device.heard.length;
    await writes(
      t,
      hub,
      device,
      'mixer/audio/input/2/gain/fade',
      '{"to": -30, "ms": 400, "algorithm": "cubic", "curve": "ease-out"}',
      'CAMI',
    );
    await reads(hub, 'mixer/audio/input/2/gain', '-30', 'faded down');
    const steps = device.heard.slice(before).filter((heard) => heard.name === 'CAMI');
    t.true(steps.length >= 8, `${steps.length} values over 400 ms`);
    t.true(
      steps.some((heard) => Number(heard.fields['gain']) > 1037 && Number(heard.fields['gain']) < 10000),
      'values between -10 and -30 dB on the way',
    );
    await writes(t, hub, device, 'mixer/audio/master/gain/fade', '{"by": -20, "ms": 2000}', 'CAMM');
    await writes(t, hub, device, 'mixer/audio/master/gain/fade', '{"to": 0, "ms": 0}', 'CAMM');
    await reads(hub, 'mixer/audio/master/gain', '0', 'a fade at once');
    const stopped = device.heard.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.is(device.heard.slice(stopped).filter((heard) => heard.name === 'CAMM').length, 0, 'the slow fade stopped by the one after it');
    await writes(t, hub, device, 'mixer/audio/master/balance/step', '5', 'CAMM');
    await reads(hub, 'mixer/audio/master/balance', '15', 'the master balance a step right');
    t.is(await hub.read('mixer/fairlight/master/fader'), 'HTTP 404', 'no Fairlight parameters on a classic mixer');

    device.panel('CAMI', { flag: 1, channel: 3, mixOption: 0 });
    await reads(hub, 'mixer/audio/input/3/mix', 'off', 'the panel muted a channel');
  },
);

test.serial(
  "Fairlight audio: each source's fader, gain, delay, balance and mix, the master, the monitor and its feeds, solo, steps, peaks (R-DV4, R-PK6)",
  async (t) => {
    const { device, hub } = await connected(t, { audio: 'fairlight' });
    const source = `mixer/fairlight/input/2/${STEREO}`;
    await reads(hub, `${source}/mix`, 'afv', 'the Fairlight mixer is read');
    t.is(await hub.read(`${source}/fader`), '0');
    t.is(await hub.read(`${source}/delay`), '0');
    t.is(await hub.read('mixer/fairlight/monitor/talkback/muted'), 'true');
    t.is(await hub.read('mixer/fairlight/monitor/solo'), '');
    t.is(await hub.read('mixer/audio/input/1/mix'), 'HTTP 404', 'no classic parameters beside Fairlight');
    t.like(await meta(hub, `${source}/fader`), { label: `Fairlight 2 (${STEREO}) fader`, unit: 'dB', minimum: -100, maximum: 10 });
    t.like(await meta(hub, `${source}/delay`), { unit: 'frames', minimum: 0, maximum: 8 });

    await writes(t, hub, device, `${source}/fader`, '-15', 'CFSP');
    await reads(hub, `${source}/fader`, '-15', 'the fader');
    t.is(device.fairlight?.inputs.get(2)?.faderGain, -1500);
    await writes(t, hub, device, `${source}/fader/fade`, '{"to": -40, "ms": 200, "algorithm": "bounce", "curve": "ease-in-out"}', 'CFSP');
    await reads(hub, `${source}/fader`, '-40', 'the fader faded');
    await writes(t, hub, device, `${source}/fader`, '-15', 'CFSP');
    await reads(hub, `${source}/fader`, '-15', 'the fader set');
    await writes(t, hub, device, `${source}/fader/step`, '2.5', 'CFSP');
    await reads(hub, `${source}/fader`, '-12.5', 'a step up');
    await writes(t, hub, device, `${source}/gain`, '3', 'CFSP');
    await writes(t, hub, device, `${source}/delay`, '4', 'CFSP');
    await writes(t, hub, device, `${source}/balance`, '-20', 'CFSP');
    await writes(t, hub, device, `${source}/mix`, 'on', 'CFSP');
    await reads(hub, `${source}/mix`, 'on', 'the source on');
    t.like(device.fairlight?.inputs.get(2), { gain: 300, framesDelay: 4, balance: -4000, mixOption: 2 });
    await writes(t, hub, device, `${source}/delay/step`, '-1', 'CFSP');
    await reads(hub, `${source}/delay`, '3', 'a frame less');
    await writes(t, hub, device, 'mixer/fairlight/master/fader', '-3', 'CFMP');
    await reads(hub, 'mixer/fairlight/master/fader', '-3', 'the master');
    await writes(t, hub, device, 'mixer/fairlight/monitor/talkback/muted', 'false', 'CFMH');
    await reads(hub, 'mixer/fairlight/monitor/talkback/muted', 'false', 'talkback open');
    await writes(t, hub, device, 'mixer/fairlight/monitor/sidetone/gain', '-6', 'CFMH');
    await reads(hub, 'mixer/fairlight/monitor/sidetone/gain', '-6', 'sidetone');
    await writes(t, hub, device, 'mixer/fairlight/monitor/gain/step', '-2', 'CFMH');
    await reads(hub, 'mixer/fairlight/monitor/gain', '-2', 'the monitor a step down');
    await writes(t, hub, device, 'mixer/fairlight/monitor/solo', `2/${STEREO}`, 'CFMS');
    await reads(hub, 'mixer/fairlight/monitor/solo', `2/${STEREO}`, 'solo');
    await writes(t, hub, device, 'mixer/fairlight/monitor/solo', '', 'CFMS');
    await reads(hub, 'mixer/fairlight/monitor/solo', '', 'solo off');
    await writes(t, hub, device, `${source}/resetPeaks`, 'true', 'RFIP');
    await writes(t, hub, device, 'mixer/fairlight/resetPeaks', 'true', 'RFLP');
    t.like(device.fairlight?.resets.at(-1), { name: 'RFLP', all: true });

    // Routing: each output's source, and one source to several outputs at once.
    t.is(await hub.read('mixer/fairlight/routing/1501-1/source'), String((1 << 16) | 1));
    t.like(await meta(hub, 'mixer/fairlight/routing/1502-1/source'), { label: 'Routing Monitor' });
    t.like(
      (await meta(hub, 'mixer/fairlight/routing/1502-1/source'))?.choices?.find((c) => c.value === ((2 << 16) | 1)),
      { label: 'Camera 2' },
    );
    await writes(t, hub, device, 'mixer/fairlight/routing', JSON.stringify({ source: (2 << 16) | 1, to: '1501-1 1502-1' }), 'AROC');
    await reads(hub, 'mixer/fairlight/routing/1502-1/source', String((2 << 16) | 1), 'camera 2 to the monitor');
    t.is(await hub.read('mixer/fairlight/routing/1501-1/source'), String((2 << 16) | 1), 'and to the headphones');
    t.like(await update(hub, 'mixer/fairlight/routing', JSON.stringify({ source: (1 << 16) | 1, to: '9-9' })), {
      status: 400,
      code: 'PB_CONVERSION',
    });
    await writes(t, hub, device, 'mixer/fairlight/routing/1501-1/source', String((1 << 16) | 1), 'AROC');
    await reads(hub, 'mixer/fairlight/routing/1501-1/source', String((1 << 16) | 1), 'one output');

    device.panel('CFSP', { flag: 128, input: 3, source: STEREO, faderGain: -2000 });
    await reads(hub, `mixer/fairlight/input/3/${STEREO}/fader`, '-20', 'the desk moved a fader');
  },
);
