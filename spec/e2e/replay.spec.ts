/**
 * Nothing that hubs share can be played back (R-AV3). Each spec is an attack: a client that
 * reads the broker (as any client with read access may) captures what the hubs publish,
 * waits for a takeover or a restart, and plays it back; the hubs refuse it and count it in
 * `/metrics` (`patchbay_mqtt_dropped_messages_total{reason="replayed"}`, or `"refused"`
 * for role records the group's rules do not allow).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import mqtt, { type IClientPublishOptions, type MqttClient } from 'mqtt';
import { Signer } from '../../lib/broker/signing.ts';
import { withBroker } from '../helpers/broker-tests.ts';
import { recordingDevice } from '../helpers/devices.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { type Broker, canRunBroker, startBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey, siteKeyFile } from '../helpers/site-key.ts';

let broker: Broker | undefined;
let brokerLog = '';
test.beforeEach(async () => {
  if (!canRunBroker) return;
  await broker?.stop();
  brokerLog = join(await mkdtemp(join(tmpdir(), 'patchbay-replay-')), 'mosquitto.log');
  broker = await startBroker({ log: brokerLog });
});
test.after.always(async () => {
  await broker?.stop();
});
const url = () => broker!.url;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let groups = 0;

/** One flow file for a group's hubs (the id from the environment), with a device and a dummy. */
async function groupFlow(devicePort: number, hub: Record<string, unknown> = {}): Promise<{ path: string; group: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-replay-'));
  const path = join(dir, 'studio.json5');
  const group = `replay-${++groups}`;
  const flow = {
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
      bus: { type: 'mqtt', url: url(), hub: { id: '${HUB}', group, share: [], key: siteKey, ...hub } },
      desk: { type: 'dummy', parameters: ['title,S,morning', 'onair,B,false'] },
      router: {
        type: 'tcp-client',
        host: '127.0.0.1',
        port: devicePort,
        parameters: ['dest/1,I'],
        receive: [],
        send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\n' }],
      },
    },
  };
  await writeFile(path, JSON.stringify(flow));
  return { path, group };
}

/** A hub with a state folder of its own (as on a machine of its own), the same across its restarts. */
const hubIn = (t: ExecutionContext, flow: string, id: string) =>
  runHub(t, flow, { env: { HUB: id }, args: ['--state', join(dirname(flow), `state-${id}`)] });
const roleOf = (hub: HubProcess) => hub.read('bus/_hub/role');

