import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeSync, constants, existsSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { EmberClient, type Model } from 'emberplus-connection';
import JSON5 from 'json5';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import type { Scheduler } from '../../lib/core/scheduler.ts';
import type { Hub } from '../../lib/hub/hub.ts';
import { ScriptedSatellite } from '../connections/satellite/scripted-satellite.ts';
import { RouterSimulator } from '../helpers/devices.ts';
import { startDevice } from '../helpers/ember.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';
import { param, record, startHub } from '../helpers/hub.ts';
import { canRunBroker, startBroker } from '../helpers/mosquitto.ts';
import { registry } from '../helpers/nmos-registry.ts';
import { shown, tslDisplays } from '../helpers/tsl-display.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';
import { canRunLiblo, oscsend, startDump, whyNoLiblo } from '../helpers/liblo.ts';
import { canRunXvfb, startXvfb, whyNoXvfb, xdotoolKey } from '../helpers/xvfb.ts';

type Document = { connections: Record<string, Record<string, unknown>>; rules?: unknown[]; flows?: string[] };

/** Runs an example of flows/examples, with `patch` applied (free ports, temp files). */
async function runExample(t: ExecutionContext, name: string, patch: (document: Document) => void = () => {}, scheduler?: Scheduler) {
  const path = fileURLToPath(new URL(`../../flows/examples/${name}`, import.meta.url));
  const document = JSON5.parse(readFileSync(path, 'utf8')) as Document;
  for (const connection of Object.values(document.connections)) {
    if (connection['type'] === 'rest-api') Object.assign(connection, { port: 0, bindIp: '127.0.0.1' });
  }
  patch(document);
  const hub = await startHub(t, document, { dir: dirname(path), ...(scheduler ? { scheduler } : {}) });
  // Every connection comes up. One with a mistake stays failed; a process the loaded machine
  // answered late may fail once and be started again (a Companion module's base gives its
  // host 5 s to answer its registration, then exits), as it would in a studio.
  const failed = () => hub.connections.filter((connection) => connection.status.status === 'failed');
  await eventually(
    () => failed().length === 0,
    () =>
      failed()
        .map((connection) => `${connection.id}: ${connection.status.reason}`)
        .join('; '),
  );
  t.deepEqual(failed(), [], 'every connection up');
  return hub;
}

const withSocat = spawnSync('socat', ['-V']).status === 0 ? test : test.skip;

const portOf = (hub: Hub) => hub.connection('api')?.info.details?.['port'] as number;

test('on-air light: the sign follows open microphones while the studio is armed, without flicker', async (t) => {
  const clock = new VirtualClock();
  const hub = await runExample(t, 'onair-light.json5', () => {}, clock.scheduler);
  const sign = record(t, param(hub, 'light/sign'), () => clock.now);
  param(hub, 'mics/mic/1/open').set(true);
  t.is(param(hub, 'light/sign').value, 'OFF AIR', 'not armed yet');
  param(hub, 'logic/logic/1').set(true);
  t.is(param(hub, 'light/onair').value, true);
  clock.advanceBy(1000);
  param(hub, 'mics/mic/1/open').set(false); // a pause between sentences
  clock.advanceBy(500);
  param(hub, 'mics/mic/2/open').set(true);
  clock.advanceBy(1000);
  param(hub, 'mics/mic/2/open').set(false);
  clock.advanceBy(3000);
  t.deepEqual(sign, [
    [0, 'ON AIR'],
    [4500, 'OFF AIR'],
  ]);
  t.is(param(hub, 'light/onair').value, false);
});

