/**
 * The hub's ember-consumer switching the matrices of a provider made with emberplus-connection's
 * own server (R-E2, R-G1, R-G4, R-G5): the stand-in device of spec/fixtures/ember-device.ts with
 * its router (a oneToN video matrix 4×8 with labels, an nToN audio matrix).
 */
import test from 'ava';
import type { SetResult } from '../../../lib/core/parameter.ts';
import type { Hub } from '../../../lib/hub/hub.ts';
import { type DeviceOptions, startDevice } from '../../helpers/ember.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';

const VIDEO = 'dev/device/router/video';
const AUDIO = 'dev/device/router/audio';

async function routerHub(t: Parameters<typeof startHub>[0], options: DeviceOptions = {}, settings: object = {}) {
  const device = await startDevice(t, { matrix: true, ...options });
  const hub = await startHub(t, { connections: { dev: { type: 'ember-consumer', host: '127.0.0.1', port: device.port, ...settings } } });
  return { device, hub };
}

const matrixRead = (hub: Hub, address = `${VIDEO}/targets/0/source`) =>
  eventually(() => hub.graph.get(address)?.value !== undefined, `${address} to be read`);

function written(hub: Hub, address: string, value: unknown): Promise<SetResult> {
  return new Promise((resolve) => {
    const taken = param(hub, address).set(value, 'spec', resolve);
    if (!taken.ok) resolve(taken);
  });
}

test('a oneToN matrix shows each target’s source as an integer (-1 for none), and the labels of its targets and sources', async (t) => {
  const { hub } = await routerHub(t);
  await matrixRead(hub);
  await eventually(() => hub.graph.get(`${VIDEO}/sources/7/label`)?.value !== undefined, 'the labels');
  t.deepEqual(
    hub.graph
      .byPrefix(`${VIDEO}/targets/`)
      .map((p) => [p.id, p.type, p.access, p.value])
      .sort(),
    [
      ['device/router/video/targets/0/label', 'S', 'read-only', 'Out 0'],
      ['device/router/video/targets/0/source', 'I', 'read-write', 1],
      ['device/router/video/targets/1/label', 'S', 'read-only', 'Out 1'],
      ['device/router/video/targets/1/source', 'I', 'read-write', 0],
      ['device/router/video/targets/2/label', 'S', 'read-only', 'Out 2'],
      ['device/router/video/targets/2/source', 'I', 'read-write', -1],
      ['device/router/video/targets/3/label', 'S', 'read-only', 'Out 3'],
      ['device/router/video/targets/3/source', 'I', 'read-write', -1],
    ].sort(),
  );
  t.is(param(hub, `${VIDEO}/sources/5/label`).value, 'In 5');
  t.is(hub.connection('dev')?.info.status, 'ok');
});

test('a write connects, answered once the provider confirms; a router panel’s change is followed', async (t) => {
  const { hub, device } = await routerHub(t);
  await matrixRead(hub);
  t.deepEqual(await written(hub, `${VIDEO}/targets/2/source`, 5), { ok: true, value: true });
  t.is(param(hub, `${VIDEO}/targets/2/source`).value, 5);
  t.deepEqual(await written(hub, `${VIDEO}/targets/0/source`, -1), { ok: true, value: true }, '-1 disconnects');
  t.is(param(hub, `${VIDEO}/targets/0/source`).value, -1);
  // The device says what it was asked on its output, which may come after its answer on the socket.
  await eventually(() => device.connects().length >= 2, 'the device to report both connects');
  t.deepEqual(device.connects(), ['1.10.1 2 [5]', '1.10.1 0 []']);
  device.route('1.10.1', 3, [6]);
  await eventually(() => param(hub, `${VIDEO}/targets/3/source`).value === 6, 'the panel’s route to be followed');
  t.pass();
});

test('an nToN matrix shows each target’s sources as a list; a write sets exactly those sources', async (t) => {
  const { hub, device } = await routerHub(t);
  await matrixRead(hub, `${AUDIO}/targets/2/sources`);
  t.deepEqual(
    hub.graph.byPrefix(`${AUDIO}/`).map((p) => [p.id, p.type, p.value]),
    [
      ['device/router/audio/targets/1/sources', 'S', '1,2'],
      ['device/router/audio/targets/2/sources', 'S', ''],
    ],
  );
  t.deepEqual(await written(hub, `${AUDIO}/targets/2/sources`, '3, 1'), { ok: true, value: true });
  t.is(param(hub, `${AUDIO}/targets/2/sources`).value, '1,3');
  t.deepEqual(await written(hub, `${AUDIO}/targets/1/sources`, ''), { ok: true, value: true });
  t.is(param(hub, `${AUDIO}/targets/1/sources`).value, '');
  // The device says what it was asked on its output, which may come after its answer on the socket.
  await eventually(() => device.connects().length >= 2, 'the device to report both connects');
  t.deepEqual(device.connects(), ['1.10.2 2 [3,1]', '1.10.2 1 []']);
});