/** What `/metrics` counts of messages the mqtt connection refused for `reason`. */
async function dropped(hub: HubProcess, reason: string): Promise<number> {
  const text = await (await fetch(`${hub.base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('patchbay_mqtt_dropped_messages_total{') && l.includes(`reason="${reason}"`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

interface Captured {
  readonly topic: string;
  readonly payload: Buffer;
  readonly retain: boolean;
  readonly properties: IClientPublishOptions['properties'];
}

/** A client that reads what the hubs publish on `topics`, keeping each message with its properties, to send it again later. */
async function eavesdropper(t: ExecutionContext, topics: string[]) {
  const client = await mqtt.connectAsync(url(), { protocolVersion: 5, clientId: `reader-${Math.random().toString(16).slice(2)}` });
  t.teardown(() => client.endAsync(true));
  const captured: Captured[] = [];
  client.on('message', (topic, payload, packet) => {
    const { userProperties, responseTopic, correlationData } = packet.properties ?? {};
    captured.push({
      topic,
      payload,
      retain: packet.retain,
      properties: {
        ...(userProperties ? { userProperties } : {}),
        ...(responseTopic ? { responseTopic } : {}),
        ...(correlationData ? { correlationData } : {}),
      },
    });
  });
  await client.subscribeAsync(topics, { qos: 1 });
  const replay = async (message: Captured, retain = message.retain) => {
    await client.publishAsync(message.topic, message.payload, { qos: 1, retain, properties: message.properties });
  };
  return { client, captured, replay };
}

withBroker(
  `a forwarded write played back after a takeover is not applied by the new active hub, and is counted (R-AV3)${whyNoBroker}`,
  async (t) => {
    const device = await recordingDevice(t);
    const { path } = await groupFlow(device.port);
    const a = await hubIn(t, path, 'a');
    await eventually(async () => (await roleOf(a)) === 'active', 'the first hub to take the lease');
    const b = await hubIn(t, path, 'b');
    await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'the standby to know the active hub');
    const reader = await eavesdropper(t, ['patchbay/+/set/#']);

    // The standby forwards the operator's write to the active hub; the reader captures it.
    t.is(await b.write('router/dest/1', '7'), 'OK');
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 7'), 'the device to hear the forwarded write');
    const write = reader.captured.find((m) => m.topic === 'patchbay/router/set/dest/1');
    t.truthy(write, 'the reader saw the forwarded write');

    a.child.kill('SIGKILL');
    await eventually(async () => (await roleOf(b)) === 'active', 'the standby to take over', 5000);
    await eventually(() => device.sockets.length === 2, 'the new active hub to connect to the device');
    t.is(await b.write('router/dest/1', '8'), 'OK');
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 8' && l.connection === 2), 'the device to hear the new active hub');

    const before = await dropped(b, 'replayed');
    await reader.replay(write!);
    await eventually(async () => (await dropped(b, 'replayed')) > before, 'the new active hub to count the replay', 3000);
    await sleep(300);
    t.is(await b.read('router/dest/1'), '8', 'the played-back write was not applied');
    t.false(
      device.lines.some((l) => l.line === 'ROUTE 1 7' && l.connection === 2),
      'the device never heard the played-back write from the new active hub',
    );
  },
);

withBroker(`a forwarded write played back after its owner restarted is not applied, and is counted (R-AV3)${whyNoBroker}`, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-replay-'));
  const flowOf = async (id: string, connections: Record<string, unknown>) => {
    const path = join(dir, `${id}.json5`);
    const bus = { type: 'mqtt', url: url(), hub: { id, share: ['desk/#'], key: siteKey } };
    await writeFile(
      path,
      JSON.stringify({ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' }, bus, ...connections } }),
    );
    return path;
  };
  const controlFlow = await flowOf('control', { desk: { type: 'dummy', parameters: ['onair,B,false', 'scene,S,news'] } });
  const studioFlow = await flowOf('studio', {});
  const state = ['--state', join(dir, 'state-control')];
  let control = await runHub(t, controlFlow, { args: state });
  const studio = await runHub(t, studioFlow, { args: ['--state', join(dir, 'state-studio')] });
  await eventually(async () => (await studio.read('desk/onair')) === 'false', "the studio hub to show the control hub's desk");
  const reader = await eavesdropper(t, ['patchbay/+/set/#']);

  t.is(await studio.write('desk/onair', 'true'), 'OK');
  await eventually(async () => (await control.read('desk/onair')) === 'true', 'the forwarded write');
  const write = reader.captured.find((m) => m.topic === 'patchbay/desk/set/onair');
  t.truthy(write, 'the reader saw the forwarded write');
  t.is(await control.write('desk/onair', 'false'), 'OK');

  // The owner restarts (its values kept in its state folder); the reader plays the write back.
  control.child.kill('SIGKILL');
  await control.exited;
  control = await runHub(t, controlFlow, { args: state });
  await eventually(async () => (await studio.read('desk/onair')) === 'false', 'the restarted owner to be shown again');
  t.is(await control.read('desk/onair'), 'false');
  await reader.replay(write!);
  await eventually(async () => (await dropped(control, 'replayed')) >= 1, 'the restarted owner to count the replay', 3000);
  await sleep(300);
  t.is(await control.read('desk/onair'), 'false', 'desk/onair was not changed by the played-back write');
});

withBroker(
  `a dead hub's presence and lease renewals, played back, do not keep a restarted standby from taking over (R-AV3)${whyNoBroker}`,
  async (t) => {
    const device = await recordingDevice(t);
    const { path } = await groupFlow(device.port);
    const a = await hubIn(t, path, 'a');
    await eventually(async () => (await roleOf(a)) === 'active', 'the first hub to take the lease');
    const b = await hubIn(t, path, 'b');
    await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'the standby to know the active hub');
    const reader = await eavesdropper(t, ['patchbay/$hub/a', 'patchbay/$lease/a']);
    // Ten seconds of the active hub's renewals (one every 200 ms).
    await sleep(10_000);
    const presence = reader.captured.find((m) => m.topic === 'patchbay/$hub/a' && m.payload.toString().includes('true'));
    const renewals = reader.captured.filter((m) => m.topic === 'patchbay/$lease/a');
    t.truthy(presence);
    t.true(renewals.length >= 30, `${renewals.length} renewals captured`);

    // Both hubs die (the standby first); the reader speaks for the dead active hub.
    b.child.kill('SIGKILL');
    await b.exited;
    a.child.kill('SIGKILL');
    await a.exited;
    await sleep(300);
    await reader.replay(presence!, true);
    let stop = false;
    // Played back over and over until the spec has seen what it waits for: a restarted hub
    // that is slow to start on a busy machine must still hear some.
    const replaying = (async () => {
      while (!stop)
        for (const renewal of renewals) {
          if (stop) return;
          await reader.replay(renewal);
          await sleep(200);
        }
    })();
    t.teardown(() => void (stop = true));
    const restarted = await hubIn(t, path, 'b');
    const up = performance.now();
    await eventually(async () => (await roleOf(restarted)) === 'active', 'the restarted standby to take over despite the replay', 5000);
    t.log(`active ${Math.round(performance.now() - up)} ms after it started`);
    await eventually(async () => (await dropped(restarted, 'replayed')) >= 1, 'the played-back renewals to be counted', 15_000);
    stop = true;
    await replaying;
  },
);

withBroker(
  `a reader of the broker cannot learn a hub's client id, and a hub kicked off by its id is back at once and not kicked again (R-AV3)${whyNoBroker}`,
  async (t) => {
    const device = await recordingDevice(t);
    const { path } = await groupFlow(device.port);
    const kicks = () => (readFileSync(brokerLog, 'utf8').match(/already connected, closing old connection/g) ?? []).length;
    // Everything a reader of the whole prefix sees, from before the hub connects: every topic
    // level, payload and user property is tried as a client id.
    const reader = await eavesdropper(t, ['patchbay/#']);
    const a = await hubIn(t, path, 'a');
    await eventually(async () => (await roleOf(a)) === 'active', 'the hub to take the lease');
    await sleep(1000);
    const seen = new Set<string>();
    for (const { topic, payload, properties } of reader.captured) {
      for (const level of topic.split('/')) seen.add(level);
      for (const part of payload.toString().split(/[":,{}\s]+/)) seen.add(part);
      for (const value of Object.values(properties?.userProperties ?? {})) for (const v of [value].flat()) seen.add(String(v));
    }
    const tried: MqttClient[] = [];
    for (const clientId of seen) {
      if (!clientId || clientId.length > 200) continue;
      tried.push(mqtt.connect(url(), { protocolVersion: 5, clientId, reconnectPeriod: 0 }));
    }
    t.teardown(() => tried.forEach((c) => c.end(true)));
    await sleep(1000);
    t.is(kicks(), 0, `no client id among the ${seen.size} strings a reader saw is a hub's`);

    // One who reads the broker's log learns the hub's id: kicked once, the hub is back under another at once.
    const ids = [...readFileSync(brokerLog, 'utf8').matchAll(/New client connected from \S+ as (\S+)/g)].map((m) => m[1]!);
    const hubId = ids.find((id) => id.startsWith('patchbay-'));
    t.truthy(hubId, `the hub's client id is in the broker's log (${ids.join(', ')})`);
    const started = performance.now();
    const attackers: MqttClient[] = [];
    t.teardown(() => attackers.forEach((c) => c.end(true)));
    while (performance.now() - started < 5000) {
      attackers.push(mqtt.connect(url(), { protocolVersion: 5, clientId: hubId!, reconnectPeriod: 0 }));
      await sleep(250);
    }
    const hubKicks = kicks();
    t.log(`${hubKicks} sessions closed for a duplicate id in 5 s`);
    t.true(hubKicks <= attackers.length, 'counted');
    await eventually(async () => (await roleOf(a)) === 'active', 'the hub to be active again', 3000);
    // The attacker's sessions close each other from then on; the hub's was closed once.
    const closed = a.messages().filter((m) => m.includes('the broker connection closed')).length;
    t.true(closed <= 1, `the hub lost its broker session ${closed} times: kicked once, not displaced again`);
  },
);

/** A group of two with a forger who holds the site key and signs role records as any hub it likes. */
async function groupAndForger(t: ExecutionContext, hub: Record<string, unknown> = {}) {
  const device = await recordingDevice(t);
  const { path, group } = await groupFlow(device.port, hub);
  const a = await hubIn(t, path, 'a');
  await eventually(async () => (await roleOf(a)) === 'active', 'the first hub to take the lease');
  const b = await hubIn(t, path, 'b');
  await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'the standby to know the active hub');
  const key = Buffer.from(readFileSync(siteKeyFile, 'utf8').trim());
  const forger = await mqtt.connectAsync(url(), { protocolVersion: 5 });
  t.teardown(() => forger.endAsync(true));
  const forge = async (hubId: string, record: Record<string, unknown>) => {
    const topic = `patchbay/$hub/${hubId}/role`;
    const payload = JSON.stringify(record);
    const properties = new Signer(key, hubId).sign(topic, payload, {});
    await forger.publishAsync(topic, payload, { qos: 1, retain: true, properties });
  };
  return { a, b, group, forge, epoch: Number(await a.read('bus/_hub/epoch')) };
}

withBroker(
  `a signed role record with epoch 2^53-1 does not stand the group down, now or after a takeover (R-AV3)${whyNoBroker}`,
  async (t) => {
    const { a, b, group, forge, epoch } = await groupAndForger(t);
    await forge('b', { group, role: 'active', epoch: Number.MAX_SAFE_INTEGER });
    await sleep(1500);
    t.is(await roleOf(a), 'active', 'the active hub did not stand down');
    t.true((await dropped(a, 'refused')) >= 1, 'the active hub counted the record it refused');
    t.is(await a.read('bus/_hub/epoch'), String(epoch));
    t.is(await b.read('bus/_hub/epoch'), String(epoch));
    t.is(await b.read('bus/_hub/active'), 'a');
    t.true((await dropped(b, 'refused')) >= 1, 'the standby counted it too');

    // The group still takes over one step at a time.
    a.child.kill('SIGKILL');
    await eventually(async () => (await roleOf(b)) === 'active', 'the standby to take over', 5000);
    t.is(await b.read('bus/_hub/epoch'), String(epoch + 1), 'the epoch grew by one');
  },
);

withBroker(`a role record of a hub outside the group's members is ignored, and counted (R-AV3)${whyNoBroker}`, async (t) => {
  const { a, b, group, forge, epoch } = await groupAndForger(t, { members: ['a', 'b'] });
  await forge('x', { group, role: 'active', epoch: epoch + 1 });
  await eventually(async () => (await dropped(a, 'refused')) >= 1, 'the active hub to count the record it refuses', 3000);
  await sleep(1500);
  t.is(await roleOf(a), 'active', 'the active hub did not stand down');
  t.is(await a.read('bus/_hub/epoch'), String(epoch));
  t.is(await b.read('bus/_hub/active'), 'a');
});