test('now playing: /update writes end up in the XML file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-np-'));
  const file = join(dir, 'nowplaying.xml');
  const hub = await runExample(t, 'now-playing.json5', (document) => {
    document.connections['nowplaying']!['filename'] = file;
  });
  const base = `http://127.0.0.1:${portOf(hub)}`;
  for (const [field, value] of [
    ['artist', 'New Order'],
    ['duration', '448'],
    ['title', 'Blue Monday & more'],
  ]) {
    t.is((await fetch(`${base}/update?parameter=song/${field}&value=${encodeURIComponent(value!)}`)).status, 200);
  }
  await hub.stop();
  const xml = await readFile(file, 'utf8');
  t.true(xml.includes('<title>Blue Monday &amp; more</title>'));
  t.true(xml.includes('<artist>New Order</artist>'));
  t.true(xml.includes('<duration unit="s">448</duration>'));
  t.regex(xml, /<updated>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z<\/updated>/);
});

(canRunXvfb ? test.serial : test.serial.skip)(
  `hotkey timer: ctrl+F1 starts the countdown, whose end types ctrl-shift-m${whyNoXvfb}`,
  async (t) => {
    const display = await startXvfb();
    const hub = await runExample(t, 'hotkey-timer.json5', (document) => {
      document.connections['countdown']!['timers'] = [{ duration: 300 }];
      // A second keyboard connection stands in for the application that receives the keys.
      document.connections['receiver'] = { type: 'keyboard', inputKeys: ['ctrl-shift-m'] };
    });
    const typed: number[] = [];
    const started = Date.now();
    param(hub, 'receiver/input/ctrl-shift-m').changes$.subscribe(() => typed.push(Date.now() - started));
    xdotoolKey(display, 'ctrl+F1');
    await eventually(() => typed.length > 0, 'the typed combination');
    t.is(typed.length, 1);
    t.true((typed[0] ?? 0) >= 300, 'the key comes after the countdown');
  },
);

test('level meter: dashboards get rate-limited, rounded levels and a peak hold', async (t) => {
  const clock = new VirtualClock();
  const hub = await runExample(t, 'level-meter.json5', () => {}, clock.scheduler);
  const meter = record(t, param(hub, 'meter/level'), () => clock.now);
  const level = param(hub, 'audio/level');
  // 200 levels a second for one second: a sweep up to -3.04 dB, then down.
  for (let i = 0; i < 200; i++) {
    level.set(i < 100 ? -60 + i * 0.5696 : -3.04 - (i - 100) * 0.3);
    clock.advanceBy(5);
  }
  clock.advanceBy(200);
  t.true(meter.length <= 11, `${meter.length} updates in a second`);
  t.true(
    meter.every(([, v]) => Number.isInteger((v as number) * 10)),
    'rounded to 0.1',
  );
  t.is(param(hub, 'peak-hold/peak').value, -3, 'the peak is held');
  clock.advanceBy(2500);
  level.set(-40);
  t.is(param(hub, 'peak-hold/peak').value, -40, 'after the hold time the peak follows the level');
  t.is(param(hub, 'meter/level').value, -40);
});

test('video router: routes polled once a second, a write and the take button send ROUTE commands', async (t) => {
  const router = new RouterSimulator(await freePort());
  await router.start();
  t.teardown(() => router.stop());
  const hub = await runExample(t, 'video-router.json5', (document) => {
    document.connections['router']!['port'] = router.port;
  });
  await eventually(() => hub.graph.get('router/dest/1')?.value === 3, 'route 1 read from the router');
  // Polled once a second: a loaded machine may have asked twice by now.
  t.true(router.heard.length > 0 && router.heard.every((line) => line === 'ROUTE?'), 'the router was asked, not told anything');
  const base = `http://127.0.0.1:${portOf(hub)}`;
  t.is((await fetch(`${base}/update?parameter=router/dest/2&value=5`)).status, 200);
  t.is((await fetch(`${base}/update?parameter=panel/take&value=`)).status, 200);
  await eventually(() => router.heard.includes('ROUTE 2 5') && router.heard.includes('ROUTE 1 7'), 'both commands');
  t.is(param(hub, 'router/dest/1').value, 7);
});

