/**
 * Fencing tokens between the hubs of a group (R-EG2, R-B3), on a pair over a real Mosquitto:
 * the active hub's values carry its epoch, and a value or a forwarded write with a token
 * lower than the group's latest is refused, so a driver that lost the role changes nothing a
 * user sees. The old driver is played by one who holds the site key and signs as it (as a
 * paused hub's late messages would be signed); the same message with the current token is
 * taken, so what refuses it is the token alone. Groups on etcd use the same piece (their
 * epoch is the election's revision: e2e/standby-etcd).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import mqtt, { type IClientPublishOptions } from 'mqtt';
import { Signer } from '../../lib/broker/signing.ts';
import { brokerOfFile } from '../helpers/broker-tests.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { canRunBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey, siteKeyFile } from '../helpers/site-key.ts';

const broker = brokerOfFile();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pairFlow(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-tokens-'));
  const path = join(dir, 'studio.json5');
  const flow = {
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
      bus: { type: 'mqtt', url: broker.url, hub: { id: '${HUB}', group: 'tokens', share: [], key: siteKey } },
      desk: { type: 'dummy', parameters: ['title,S,morning'] },
    },
  };
  await writeFile(path, JSON.stringify(flow));
  return path;
}

const hubIn = (t: ExecutionContext, flow: string, id: string) =>
  runHub(t, flow, { env: { HUB: id }, args: ['--state', join(dirname(flow), `state-${id}`)] });
async function update(hub: HubProcess, value: string): Promise<number> {
  const response = await fetch(`${hub.base}/update?parameter=desk/title&value=${value}`, { headers: { accept: 'application/json' } });
  return response.status;
}
async function refusedTokens(hub: HubProcess): Promise<number> {
  const text = await (await fetch(`${hub.base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('patchbay_mqtt_refused_tokens_total'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

const withBroker = canRunBroker ? test.serial : test.serial.skip;

withBroker(
  `a value or a forwarded write with a token lower than the group's latest changes nothing; the current token's does (R-EG2)${whyNoBroker}`,
  async (t) => {
    t.timeout(90_000);
    const flow = await pairFlow();
    const a = await hubIn(t, flow, 'a');
    await eventually(async () => (await a.read('bus/_hub/role')) === 'active', 'the first hub to take the lease');
    const b = await hubIn(t, flow, 'b');
    await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'the standby to know the active hub');
    const epoch = Number(await a.read('bus/_hub/epoch'));
    t.true(epoch >= 1);

    const key = Buffer.from((await readFile(siteKeyFile, 'utf8')).trim());
    const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => client.endAsync(true));
    const seen: { topic: string; payload: string; properties: IClientPublishOptions['properties'] }[] = [];
    client.on('message', (topic, payload, packet) => seen.push({ topic, payload: payload.toString(), properties: packet.properties }));
    await client.subscribeAsync(['patchbay/desk/val/title', 'patchbay/$hub/a', 'patchbay/$hub/b/answers'], { qos: 1 });

    // The active hub's values carry its epoch; the standby shows them.
    t.is(await update(a, 'noon'), 200);
    await eventually(async () => (await b.read('desk/title')) === 'noon', 'the standby to show the value');
    await eventually(() => seen.some((m) => m.topic === 'patchbay/desk/val/title' && m.payload === 'noon'), 'the value on the broker');
    const published = seen.find((m) => m.topic === 'patchbay/desk/val/title' && m.payload === 'noon')!;
    t.is(published.properties?.userProperties?.['token'], String(epoch), "the active hub's value carries its epoch");
    // A write forwarded by the standby carries the current token, and is made. (First: what is signed as b below
    // counts after b's own messages on the topic, so b's would be taken as played back from then on.)
    t.is(await update(b, 'evening'), 200);
    await eventually(async () => (await a.read('desk/title')) === 'evening', "the standby's write to be made");
    await eventually(async () => (await b.read('desk/title')) === 'evening', 'the standby to show it');

    // A value signed as the active hub with an older token: the standby keeps what it shows.
    const value = async (text: string, token: number) => {
      const topic = 'patchbay/desk/val/title';
      const properties = new Signer(key, 'a').sign(topic, text, { userProperties: { by: 'late', token: String(token) } });
      await client.publishAsync(topic, text, { qos: 1, retain: false, properties });
    };
    await value('stale', epoch - 1);
    await sleep(1000);
    t.is(await b.read('desk/title'), 'evening', 'a lower token does not change what the standby shows');
    t.is(await refusedTokens(b), 1, 'counted');
    await value('current', epoch);
    await eventually(async () => (await b.read('desk/title')) === 'current', 'the same value with the current token to be taken');

    // A write forwarded to the active hub with an older token: refused with PB_NOT_ACTIVE, the value unchanged.
    const presence = seen.find((m) => m.topic === 'patchbay/$hub/a')!;
    const session = (JSON.parse(presence.payload) as { session: string }).session;
    const write = async (text: string, token: number) => {
      const topic = 'patchbay/desk/set/title';
      const correlationData = Buffer.from(`w${token}`);
      const signed = new Signer(key, 'b').sign(topic, text, {
        userProperties: { origin: 'spec', to: 'a', session, token: String(token) },
        responseTopic: 'patchbay/$hub/b/answers',
        correlationData,
      });
      await client.publishAsync(topic, text, { qos: 1, properties: signed });
      await eventually(
        () => seen.some((m) => m.topic === 'patchbay/$hub/b/answers' && m.properties?.correlationData?.equals(correlationData)),
        'the active hub to answer the write',
      );
      return JSON.parse(
        seen.find((m) => m.topic === 'patchbay/$hub/b/answers' && m.properties?.correlationData?.equals(correlationData))!.payload,
      ) as { ok: boolean; code?: string; error?: string };
    };
    const refused = await write('late', epoch - 1);
    t.like(refused, { ok: false, code: 'PB_NOT_ACTIVE' });
    t.regex(refused.error ?? '', /token/);
    t.is(await a.read('desk/title'), 'evening', 'the refused write changed nothing on the active hub');
    t.is(await refusedTokens(a), 1);
    // A later token than the active hub's lease: a later driver exists, so this one does not act on it either.
    t.like(await write('later', epoch + 5), { ok: false, code: 'PB_NOT_ACTIVE' });
    t.is(await a.read('desk/title'), 'evening');
    t.is(await refusedTokens(a), 2);
    // A burst of values (share/value-bursts.ts) with an older token: refused as a single value is.
    const burst = async (text: string, token: number) => {
      const topic = 'patchbay/$values/a';
      const payload = JSON.stringify({ session, token, values: [['desk/title', text, 'late']] });
      await client.publishAsync(topic, payload, { qos: 1, properties: new Signer(key, 'a').sign(topic, payload, {}) });
    };
    await burst('stale burst', epoch - 1);
    await sleep(1000);
    t.is(await b.read('desk/title'), 'current', 'a burst with a lower token does not change what the standby shows');
    t.is(await refusedTokens(b), 2);
    await burst('burst', epoch);
    await eventually(async () => (await b.read('desk/title')) === 'burst', 'the same burst with the current token to be taken');
    // The same write with the current token is made: the token alone refused the others.
    t.like(await write('made', epoch), { ok: true });
    await eventually(async () => (await a.read('desk/title')) === 'made', 'the write with the current token to be made');
    t.is(await refusedTokens(a), 2);
  },
);
