import { createServer } from 'node:net';
import test from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/http.ts';
import { param, startHub } from '../helpers/hub.ts';

test('_status/connected is false whenever the device cannot be reached, degraded included, and true again once it answers (R-DV5, R-L1)', async (t) => {
  const port = await freePort();
  const hub = await startHub(t, {
    connections: {
      router: { type: 'tcp-client', host: '127.0.0.1', port, connectTimeout: 500, statusParameters: true, parameters: ['dest/1,I'] },
      desk: { type: 'dummy', statusParameters: true, parameters: ['x,I'] },
    },
  });
  const connected = () => param(hub, 'router/_status/connected').value;
  await eventually(() => hub.connection('router')?.info.status === 'degraded', 'the router away');
  t.is(hub.connection('router')?.info.code, 'PB_DEVICE_UNAVAILABLE');
  t.is(connected(), false, 'degraded because the device is away: not connected');
  t.is(param(hub, 'desk/_status/connected').value, true);

  const router = createServer((socket) => socket.on('error', () => {}));
  await new Promise<void>((resolve) => router.listen(port, '127.0.0.1', resolve));
  t.teardown(() => router.close());
  await eventually(() => hub.connection('router')?.info.status === 'ok', 'the router answers', 10_000);
  t.is(connected(), true);
});
