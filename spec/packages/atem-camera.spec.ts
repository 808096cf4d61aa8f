/**
 * The `atem` package's camera control (R-DV4): each camera parameter written through a hub
 * reaches the switcher simulator (spec/helpers/atem-switcher.ts) as one camera control command
 * — the camera (its input's number), the protocol's category and parameter, absolute or an
 * offset, the data type and the values — as Blackmagic's camera control protocol has them.
 * The simulator's decoding is checked against atem-connection's own `CameraControlCommand` in
 * spec/helpers/atem-switcher-breadth.spec.ts; no real camera is behind it.
 */
import test, { type ExecutionContext } from 'ava';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { AtemSwitcher, type SwitcherOptions } from '../helpers/atem-switcher.ts';
import type { CameraCommand } from '../helpers/atem-switcher-camera.ts';
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
  await eventually(async () => (await hub.read('mixer/device/model')) === 'ATEM Simulated 2 M/E', 'the state is read', 10_000);
  return { device, hub };
}

/** A write the switcher took, and the camera commands it heard for it. */
async function sends(
  t: ExecutionContext,
  hub: HubProcess,
  device: AtemSwitcher,
  address: string,
  value: string,
  ...expected: CameraCommand[]
) {
  const before = device.cameras.commands.length;
  t.deepEqual(await update(hub, address, value), { status: 200 }, `${address} = ${value}`);
  t.deepEqual(device.cameras.commands.slice(before), expected, `${address} = ${value}`);
}

const lens = (camera: number, parameter: number, type: string, values: number[], relative = false): CameraCommand => ({
  camera,
  category: 0,
  parameter,
  relative,
  type,
  values,
});
const video = (camera: number, parameter: number, type: string, values: number[], relative = false): CameraCommand => ({
  ...lens(camera, parameter, type, values, relative),
  category: 1,
});
const color = (camera: number, parameter: number, values: number[]): CameraCommand => ({
  ...lens(camera, parameter, 'fixed16', values),
  category: 8,
});

