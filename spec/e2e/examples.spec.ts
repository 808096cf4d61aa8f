import { readFileSync } from 'node:fs';
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
import { startDevice } from '../helpers/ember.ts';
import { eventually } from '../helpers/eventually.ts';
import { param, record, startHub } from '../helpers/hub.ts';
import { canRunBroker, startBroker } from '../helpers/mosquitto.ts';
import { freePort } from '../helpers/ports.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';
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
  for (const connection of hub.connections) t.not(connection.status.status, 'failed', `${connection.id}: ${connection.status.reason}`);
  return hub;
}

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

test('ember studio: an Ember+ consumer reads the faders and on-air state, and its writes move them', async (t) => {
  const port = await freePort();
  const hub = await runExample(t, 'ember-studio.json5', (document) => {
    Object.assign(document.connections['ember']!, { port, bindIp: '127.0.0.1' });
  });
  const client = new EmberClient('127.0.0.1', port);
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