test('a connect the provider refuses (locked) or changes is refused with what the provider holds, which the parameter shows', async (t) => {
  const { hub } = await routerHub(t, { lockedTarget: 1, oneSource: true });
  await matrixRead(hub);
  const locked = await written(hub, `${VIDEO}/targets/1/source`, 4);
  t.false(locked.ok);
  t.is(locked.ok ? undefined : locked.error.code, 'PB_BAD_ANSWER');
  t.regex(locked.ok ? '' : locked.error.message, /holds source 0 on target 1 \(the target is locked\)/);
  t.is(param(hub, `${VIDEO}/targets/1/source`).value, 0);
  const changed = await written(hub, `${AUDIO}/targets/2/sources`, '2,3');
  t.false(changed.ok);
  t.regex(changed.ok ? '' : changed.error.message, /holds source 2 on target 2$/);
  t.is(param(hub, `${AUDIO}/targets/2/sources`).value, '2');
});

test('a oneToOne matrix: a source connected to another target leaves the one it was on', async (t) => {
  const { hub } = await routerHub(t, { matrixType: 'ONE_TO_ONE' });
  await matrixRead(hub);
  t.deepEqual(await written(hub, `${VIDEO}/targets/3/source`, 1), { ok: true, value: true });
  await eventually(() => param(hub, `${VIDEO}/targets/0/source`).value === -1, 'target 0 to lose source 1');
  t.is(param(hub, `${VIDEO}/targets/3/source`).value, 1);
});

test('a source the matrix does not have is refused before anything is sent', async (t) => {
  const { hub, device } = await routerHub(t);
  await matrixRead(hub);
  await matrixRead(hub, `${AUDIO}/targets/1/sources`);
  const video = await written(hub, `${VIDEO}/targets/0/source`, 8);
  t.is(video.ok ? undefined : video.error.code, 'PB_CONVERSION');
  const audio = await written(hub, `${AUDIO}/targets/1/sources`, '1,x');
  t.is(audio.ok ? undefined : audio.error.code, 'PB_CONVERSION');
  t.deepEqual(device.connects(), []);
  t.is(param(hub, `${VIDEO}/targets/0/source`).value, 1);
});

test('a connect the provider never answers is refused with PB_DEVICE_TIMEOUT after `timeout` (R-G1)', async (t) => {
  const { hub } = await routerHub(t, { swallow: true }, { timeout: 200 });
  await matrixRead(hub);
  const result = await written(hub, `${VIDEO}/targets/0/source`, 3);
  t.is(result.ok ? undefined : result.error.code, 'PB_DEVICE_TIMEOUT');
  t.is(param(hub, `${VIDEO}/targets/0/source`).value, 1);
});

test('a provider that states a huge target count makes no more than maxParameters, degraded with the reason (R-G4)', async (t) => {
  const { hub } = await routerHub(t, { targetCount: 2_000_000_000 }, { maxParameters: 60 });
  await eventually(() => hub.connection('dev')?.info.status === 'degraded', 'the connection to be degraded');
  t.regex(hub.connection('dev')?.info.reason ?? '', /maxParameters \(60\)/);
  t.is(hub.graph.byPrefix('dev/').length, 60);
});

test('a router restarted: connects are refused at once while it is away, and switch it again once the matrix is read again', async (t) => {
  const captured = capturedLog();
  const device = await startDevice(t, { matrix: true });
  const hub = await startHub(
    t,
    { connections: { dev: { type: 'ember-consumer', host: '127.0.0.1', port: device.port } } },
    { log: captured.log },
  );
  const treesRead = () => captured.lines().filter((line) => line.msg.startsWith('tree read')).length;
  await matrixRead(hub);
  await eventually(() => treesRead() === 1, 'the first reading to end');
  await device.kill();
  await eventually(() => hub.connection('dev')?.info.status === 'degraded', 'the connection to show the router away');
  const refused = param(hub, `${VIDEO}/targets/2/source`).set(4, 'spec', () => t.fail('answered later'));
  t.is(refused.ok ? undefined : refused.error.code, 'PB_DEVICE_UNAVAILABLE');
  await device.restart({ matrix: true });
  await eventually(() => treesRead() === 2, 'the tree to be read again');
  t.deepEqual(await written(hub, `${VIDEO}/targets/2/source`, 4), { ok: true, value: true });
  await eventually(
    () => device.connects().includes('1.10.1 2 [4]'),
    () => `the new router to be asked, heard ${device.connects()}`,
  );
  t.is(param(hub, `${VIDEO}/targets/2/source`).value, 4);
});

test('a connect after a reconnect, before the matrix is read again, is refused at once rather than sent on the closed link', async (t) => {
  const { hub, device } = await routerHub(t, {}, { timeout: 5000 });
  await matrixRead(hub);
  await device.kill();
  await eventually(() => hub.connection('dev')?.info.status === 'degraded', 'the connection to show the router away');
  await device.restart({ matrix: true, silentTree: true });
  await eventually(() => hub.connection('dev')?.info.status === 'ok', 'the link to be up again');
  const result = await written(hub, `${VIDEO}/targets/2/source`, 4);
  t.is(result.ok ? undefined : result.error.code, 'PB_DEVICE_UNAVAILABLE');
  t.regex(result.ok ? '' : result.error.message, /read again after a reconnect/);
  const plain = await written(hub, 'dev/device/gain', 7);
  t.is(plain.ok ? undefined : plain.error.code, 'PB_DEVICE_UNAVAILABLE', 'a parameter’s write alike');
});
