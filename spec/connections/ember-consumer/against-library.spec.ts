/**
 * The hub's ember-consumer against a provider made with emberplus-connection's own server
 * (R-E2, R-E3, R-G1–R-G5): the stand-in device of spec/fixtures/ember-device.ts.
 */
import test from 'ava';
import type { Hub } from '../../../lib/hub/hub.ts';
import type { SetResult } from '../../../lib/core/parameter.ts';
import { type StandInDevice, startDevice } from '../../helpers/ember.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';

async function consumerHub(
  t: Parameters<typeof startHub>[0],
  device: StandInDevice,
  settings: object = {},
  { connections = {}, rules = [] }: { connections?: object; rules?: object[] } = {},
) {
  const captured = capturedLog();
  const hub = await startHub(
    t,
    { connections: { dev: { type: 'ember-consumer', host: '127.0.0.1', port: device.port, ...settings }, ...connections }, rules },
    { log: captured.log },
  );
  return { hub, lines: captured.lines };
}

const treeRead = (hub: Hub, address = 'dev/device/outputs/left') =>
  eventually(() => hub.graph.get(address)?.value !== undefined, `${address} to be read`);

function written(hub: Hub, address: string, value: unknown): Promise<SetResult> {
  return new Promise((resolve) => {
    const taken = param(hub, address).set(value, 'spec', resolve);
    if (!taken.ok) resolve(taken);
  });
}

test('each Ember+ parameter shows at <connection>/<identifier path>, typed, with its access and value; enum names are in the details', async (t) => {
  const device = await startDevice(t);
  const { hub, lines } = await consumerHub(t, device);
  await treeRead(hub);
  t.deepEqual(
    hub.graph.byPrefix('dev/').map((p) => [p.id, p.type, p.access, p.value]),
    [
      ['device/gain', 'I', 'read-write', 5],
      ['device/mute', 'B', 'read-write', false],
      ['device/level', 'F', 'read-write', 0.5],
      ['device/label', 'S', 'read-write', 'Mic 1'],
      ['device/mode', 'I', 'read-write', 0],
      ['device/temperature', 'F', 'read-only', 36.5],
      ['device/outputs/left', 'I', 'read-write', 0],
    ],
  );
  t.deepEqual(hub.connection('dev')?.info.details?.['enums'], { 'device/mode': { 0: 'off', 1: 'auto', 2: 'manual' } });
  // What the provider says of a parameter, as the hub's parameter says it (R-PK6).
  t.deepEqual(hub.graph.get('dev/device/gain')?.meta, { label: 'Input gain', minimum: -20, maximum: 100 });
  t.deepEqual(hub.graph.get('dev/device/mode')?.meta, {
    choices: [
      { value: 0, label: 'off' },
      { value: 1, label: 'auto' },
      { value: 2, label: 'manual' },
    ],
  });
  t.like(
    await written(hub, 'dev/device/gain', 200),
    { ok: false, error: { code: 'PB_CONVERSION' } },
    'past its maximum: the provider is not asked',
  );
  t.is(hub.connection('dev')?.info.status, 'ok');
  const skipped = lines().filter((line) => line.msg.includes('skipped'));
  t.is(skipped.length, 1, 'one warning for the function');
  t.regex(skipped[0]?.msg ?? '', /device\/reset: skipped, a function is not supported/);
});

test('values follow the provider', async (t) => {
  const device = await startDevice(t);
  const { hub } = await consumerHub(t, device);
  await treeRead(hub);
  device.update('1.1', 77);
  device.update('1.4', 'Presenter');
  await eventually(() => param(hub, 'dev/device/gain').value === 77 && param(hub, 'dev/device/label').value === 'Presenter', 'the changes');
  t.pass();
});

test('a hub write is a setValue, answered once the provider confirms it, and the value is the provider’s', async (t) => {
  const device = await startDevice(t);
  const { hub } = await consumerHub(t, device);
  await treeRead(hub);
  t.deepEqual(await written(hub, 'dev/device/gain', '42'), { ok: true, value: true });
  t.is(param(hub, 'dev/device/gain').value, 42);
  t.deepEqual(await written(hub, 'dev/device/mute', true), { ok: true, value: true });
  t.deepEqual(await written(hub, 'dev/device/level', 0.25), { ok: true, value: true });
  t.deepEqual(await written(hub, 'dev/device/label', 'Guest'), { ok: true, value: true });
  t.deepEqual(await written(hub, 'dev/device/mode', 2), { ok: true, value: true });
  // The device says what it took on its output, which may come after its answer on the socket.
  await eventually(() => device.sets().length >= 5, 'the device to report its writes');
  t.deepEqual(device.sets(), ['1.1 42', '1.2 true', '1.3 0.25', '1.4 "Guest"', '1.5 2']);
  t.is(param(hub, 'dev/device/label').value, 'Guest');
});