withSocat('GPIO on-air: a fader start on a serial GPIO box puts the studio on air and lights the sign', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-gpio-'));
  const pair = spawn('socat', [`pty,raw,echo=0,link=${join(dir, 'hub')}`, `pty,raw,echo=0,link=${join(dir, 'box')}`], { stdio: 'ignore' });
  t.teardown(() => pair.kill());
  await eventually(() => existsSync(join(dir, 'box')), 'the pty pair');
  const hub = await runExample(t, 'gpio-onair.json5', (document) => {
    document.connections['gpio']!['path'] = join(dir, 'hub');
  });
  await eventually(() => hub.connection('gpio')?.info.status === 'ok', 'the port open');
  const box = openSync(join(dir, 'box'), constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOCTTY);
  t.teardown(() => closeSync(box));
  writeSync(box, 'I2:1\r');
  await eventually(() => hub.graph.get('studio/onair')?.value === true, 'on air');
  let heard = '';
  await eventually(
    () => {
      const buffer = Buffer.alloc(256);
      try {
        heard += buffer.subarray(0, readSync(box, buffer)).toString();
      } catch {}
      return heard === 'R1:1\r';
    },
    () => `the sign's relay set, heard ${JSON.stringify(heard)}`,
  );
});

const liblo = canRunLiblo ? test : test.skip;

liblo(`OSC fader: the mixer moves the dashboard's fader and the dashboard moves the mixer's, with no echo${whyNoLiblo}`, async (t) => {
  const [listen, mixerPort] = [await freePort(), await freePort()];
  const mixer = await startDump(t, String(mixerPort));
  const hub = await runExample(t, 'osc-fader.json5', (document) => {
    Object.assign(document.connections['desk']!, { port: listen, bindIp: '127.0.0.1', sendPort: mixerPort });
  });
  await oscsend(listen, '/ch/01/mix/fader', 'f', '0.5');
  await eventually(() => param(hub, 'dashboard/fader').value === 0.5, "the dashboard's fader");
  param(hub, 'dashboard/fader').set(0.25, 'a dashboard');
  param(hub, 'dashboard/on').set(false, 'a dashboard');
  await mixer.until((line) => line.startsWith('/ch/01/mix/on'), 'the switch at the mixer');
  t.deepEqual(
    mixer.lines.filter((line) => line.startsWith('/ch/')),
    ['/ch/01/mix/fader f 0.250000', '/ch/01/mix/on F #F'],
    'the mixer hears the dashboard, never its own move back',
  );
  t.is(param(hub, 'desk/ch/01/fader').value, 0.25);
  t.deepEqual(hub.problems(), []);
});

test('ember studio: an Ember+ consumer reads the faders and on-air state, and its writes move them', async (t) => {
  const port = await freePort();
  const hub = await runExample(t, 'ember-studio.json5', (document) => {
    Object.assign(document.connections['ember']!, { port, bindIp: '127.0.0.1' });
  });
  // The library's own wait for an answer (3 s by default) is a bound on a stuck provider, not a
  // measure: a loaded two-core machine running the whole suite has taken longer.
  const client = new EmberClient('127.0.0.1', port, 15_000);
  // Its socket drops the provider when a keep-alive (every 10 s) is not answered within
  // 500 ms; on that machine, with the hub in this process, a slow turn is no dead provider.
  (client as unknown as { _client: { keepaliveMaxResponseTime: number } })._client.keepaliveMaxResponseTime = 15_000;
  t.teardown(() => client.discard());
  client.on('error', () => {});
  await client.connect();
  await client.expand(client.tree as never);
  const fader = (await client.getElementByPath('studio.fader.3')) as Model.TreeElement<Model.Parameter>;
  await (await client.setValue(fader as never, 0.8)).response;
  t.is(param(hub, 'studio/fader/3').value, 0.8);
  const onair = (await client.getElementByPath('studio.onair')) as Model.TreeElement<Model.Parameter>;
  param(hub, 'studio/onair').set(true);
  await eventually(() => onair.contents.value === true, 'the consumer to see the studio on air');
  const router = (await client.getElementByPath('ember.router')) as Model.TreeElement<Model.Matrix>;
  await (await client.matrixConnect(router as never, 1, [3])).response;
  t.is(param(hub, 'ember/router/targets/1/source').value, 3);
});

