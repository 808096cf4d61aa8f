import test from 'ava';
import { RouterSimulator } from '../../helpers/devices.ts';
import { eventually } from '../../helpers/eventually.ts';
import { freePort } from '../../helpers/http.ts';
import { param, startHub } from '../../helpers/hub.ts';

// A router that speaks lines over TCP (a plain `net` server): `ROUTE <dst> <src>` sets a
// route and is answered with every route, as `ROUTE?` is.
const router = (port: number) => ({
  type: 'tcp-client',
  host: '127.0.0.1',
  port,
  parameters: ['dest/1,I', 'dest/2,I'],
  receive: [{ match: '^ROUTE (?P<dst>\\d+) (?P<src>\\d+)$', set: { 'dest/$dst': '$src' } }],
  send: [
    { parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\r\n' },
    { parameter: 'dest/2', frame: 'ROUTE 2 $VALUE\r\n' },
  ],
  poll: [{ frame: 'ROUTE?\r\n', every: 100 }],
  timeout: 500,
});

async function studioWithRouter(t: Parameters<typeof startHub>[0]) {
  const device = new RouterSimulator(await freePort());
  await device.start();
  t.teardown(() => device.stop());
  const hub = await startHub(t, {
    connections: {
      router: router(device.port),
      studio: { type: 'dummy', parameters: ['title,S,News'] },
      show: { type: 'scenes', scenes: [{ id: 'news', members: ['router/#', 'studio/title'] }] },
    },
  });
  await eventually(() => hub.graph.get('router/dest/2')?.value === 4, 'the routes read from the router');
  return { device, hub };
}

test('a recall reaches the device: each routed member is sent to it, and once the device answers with the scene it is no longer dirty', async (t) => {
  const { device, hub } = await studioWithRouter(t);
  param(hub, 'show/news/store').set(true);
  t.regex(String(param(hub, 'show/news/report').value), /^3 members stored/);
  device.routes.set(1, 9).set(2, 8);
  await eventually(
    () => hub.graph.get('router/dest/1')?.value === 9 && hub.graph.get('router/dest/2')?.value === 8,
    'routes changed at the router',
  );
  t.true(param(hub, 'show/news/dirty').value);

  device.heard.length = 0;
  param(hub, 'show/news/recall').set(true);
  await eventually(() => device.heard.includes('ROUTE 2 4'), 'the recalled routes at the router');
  t.deepEqual(
    device.heard.filter((line) => line.startsWith('ROUTE ')),
    ['ROUTE 1 3', 'ROUTE 2 4'],
  );
  await eventually(() => param(hub, 'show/news/dirty').value === false, 'the router said the scene back: no longer dirty');
  t.is(param(hub, 'show/news/report').value, '3 of 3 members recalled');
});

test('a member the device refuses (it went away) is reported and listed as a problem of the scene until a recall is taken whole, and the other members are still written (R-RS6)', async (t) => {
  const { device, hub } = await studioWithRouter(t);
  param(hub, 'show/news/store').set(true);
  param(hub, 'studio/title').set('Sport');
  await device.stop();
  await eventually(() => hub.connection('router')?.info.status === 'degraded', 'the router gone');
  param(hub, 'show/news/recall').set(true);
  t.is(param(hub, 'studio/title').value, 'News');
  t.is(
    param(hub, 'show/news/report').value,
    '1 of 3 members recalled; refused: router/dest/1 (PB_DEVICE_UNAVAILABLE), router/dest/2 (PB_DEVICE_UNAVAILABLE)',
  );
  const sceneProblem = () => hub.problems().find((problem) => problem.id === 'show' && problem.part === 'scene news');
  t.like(sceneProblem(), {
    source: 'connection',
    code: 'PB_DEVICE_UNAVAILABLE',
    message: 'recall: 1 of 3 members recalled; refused: router/dest/1 (PB_DEVICE_UNAVAILABLE), router/dest/2 (PB_DEVICE_UNAVAILABLE)',
  });

  await device.start();
  await eventually(() => hub.connection('router')?.info.status === 'ok', 'the router back', 10_000);
  param(hub, 'show/news/recall').set(true);
  await eventually(() => param(hub, 'show/news/report').value === '3 of 3 members recalled', 'recalled whole');
  t.is(sceneProblem(), undefined, 'a recall taken whole ends the problem');
});

test('a recall while the previous one is still on its way to the device: both are sent, in order, so the later scene lands last', async (t) => {
  const device = new RouterSimulator(await freePort());
  await device.start();
  t.teardown(() => device.stop());
  const hub = await startHub(t, {
    connections: {
      router: router(device.port),
      show: {
        type: 'scenes',
        scenes: [
          { id: 'a', members: ['router/dest/1'] },
          { id: 'b', members: ['router/dest/1'] },
        ],
      },
    },
  });
  await eventually(() => hub.graph.get('router/dest/1')?.value === 3, 'route read');
  param(hub, 'show/a/store').set(true);
  device.routes.set(1, 5);
  await eventually(() => hub.graph.get('router/dest/1')?.value === 5, 'route changed');
  param(hub, 'show/b/store').set(true);

  device.heard.length = 0;
  param(hub, 'show/a/recall').set(true);
  param(hub, 'show/b/recall').set(true);
  await eventually(() => device.heard.filter((line) => line.startsWith('ROUTE 1')).length === 2, 'both recalls at the router');
  t.deepEqual(
    device.heard.filter((line) => line.startsWith('ROUTE 1')),
    ['ROUTE 1 3', 'ROUTE 1 5'],
  );
  await eventually(() => device.routes.get(1) === 5 && hub.graph.get('router/dest/1')?.value === 5, 'scene b in place');
  t.is(param(hub, 'show/b/report').value, '1 of 1 members recalled');
});