test('the provider is told nothing at start: reading the tree sends no value', async (t) => {
  const device = await startDevice(t);
  const { hub } = await consumerHub(t, device);
  await treeRead(hub);
  t.deepEqual(device.sets(), []);
});

test('a write the provider never confirms is refused with PB_DEVICE_TIMEOUT after `timeout` (R-G1)', async (t) => {
  const device = await startDevice(t, { swallow: true });
  const { hub } = await consumerHub(t, device, { timeout: 200 });
  await treeRead(hub);
  const result = await written(hub, 'dev/device/gain', 9);
  t.false(result.ok);
  t.is(result.ok ? undefined : result.error.code, 'PB_DEVICE_TIMEOUT');
  t.is(param(hub, 'dev/device/gain').value, 5, 'the value stays the provider’s');
});

test('a provider killed and restarted: writes are refused at once while it is away, the tree is read again, and a rule waiting for a new parameter starts', async (t) => {
  const device = await startDevice(t);
  const { hub } = await consumerHub(
    t,
    device,
    {},
    {
      connections: { vars: { type: 'dummy', parameters: ['extra,I'] } },
      rules: [{ source: 'dev/device/extra', destinations: ['vars/extra'] }],
    },
  );
  await treeRead(hub);
  t.is(hub.rules()[0]?.code, 'PB_WAITING');
  await device.kill();
  await eventually(() => hub.connection('dev')?.info.status === 'degraded', 'the connection to show the provider away');
  const refused = param(hub, 'dev/device/gain').set(3, 'spec', () => t.fail('answered later'));
  t.false(refused.ok);
  t.is(refused.ok ? undefined : refused.error.code, 'PB_DEVICE_UNAVAILABLE');
  await device.restart({ extra: true });
  await eventually(() => hub.graph.get('dev/device/extra') !== undefined, 'the tree to be read again');
  await eventually(() => hub.rules()[0]?.status === 'running', 'the waiting rule to start');
  device.update('1.9', 12);
  await eventually(() => param(hub, 'vars/extra').value === 12, 'the rule to carry the new parameter’s value');
  t.is(hub.connection('dev')?.info.status, 'ok');
  t.deepEqual(await written(hub, 'dev/device/gain', 8), { ok: true, value: true }, 'a write after the reconnect reaches the new provider');
  // The stand-in device reports what it was set from its own process: a moment later.
  await eventually(
    () => device.sets().includes('1.1 8'),
    () => `the new provider set, heard ${JSON.stringify(device.sets())}`,
  );
  // The device says what it took on its output, which may come after its answer on the socket.
  await eventually(() => device.sets().length >= 1, 'the device to report its writes');
  t.deepEqual(device.sets(), ['1.1 8']);
});

test('a parameter the provider no longer has after a restart goes, and the rules that use it wait again', async (t) => {
  const device = await startDevice(t, { extra: true });
  const { hub } = await consumerHub(t, device);
  await treeRead(hub, 'dev/device/extra');
  await device.restart({});
  await eventually(() => hub.graph.get('dev/device/extra') === undefined, 'the parameter to go');
  t.is(param(hub, 'dev/device/gain').value, 5);
});

test('`paths` reads only the subtrees it names', async (t) => {
  const device = await startDevice(t);
  const { hub } = await consumerHub(t, device, { paths: ['device/outputs'] });
  await treeRead(hub);
  t.deepEqual(
    hub.graph.byPrefix('dev/').map((p) => p.id),
    ['device/outputs/left'],
  );
});

test('past maxParameters nothing more is made and the connection is degraded with the reason; the hub runs on (R-G4)', async (t) => {
  const device = await startDevice(t);
  const { hub } = await consumerHub(t, device, { maxParameters: 3 });
  await eventually(() => hub.connection('dev')?.info.status === 'degraded', 'the connection to be degraded');
  t.regex(hub.connection('dev')?.info.reason ?? '', /maxParameters \(3\)/);
  t.is(hub.graph.byPrefix('dev/').length, 3);
  t.deepEqual(await written(hub, 'dev/device/gain', 8), { ok: true, value: true });
});