test('ember device dashboard: the device’s tree reaches the WebSocket and the MQTT topics, and writes reach the device', async (t) => {
  const device = await startDevice(t);
  const broker = canRunBroker ? await startBroker() : undefined;
  if (broker) t.teardown(() => broker.stop());
  const nowhere = `mqtt://127.0.0.1:${await freePort()}`;
  const hub = await runExample(t, 'ember-device-dashboard.json5', (document) => {
    Object.assign(document.connections['desk']!, { port: device.port });
    // Without Mosquitto the bus only tries to connect; the rest of the example runs the same.
    Object.assign(document.connections['bus']!, { url: broker?.url ?? nowhere });
  });
  await eventually(() => hub.graph.get('desk/device/gain')?.value === 5, 'the device’s tree to be read');
  const base = `http://127.0.0.1:${portOf(hub)}`;
  const socket = new WebSocket(`ws://127.0.0.1:${portOf(hub)}/ws?filter=${encodeURIComponent('^desk/device/gain$')}`);
  t.teardown(() => socket.close());
  const heard: string[] = [];
  socket.on('message', (data) => heard.push(String(data)));
  await new Promise((resolve) => socket.once('open', resolve));
  t.is(await (await fetch(`${base}/update?parameter=desk/device/gain&value=42`)).text(), 'OK');
  // The device says what it took on its output, which may come after its answer on the socket.
  await eventually(() => device.sets().length >= 1, 'the device to report its writes');
  t.deepEqual(device.sets(), ['1.1 42']);
  await eventually(() => heard.some((message) => message.includes('"v":"42"')), 'the dashboard to hear the new gain');
  if (broker) {
    const client = await mqtt.connectAsync(broker.url);
    t.teardown(() => client.endAsync());
    const retained = new Promise<string>((resolve) => client.on('message', (_topic, payload) => resolve(payload.toString())));
    await client.subscribeAsync('patchbay/desk/val/device/gain');
    t.is(await retained, '42');
  }
});

test('status poll: a player JSON status polled into parameters drives on-air, and the cue button posts the dashboard clip', async (t) => {
  const cues: string[] = [];
  let playing = false;
  const player = createServer((req, res) => {
    if (req.method === 'POST') cues.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ current: { name: 'Intro', remaining: 12.5 }, state: { playing } }));
  });
  await new Promise<void>((resolve) => player.listen(0, '127.0.0.1', resolve));
  t.teardown(() => player.close());
  const { port } = player.address() as AddressInfo;
  const hub = await runExample(t, 'status-poll.json5', (document) => {
    for (const request of document.connections['player']!['requests'] as { url: string }[])
      request.url = request.url.replace('${PLAYER_URL:-http://127.0.0.1:8080}', `http://127.0.0.1:${port}`);
  });
  await eventually(() => hub.graph.get('player/status/clip')?.value === 'Intro', 'the polled clip');
  t.is(param(hub, 'player/status/remaining').value, 12.5);
  t.is(param(hub, 'studio/onair').value, false);
  playing = true;
  await eventually(() => hub.graph.get('studio/onair')?.value === true, 'on air once the player plays');
  const base = `http://127.0.0.1:${portOf(hub)}`;
  t.is((await fetch(`${base}/update?parameter=panel/clip&value=Outro`)).status, 200);
  t.is((await fetch(`${base}/update?parameter=player/cue/send&value=`)).status, 200);
  t.deepEqual(cues, ['/api/cue?clip=Outro']);
});

