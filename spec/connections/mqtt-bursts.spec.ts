/**
 * Shared values in bursts (lib/site/share/value-bursts.ts): what changes again within a
 * second goes to the other hubs in one signed message a turn, and its value topic is told
 * the latest a second later at most. What a user would notice if it broke: a value lost or
 * out of order on the other hub, a value topic left stale, a write answered before its value
 * is shown, a burst played back taken.
 */
import type { ExecutionContext } from 'ava';
import mqtt, { type IClientPublishOptions, type MqttClient } from 'mqtt';
import type { Hub } from '../../lib/hub/hub.ts';
import type { SetResult } from '../../lib/core/parameter.ts';
import type { Value } from '../../lib/sdk/index.ts';
import { eventually } from '../helpers/eventually.ts';
import { startHub } from '../helpers/hub.ts';
import { brokerOfFile, withBroker } from '../helpers/broker-tests.ts';
import { whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey } from '../helpers/site-key.ts';
import { loadSiteKey, Signer } from '../../lib/broker/signing.ts';

const broker = brokerOfFile();

let specs = 0;
const prefixOf = () => `bursts${++specs}-${process.pid}`;

const valueOn = (hub: Hub, address: string) => hub.graph.get(address)?.value;
const dropped = (hub: Hub, reason: string) =>
  Number((hub.connection('bus')?.info.details?.['dropped'] as Record<string, number> | undefined)?.[reason] ?? 0);

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The owner: a level, a name and a trigger, shared. */
const owner = (t: ExecutionContext, prefix: string) =>
  startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: ['level,I,5', 'name,S,desk', 'go,T'] },
      bus: { type: 'mqtt', url: broker.url, prefix, hub: { id: 'a', share: ['studio/#'], key: siteKey } },
    },
  });

/** A hub that shows the owner's connection. */
const viewer = (t: ExecutionContext, prefix: string, id: string) =>
  startHub(t, { connections: { bus: { type: 'mqtt', url: broker.url, prefix, hub: { id, share: [], key: siteKey } } } });

/** A plain MQTT client: every message on `filter`, with its properties, as a tool (or an intruder) sees it. */
async function spy(t: ExecutionContext, filter: string) {
  const client: MqttClient = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  t.teardown(() => client.endAsync(true));
  const messages: { topic: string; payload: Buffer; options: IClientPublishOptions }[] = [];
  client.on('message', (topic, payload, packet) =>
    messages.push({ topic, payload, options: { qos: 1, properties: { userProperties: packet.properties?.userProperties ?? {} } } }),
  );
  await client.subscribeAsync(filter, { qos: 1 });
  const on = (topic: string) => messages.filter((m) => m.topic === topic).map((m) => m.payload.toString());
  /** Plays a message back, then an unsigned one after it on the same topic: once `hub` counted that one, it has handled the first. */
  const playBack = async (message: (typeof messages)[number], hub: Hub) => {
    const before = dropped(hub, 'unverified');
    await client.publishAsync(message.topic, message.payload, message.options);
    await client.publishAsync(message.topic, '{}', { qos: 1 });
    await eventually(() => dropped(hub, 'unverified') > before, 'the played-back message handled');
  };
  return { messages, on, playBack };
}

/** Every change `hub` shows of `address`, in order. */
function changesOn(t: ExecutionContext, hub: Hub, address: string): Value[] {
  const seen: Value[] = [];
  const subscription = hub.graph.get(address)!.changes$.subscribe((value) => seen.push(value));
  t.teardown(() => subscription.unsubscribe());
  return seen;
}