test.serial('camera control: lens, video, display, media and colour correction, each as its command (R-DV4, R-PK6)', async (t) => {
  const { device, hub } = await connected(t, { cameraControl: true });
  t.like(await meta(hub, 'mixer/camera/3/iris'), { label: 'Camera 3 iris', minimum: 0, maximum: 1 });
  t.like(await meta(hub, 'mixer/camera/8/gain'), { label: 'Camera 8 gain', unit: 'dB' });
  t.is(await meta(hub, 'mixer/camera/1000/iris'), undefined, 'colour bars are not a camera');

  // Lens (category 0).
  await sends(t, hub, device, 'mixer/camera/2/focus', '0.25', lens(2, 0, 'fixed16', [0.25]));
  await sends(t, hub, device, 'mixer/camera/2/focus/step', '-0.125', lens(2, 0, 'fixed16', [-0.125], true));
  await sends(t, hub, device, 'mixer/camera/2/autoFocus', 'true', lens(2, 1, 'bool', []));
  await sends(t, hub, device, 'mixer/camera/3/iris', '0.5', lens(3, 3, 'fixed16', [0.5]));
  await sends(t, hub, device, 'mixer/camera/3/iris/fStop', '5.6', lens(3, 2, 'fixed16', [Math.round(5.6 * 2048) / 2048]));
  await sends(t, hub, device, 'mixer/camera/3/iris/step', '-1', lens(3, 2, 'fixed16', [-1], true));
  await sends(t, hub, device, 'mixer/camera/3/autoIris', 'true', lens(3, 5, 'bool', []));
  await sends(t, hub, device, 'mixer/camera/4/stabilisation', 'true', lens(4, 6, 'bool', [1]));
  await reads(hub, 'mixer/camera/4/stabilisation', 'true', 'the camera reports stabilisation on');
  await sends(t, hub, device, 'mixer/camera/4/stabilisation', 'false', lens(4, 6, 'bool', [0]));
  await reads(hub, 'mixer/camera/4/stabilisation', 'false', 'and off');
  await sends(t, hub, device, 'mixer/camera/4/zoom/speed', '-0.5', lens(4, 9, 'fixed16', [-0.5]));

  // Video (category 1).
  await sends(t, hub, device, 'mixer/camera/1/gain', '12', video(1, 13, 'int8', [12]));
  await sends(t, hub, device, 'mixer/camera/1/gain/step', '-6', video(1, 13, 'int8', [-6], true));
  await sends(t, hub, device, 'mixer/camera/1/whiteBalance', '{"temperature": 3200, "tint": -10}', video(1, 2, 'int16', [3200, -10]));
  await sends(t, hub, device, 'mixer/camera/1/whiteBalance/step', '{"temperature": 100, "tint": 5}', video(1, 2, 'int16', [100, 5], true));
  await sends(t, hub, device, 'mixer/camera/1/autoWhiteBalance', 'true', video(1, 3, 'bool', []));
  await sends(t, hub, device, 'mixer/camera/1/exposure', '20000', video(1, 5, 'int32', [20000]));
  await sends(t, hub, device, 'mixer/camera/1/shutter', '50', video(1, 5, 'int32', [20000]));
  await reads(hub, 'mixer/camera/1/exposure', '20000', 'the camera reports its exposure');
  await sends(t, hub, device, 'mixer/camera/1/shutter/step', 'up', video(1, 5, 'int32', [16667]));
  await reads(hub, 'mixer/camera/1/exposure', '16667', 'a step up: 1/60 s');
  await sends(t, hub, device, 'mixer/camera/1/shutter/step', 'down', video(1, 5, 'int32', [20000]));
  await reads(hub, 'mixer/camera/1/exposure', '20000', 'a step down: 1/50 s again');
  await sends(t, hub, device, 'mixer/camera/1/exposure', '19000', video(1, 5, 'int32', [19000]));
  await reads(hub, 'mixer/camera/1/exposure', '19000', 'between two usual speeds');
  await sends(t, hub, device, 'mixer/camera/1/shutter/step', 'down', video(1, 5, 'int32', [20000]));
  await sends(t, hub, device, 'mixer/camera/1/detail', 'medium', video(1, 8, 'int8', [2]));
  await sends(t, hub, device, 'mixer/camera/1/nd', '4', video(1, 16, 'fixed16', [4]));

  // Display (4) and media (10).
  await sends(t, hub, device, 'mixer/camera/5/colorBars', 'true', { ...lens(5, 4, 'int8', [30]), category: 4 });
  await reads(hub, 'mixer/camera/5/colorBars', 'true', 'the camera reports its bars');
  await sends(t, hub, device, 'mixer/camera/5/colorBars', 'false', { ...lens(5, 4, 'int8', [0]), category: 4 });
  await reads(hub, 'mixer/camera/5/colorBars', 'false', 'and none');
  await sends(t, hub, device, 'mixer/camera/5/record', 'true', { ...lens(5, 1, 'int8', [2, 0, 0, 0, 0]), category: 10 });
  await reads(hub, 'mixer/camera/5/record', 'true', 'the camera reports it records');
  await sends(
    t,
    hub,
    device,
    'mixer/camera/record',
    '{"on": false, "cameras": "1 6 99"}',
    { ...lens(1, 1, 'int8', [0, 0, 0, 0, 0]), category: 10 },
    { ...lens(6, 1, 'int8', [0, 0, 0, 0, 0]), category: 10 },
  );
  await reads(hub, 'mixer/camera/6/record', 'false', 'camera 6 reports it stopped');

  // Colour correction (category 8): red, green, blue, luma.
  await sends(
    t,
    hub,
    device,
    'mixer/camera/6/lift',
    '{"red": 0.25, "green": -0.5, "blue": 0, "luma": 0.125}',
    color(6, 0, [0.25, -0.5, 0, 0.125]),
  );
  await sends(t, hub, device, 'mixer/camera/6/gamma', '{"luma": -1}', color(6, 1, [0, 0, 0, -1]));
  await sends(t, hub, device, 'mixer/camera/6/colorGain', '{"red": 2}', color(6, 2, [2, 1, 1, 1]));
  await sends(t, hub, device, 'mixer/camera/6/offset', '{"blue": -3.5}', color(6, 3, [0, 0, -3.5, 0]));
  await sends(t, hub, device, 'mixer/camera/6/contrast', '{"pivot": 0.25, "adjust": 1.5}', color(6, 4, [0.25, 1.5]));
  await sends(t, hub, device, 'mixer/camera/6/lumaMix', '0.75', color(6, 5, [0.75]));
  await sends(t, hub, device, 'mixer/camera/6/hueSaturation', '{"hue": -0.5, "saturation": 1.25}', color(6, 6, [-0.5, 1.25]));

  // Refused before the switcher hears them: out of range, a level not named.
  const before = device.cameras.commands.length;
  t.like(await update(hub, 'mixer/camera/3/iris', '1.5'), { status: 400, code: 'PB_CONVERSION' });
  t.like(await update(hub, 'mixer/camera/1/gain', '200'), { status: 400, code: 'PB_CONVERSION' });
  t.like(await update(hub, 'mixer/camera/1/detail', 'crisp'), { status: 400, code: 'PB_CONVERSION' });
  t.like(
    await update(hub, 'mixer/camera/7/shutter/step', 'up'),
    { status: 400, code: 'PB_CONVERSION' },
    'camera 7 never reported its exposure',
  );
  t.is(device.cameras.commands.length, before);
});

test.serial('a switcher that does not say it has camera control has no camera parameters', async (t) => {
  const { hub } = await connected(t);
  t.is(await meta(hub, 'mixer/camera/1/iris'), undefined);
  t.is(await meta(hub, 'mixer/camera/record'), undefined);
});