test('scenes show: the news and sport scenes are stored and recalled, every setting at once, and the tally follows', async (t) => {
  const hub = await runExample(t, 'scenes-show.json5');
  const studio = () => ['lights/key', 'lights/color', 'camera', 'graphics/lower-third'].map((id) => param(hub, `studio/${id}`).value);
  param(hub, 'show/news/store').set(true);
  param(hub, 'studio/lights/key').set(1);
  param(hub, 'studio/lights/color').set('warm');
  param(hub, 'studio/camera').set(2);
  param(hub, 'studio/graphics/lower-third').set('Sport Tonight');
  t.true(param(hub, 'show/news/dirty').value);
  param(hub, 'show/sport/store').set(true);
  t.false(param(hub, 'studio/tally').value);

  param(hub, 'show/news/recall').set(true);
  t.deepEqual(studio(), [0.8, 'cold', 1, 'Evening News']);
  t.true(param(hub, 'studio/tally').value, 'camera 1 is on air');
  t.is(param(hub, 'show/news/report').value, '6 of 6 members recalled');
  t.true(param(hub, 'show/sport/dirty').value);
  param(hub, 'show/sport/recall').set(true);
  t.deepEqual(studio(), [1, 'warm', 2, 'Sport Tonight']);
  t.false(param(hub, 'studio/tally').value);
  t.false(param(hub, 'show/sport/dirty').value);
  t.deepEqual(hub.problems(), []);
});

test('schedule on air: the studio goes on air at 06:00 and off at 09:00 Berlin time on weekdays only', async (t) => {
  const clock = new VirtualClock();
  clock.scheduler.frame = Date.parse('2026-11-20T04:58:30Z'); // Friday, 05:58:30 in Berlin
  // The rest-api's own timers would run through four virtual days too: it is left out.
  const withoutApi = (document: Document) => delete document.connections['api'];
  const hub = await runExample(t, 'schedule-onair.json5', withoutApi, clock.scheduler);
  const onair = record(t, param(hub, 'studio/onair'), () => clock.now);
  t.is(param(hub, 'plan/show-start/next').value, '2026-11-20T06:00:00+01:00');
  t.is(param(hub, 'studio/clock').value, '05:58', 'the clock is shown from the start');
  clock.advanceBy(90_000);
  t.is(param(hub, 'studio/sign').value, 'ON AIR');
  t.is(param(hub, 'studio/clock').value, '06:00');
  clock.advanceBy(4 * 24 * 3_600_000); // through the weekend, to Tuesday 06:00
  t.deepEqual(
    onair.map(([at, value]) => [new Date(at).toISOString(), value]),
    [
      ['2026-11-20T05:00:00.000Z', true],
      ['2026-11-20T08:00:00.000Z', false],
      ['2026-11-23T05:00:00.000Z', true],
      ['2026-11-23T08:00:00.000Z', false],
      ['2026-11-24T05:00:00.000Z', true],
    ],
  );
});

test('stream deck: the on-air key toggles and shows the studio, camera keys show tally, the opening key recalls its scene (R-SU2)', async (t) => {
  const hub = await runExample(t, 'stream-deck.json5', (document) =>
    Object.assign(document.connections['desk'] as object, { port: 0, bindIp: '127.0.0.1' }),
  );
  const port = hub.connection('desk')?.info.details?.['port'] as number;
  // It answers the hub's pings, as Companion Satellite does: a silent one is dropped after 5 s,
  // which a loaded machine drawing the deck's first bitmaps can take.
  const satellite = await ScriptedSatellite.connect(t, port);
  satellite.keepAlive();
  satellite.addDevice('CL15K1A00001', 15, 5, 72);
  await eventually(() => hub.graph.get('desk/CL15K1A00001/connected')?.value === true, 'the deck added');
  const keyState = (key: number) =>
    satellite
      .received('KEY-STATE')
      .filter((state) => state['KEY'] === String(key))
      .at(-1)?.['COLOR'] ?? '';

  satellite.press('CL15K1A00001', 0, 0, true);
  await eventually(() => param(hub, 'studio/onair').value === true, 'on air');
  await eventually(
    () => keyState(0) === '#e00000',
    () => `the on-air key red (${keyState(0)})`,
  );
  param(hub, 'studio/camera/2/pgm').set(true);
  await eventually(() => keyState(2) === '#e00000', 'camera 2 tally');
  t.is(keyState(1), '#202020', 'camera 1 not on program');

  param(hub, 'show/opening/store').set(null);
  param(hub, 'studio/title').set('Late News');
  satellite.press('CL15K1A00001', 0, 4, true);
  await eventually(() => param(hub, 'studio/title').value === 'Morning News', 'the opening scene recalled');
});