withBroker(
  `values that change again within a second reach the other hub every one and in order, in a message a turn; their value topics have the latest a second later; each fire of a trigger goes (R-M5, R-M2)${whyNoBroker}`,
  async (t) => {
    const prefix = prefixOf();
    const a = await owner(t, prefix);
    const b = await viewer(t, prefix, 'b');
    await eventually(() => valueOn(b, 'studio/level') === 5, 'the level shown on b');
    const tool = await spy(t, `${prefix}/#`);
    const levels = changesOn(t, b, 'studio/level');
    const fires = changesOn(t, b, 'studio/go');
    // Five turns of ten changes: 50 values.
    for (let round = 0; round < 5; round++) {
      for (let i = 1; i <= 10; i++) a.graph.write('studio/level', round * 10 + i);
      for (let i = 0; i < 3; i++) a.graph.write('studio/go', null);
      await turn();
    }
    await eventually(
      () => levels.length === 50 && fires.length === 15,
      () => `50 levels and 15 fires on b (${levels.length}, ${fires.length})`,
    );
    t.deepEqual(
      levels,
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const levelTopic = `${prefix}/studio/val/level`;
    t.true(
      tool.on(levelTopic).length <= 3,
      `the value topic: its retained value, the first change, and a settle at most: ${tool.on(levelTopic).join(', ')}`,
    );
    t.true(tool.on(`${prefix}/$values/a`).length >= 1 && tool.on(`${prefix}/$values/a`).length <= 5, 'a burst a turn');
    t.is(tool.on(`${prefix}/studio/val/go`).length, 15, 'every fire on its value topic, none gathered');
    // Within a second and a little, the value topic has the latest: a tool, or a hub joining, reads 50.
    await eventually(() => tool.on(levelTopic).at(-1) === '50', 'the latest on the value topic', 2500);
    const late = await viewer(t, prefix, 'c');
    await eventually(() => valueOn(late, 'studio/level') === 50, 'a hub joining has the latest');
  },
);

withBroker(
  `changes of several parameters in one turn reach the other hub in the order they were made, whichever goes in a burst (R-M5)${whyNoBroker}`,
  async (t) => {
    const prefix = prefixOf();
    const a = await owner(t, prefix);
    const b = await viewer(t, prefix, 'b');
    await eventually(() => valueOn(b, 'studio/level') === 5, 'the level shown on b');
    const seen: string[] = [];
    for (const id of ['level', 'name', 'go']) {
      const subscription = b.graph.get(`studio/${id}`)!.changes$.subscribe((value) => seen.push(`${id}=${String(value)}`));
      t.teardown(() => subscription.unsubscribe());
    }
    // The level's value topic told now: its next changes within the second go in bursts.
    a.graph.write('studio/level', 1);
    await turn();
    // One turn: a fast parameter, a quiet one, a fire, and the first two again (a code flow
    // that reads the name when the cue fires must find the one set before it).
    a.graph.write('studio/level', 2);
    a.graph.write('studio/name', 'take1');
    a.graph.write('studio/go', null);
    a.graph.write('studio/level', 3);
    a.graph.write('studio/name', 'take2');
    const expected = ['level=1', 'level=2', 'name=take1', 'go=true', 'level=3', 'name=take2'];
    await eventually(
      () => seen.length >= expected.length,
      () => `the changes on b (${seen.join(' ')})`,
    );
    t.deepEqual(seen, expected);
  },
);

withBroker(
  `a write made on another hub is answered after its value: when the answer comes, the writer's hub shows the value (R-M5)${whyNoBroker}`,
  async (t) => {
    const prefix = prefixOf();
    await owner(t, prefix);
    const b = await viewer(t, prefix, 'b');
    await eventually(() => valueOn(b, 'studio/level') === 5, 'the level shown on b');
    const wire = await spy(t, `${prefix}/#`);
    for (let i = 1; i <= 20; i++) {
      const answer = await new Promise<SetResult>((resolve) => {
        const written = b.graph.write('studio/level', i, 'spec', resolve);
        if (!written.ok) resolve(written);
      });
      t.true(answer.ok);
      t.is(valueOn(b, 'studio/level'), i, `write ${i}: shown when its answer came`);
    }
    // On the broker, in the order a hub in another process reads them: each value before its answer.
    await eventually(() => wire.on(`${prefix}/$hub/b/answers`).length === 20, 'the 20 answers seen on the broker');
    const order = wire.messages.map(({ topic, payload }) => {
      if (topic === `${prefix}/$hub/b/answers`) return 'answer';
      if (topic === `${prefix}/studio/val/level`) return [payload.toString()];
      if (topic === `${prefix}/$values/a`) return (JSON.parse(payload.toString()).values as string[][]).map((entry) => entry[1]);
      return undefined;
    });
    let answers = 0;
    const seen = new Set<string>();
    for (const item of order) {
      if (item === 'answer') {
        answers++;
        t.true(seen.has(String(answers)), `the answer to write ${answers} came before its value`);
      } else for (const value of item ?? []) seen.add(value!);
    }
  },
);

withBroker(
  `a burst played back changes nothing: to a hub that restarted within the sender's session its values are older than the value topics', after the sender reconnected it is refused and counted (R-AV3)${whyNoBroker}`,
  async (t) => {
    const prefix = prefixOf();
    let a = await owner(t, prefix);
    const b = await viewer(t, prefix, 'b');
    await eventually(() => valueOn(b, 'studio/level') === 5, 'the level shown on b');
    const intruder = await spy(t, `${prefix}/$values/#`);
    a.graph.write('studio/level', 1);
    await turn();
    for (const level of [2, 3, 4]) a.graph.write('studio/level', level);
    await eventually(() => intruder.messages.length === 1, 'the burst overheard');
    const captured = intruder.messages[0]!;
    await eventually(() => valueOn(b, 'studio/level') === 4, 'the burst taken on b');
    a.graph.write('studio/level', 9);
    await eventually(() => valueOn(b, 'studio/level') === 9, 'the next value on b');

    // Within the sender's session: a hub that starts now has no mark of the burst; its values are older than the value topic's.
    const fresh = await viewer(t, prefix, 'c');
    await eventually(() => valueOn(fresh, 'studio/level') === 9, 'the level shown on a hub just started');
    await intruder.playBack(captured, fresh);
    t.is(valueOn(fresh, 'studio/level'), 9, 'not taken back to 4');

    // The sender restarted: a new broker session, which the burst does not carry.
    await a.stop();
    a = await owner(t, prefix);
    const later = await viewer(t, prefix, 'd');
    await eventually(() => valueOn(later, 'studio/level') === 5, 'the restarted owner’s level on a new hub');
    const replayedBefore = dropped(later, 'replayed');
    await intruder.playBack(captured, later);
    t.is(dropped(later, 'replayed'), replayedBefore + 1, 'counted as played back');
    t.is(valueOn(later, 'studio/level'), 5);
  },
);

withBroker(
  `a signed burst that is not one (a holder of the key with a bug, or another version) changes nothing, is counted refused, and the sender's next values still come (R-AV3)${whyNoBroker}`,
  async (t) => {
    const prefix = prefixOf();
    const a = await owner(t, prefix);
    const b = await viewer(t, prefix, 'b');
    await eventually(() => valueOn(b, 'studio/level') === 5, 'the level shown on b');
    const key = loadSiteKey(siteKey);
    if (!key.ok) return t.fail(key.error.message);
    const sender = new Signer(key.value, 'a');
    const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => client.endAsync(true));
    const topic = `${prefix}/$values/a`;
    const notBursts = [
      'not json',
      '[]',
      '{"values": [["studio/level", "7", "x"]]}',
      '{"session": "s", "values": [["studio/level", 7, "x"]]}',
      '{"session": "s", "values": [["studio/level", "7"]]}',
    ];
    const before = dropped(b, 'refused');
    for (const payload of notBursts) await client.publishAsync(topic, payload, { qos: 1, properties: sender.sign(topic, payload, {}) });
    await eventually(() => dropped(b, 'refused') === before + notBursts.length, 'each counted refused');
    t.is(valueOn(b, 'studio/level'), 5, 'no value taken from them');
    a.graph.write('studio/level', 6);
    await eventually(() => valueOn(b, 'studio/level') === 6, "the owner's next value shown");
  },
);
