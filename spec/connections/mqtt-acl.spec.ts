/**
 * A site as the README secures it: Mosquitto with one user per hub and per panel, limited by
 * flows/examples/mosquitto-site.acl (the file the README shows), and the hubs' site key. Two
 * hubs share a connection through it; a panel can write only what setAccess allows and
 * cannot speak for a hub.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import mqtt from 'mqtt';
import type { Hub } from '../../lib/hub/hub.ts';
import { eventually } from '../helpers/eventually.ts';
import { capturedLog, startHub } from '../helpers/hub.ts';
import { withBroker } from '../helpers/broker-tests.ts';
import { startBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey } from '../helpers/site-key.ts';

const aclFile = fileURLToPath(new URL('../../flows/examples/mosquitto-site.acl', import.meta.url));
const users = { control: 'control-secret', studio: 'studio-secret', panel: 'panel-secret' };

const valueOn = (hub: Hub, address: string) => hub.graph.get(address)?.value;
const shownOn = (hub: Hub, id: string) => hub.listConnections().find((c) => c.id === id);

async function site(t: ExecutionContext, acl = aclFile, log?: ReturnType<typeof capturedLog>['log']) {
  const broker = await startBroker({ acl: { file: acl, users } });
  t.teardown(() => broker.stop());
  const bus = (id: 'control' | 'studio', share: string[], more: Record<string, unknown> = {}) => ({
    type: 'mqtt',
    url: broker.url,
    username: id,
    password: users[id],
    hub: { id, share, key: siteKey },
    ...more,
  });
  const control = await startHub(
    t,
    {
      connections: {
        desk: { type: 'dummy', parameters: ['onair,B,false', 'scene,S,news'] },
        bus: bus('control', ['desk/#'], { publish: ['desk/scene'], setAccess: ['desk/scene'] }),
      },
    },
    log ? { log } : {},
  );
  const studio = await startHub(t, { connections: { bus: bus('studio', []) } });
  const panel = await mqtt.connectAsync(broker.url, { protocolVersion: 5, username: 'panel', password: users.panel });
  t.teardown(() => panel.endAsync(true));
  return { broker, control, studio, panel };
}

withBroker(`hubs share through a broker limited by the README's ACL, and a write forwarded between them works${whyNoBroker}`, async (t) => {
  const { control, studio } = await site(t);
  t.is(shownOn(control, 'bus')?.status, 'ok');
  t.like(shownOn(studio, 'desk'), { status: 'ok', details: { hub: 'control' } });
  t.is(valueOn(studio, 'desk/scene'), 'news');
  const written = studio.graph.write('desk/onair', true);
  t.true(written.ok);
  await eventually(() => valueOn(control, 'desk/onair') === true && valueOn(studio, 'desk/onair') === true, 'the write through the owner');
});

withBroker(`a panel user writes what setAccess allows, gets its answer, and cannot speak for a hub${whyNoBroker}`, async (t) => {
  const { control, studio, panel } = await site(t);
  const answers: string[] = [];
  panel.on('message', (topic, payload) => topic.startsWith('patchbay/$answers/panel/') && answers.push(payload.toString()));
  await panel.subscribeAsync('patchbay/$answers/panel/#', { qos: 1 });
  const ask = (address: string, value: string) =>
    panel.publishAsync(`patchbay/${address.replace('/', '/set/')}`, value, {
      qos: 1,
      properties: { responseTopic: 'patchbay/$answers/panel/1', correlationData: Buffer.from('1') },
    });
  await ask('desk/scene', 'sport');
  await ask('desk/onair', 'true');
  await eventually(() => answers.length === 2, 'two answers');
  t.deepEqual(
    answers.map((answer) => JSON.parse(answer).code ?? 'ok'),
    ['ok', 'PB_FORBIDDEN'],
  );
  t.is(valueOn(control, 'desk/scene'), 'sport');
  t.is(valueOn(control, 'desk/onair'), false);
  // What the ACL does not let it write the broker refuses: a presence, a description, a value.
  const refused = (topic: string, payload: string) =>
    panel.publishAsync(topic, payload, { qos: 1, retain: true }).then(
      () => 'taken',
      (error: { code?: number }) => error.code,
    );
  t.is(await refused('patchbay/$hub/control', '{"online":false}'), 135);
  t.is(await refused('patchbay/$hub/evil/connections', '{"hub":"evil","connections":[]}'), 135);
  t.is(await refused('patchbay/desk/val/scene', 'forged'), 135);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(shownOn(studio, 'desk')?.status, 'ok');
  t.is(valueOn(studio, 'desk/scene'), 'sport');
});

withBroker(
  `behind an ACL from before bursts, the broker refuses them: the hub asks before it sends one, says so once, and every change reaches the other hubs on its value topic${whyNoBroker}`,
  async (t) => {
    const folder = mkdtempSync(join(tmpdir(), 'patchbay-acl-'));
    const before = join(folder, 'before-bursts.acl');
    writeFileSync(before, readFileSync(aclFile, 'utf8').replace(/^topic write patchbay\/\$values\/.*\n/gm, ''));
    const { log, lines } = capturedLog('warn');
    const { control, studio } = await site(t, before, log);
    await eventually(
      () => lines().some((line) => line.msg.includes("refuses this hub's bursts")),
      'the hub to say the broker refuses its bursts',
    );
    // Shared and published alike would never be gathered: onair is shared alone.
    const onair: unknown[] = [];
    const watching = studio.graph.get('desk/onair')!.changes$.subscribe((value) => onair.push(value));
    t.teardown(() => watching.unsubscribe());
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 5; i++) control.graph.write('desk/onair', (round * 5 + i) % 2 === 0);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(
      () => onair.length === 25,
      () => `every change on the other hub (${onair.length} of 25)`,
    );
    t.deepEqual(
      onair,
      Array.from({ length: 25 }, (_, i) => i % 2 === 0),
    );
    t.is(lines().filter((line) => line.msg.includes("refuses this hub's bursts")).length, 1);
  },
);

test("the operating guide's ACL is the file these specs run the broker with", (t) => {
  const guide = readFileSync(fileURLToPath(new URL('../../docs/guides/operating.md', import.meta.url)), 'utf8');
  t.true(
    guide.includes(`\`\`\`\n${readFileSync(aclFile, 'utf8')}\`\`\``),
    'the operating guide shows flows/examples/mosquitto-site.acl as it is',
  );
});