test('tsl tally: each input on program lights its display red, on preview green, with its name (R-SU1)', async (t) => {
  const peerPort = await freePort();
  const heard = tslDisplays(t, peerPort);

  const hub = await runExample(t, 'tsl-tally.json5', (document) =>
    Object.assign(document.connections['umds'] as object, { host: '127.0.0.1', port: peerPort }),
  );
  await eventually(
    () => new Set(heard.filter((message) => message.display.text !== '').map((message) => message.index)).size === 3,
    () => `every display with its name: ${JSON.stringify(heard.slice(-4))}`,
  );
  param(hub, 'mixer/input/2/pgm').set(true);
  param(hub, 'mixer/input/3/pvw').set(true);
  await eventually(() => heard.some((message) => message.index === 2 && message.display.lh_tally === 1), 'input 2 red');
  await eventually(() => heard.some((message) => message.index === 3 && message.display.rh_tally === 2), 'input 3 green');
  t.is(heard.filter((message) => message.index === 3).at(-1)?.display.text, 'GFX');
});

test("companion lights: a Companion module's bound fader, a preset's key and its light, and a rule that darkens the house on air (R-CM5, R-CM7)", async (t) => {
  const hub = await runExample(t, 'companion-lights.json5');
  await eventually(
    () => hub.connection('lights')?.status.status === 'ok',
    () => `the module: ${JSON.stringify(hub.connection('lights')?.status)}`,
  );
  const base = `http://127.0.0.1:${portOf(hub)}`;
  const write = async (address: string, value: string) => (await fetch(`${base}/update?parameter=${address}&value=${value}`)).status;
  const read = async (address: string) => (await fetch(`${base}/parameters/${address}`)).text();
  t.is(await write('lights/wash', '60'), 200);
  await eventually(
    async () => (await read('lights/var/level_1')) === '60' && (await read('lights/wash/lit')) === 'true',
    'the wash at 60, lit',
  );
  t.is(await write('lights/wash', '101'), 400, "outside the module's range for the level");
  t.is(await write('lights/Desk_2/full', 'true'), 200);
  await eventually(async () => (await read('lights/Desk_2/full/lit')) === 'true', "the preset's light");
  t.is(await write('studio/onair', 'true'), 200);
  await eventually(
    async () => (await read('lights/var/level_1')) === '0' && (await read('lights/Desk_2/full/lit')) === 'false',
    'the house dark on air',
  );
});

test('midi fader: the fader moves the mixer level through the rule; without MIDI the faders say why and the rest runs (R-SU3)', async (t) => {
  const hub = await runExample(t, 'midi-fader.json5');
  await eventually(() => hub.connection('faders')?.info.status !== 'connecting', 'looked for the ports');
  const faders = hub.connection('faders')?.info;
  if (!existsSync('/dev/snd/seq')) t.regex(faders?.reason ?? '', /^no MIDI on this machine/);
  // What the fader reports, as its connection would on a control change.
  (param(hub, 'faders/176/1') as import('../../lib/core/parameter.ts').OwnedParameter).report(127);
  t.is(param(hub, 'mixer/channel/1/level').value, 10);
  (param(hub, 'faders/176/1') as import('../../lib/core/parameter.ts').OwnedParameter).report(0);
  t.is(param(hub, 'mixer/channel/1/level').value, -90);
});

test('nmos tally: the mixer’s tally registers as IS-07 sources, a receiver’s subscription follows input 2 onto program, and the gallery’s light and its TSL display follow the on-air source it is connected to (R-NM1, R-NM2, R-NM3)', async (t) => {
  const registered = await registry(t);
  const displayPort = await freePort();
  const heard = tslDisplays(t, displayPort);
  const hub = await runExample(t, 'nmos-tally.json5', (document) => {
    Object.assign(document.connections['node'] as object, {
      port: 0,
      bindIp: '127.0.0.1',
      host: '127.0.0.1',
      registries: [registered.url],
    });
    Object.assign(document.connections['umds'] as object, { host: '127.0.0.1', port: displayPort });
  });
  await eventually(
    () => registered.held.size === 2 + 3 * 10 + 1,
    'the node, its device, ten sources with their flows and senders, and the gallery’s receiver registered',
  );
  t.deepEqual(registered.invalid, []);
  const base = `http://127.0.0.1:${hub.connection('node')?.info.details?.['port']}`;
  const sources = (await (await fetch(`${base}/x-nmos/node/v1.3/sources`)).json()) as { id: string; label: string; event_type: string }[];
  const program2 = sources.find(({ label }) => label === 'On program (mixer/input/2/pgm)');
  t.is(program2?.event_type, 'boolean');
  t.is(sources.find(({ label }) => label.startsWith('Studio on air'))?.event_type, 'boolean/enum/onair');
  const socket = new WebSocket(`ws://127.0.0.1:${hub.connection('node')?.info.details?.['port']}/x-nmos/events/v1.0/socket`);
  t.teardown(() => socket.terminate());
  const values: unknown[] = [];
  socket.on('message', (data: Buffer) => values.push((JSON.parse(data.toString()) as { payload: { value: unknown } }).payload.value));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ command: 'subscription', sources: [program2?.id] }));
  await eventually(() => values.length === 1, 'the state on subscribing');
  param(hub, 'mixer/input/2/pgm').set(true);
  await eventually(() => values.length === 2, 'the change');
  t.deepEqual(values, [false, true]);
  // A controller connects the gallery's light to the studio's on-air sender, as it would any plant's.
  const connection = `${base}/x-nmos/connection/v1.1/single`;
  const onair = sources.find(({ label }) => label.startsWith('Studio on air'));
  const senders = (await (await fetch(`${base}/x-nmos/node/v1.3/senders`)).json()) as { id: string; label: string }[];
  const sender = senders.find(({ label }) => label === onair?.label) as { id: string };
  const { transport_params } = (await (await fetch(`${connection}/senders/${sender.id}/active`)).json()) as { transport_params: unknown[] };
  const [receiver] = (await (await fetch(`${base}/x-nmos/node/v1.3/receivers`)).json()) as { id: string; label: string }[];
  t.is(receiver?.label, 'Gallery on-air light');
  const patched = await fetch(`${connection}/receivers/${receiver?.id}/staged`, {
    method: 'PATCH',
    body: JSON.stringify({ sender_id: sender.id, master_enable: true, activation: { mode: 'activate_immediate' }, transport_params }),
  });
  t.is(patched.status, 200);
  param(hub, 'mixer/onair').set(true);
  await eventually(() => param(hub, 'gallery/onair').value === true, 'the gallery’s light on');
  // Through the rule, the gallery's TSL display: red while the plant's on-air source says so.
  await eventually(
    () => shown(heard, 1)?.lh_tally === 1,
    () => `the gallery display red: ${JSON.stringify(shown(heard, 1))}`,
  );
  param(hub, 'mixer/onair').set(false);
  await eventually(() => param(hub, 'gallery/onair').value === false, 'and off');
  await eventually(() => shown(heard, 1)?.lh_tally === 0, 'the gallery display dark');
});
