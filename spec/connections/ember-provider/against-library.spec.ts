/**
 * emberplus-connection's own consumer (`EmberClient`) against the hub's ember-provider (R-E1,
 * R-E3, R-G5).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { EmberClient, Model } from 'emberplus-connection';
import type { Hub } from '../../../lib/hub/hub.ts';
import { eventually } from '../../helpers/eventually.ts';
import { flowOf, param, record, startHub } from '../../helpers/hub.ts';
import { freePort } from '../../helpers/ports.ts';
import { storeWith } from '../../helpers/state.ts';

type Element = Model.TreeElement<Model.EmberElement>;

const studio = (lines: string[] = []) => ({
  studio: {
    type: 'dummy',
    statusParameters: true,
    parameters: ['fader/1,F,0.5', 'fader/2,F,0', 'onair,B,false', 'title,S,Hello', 'count,I,3', 'go,T', ...lines],
  },
  clock: { type: 'timer', timers: [{ duration: 1000 }] },
});

async function providerHub(t: ExecutionContext, port: number, connections: object = studio(), options = {}) {
  return startHub(
    t,
    {
      connections: {
        ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['studio/#', 'clock/#'], write: ['studio/#', 'clock/#'] },
        ...connections,
      },
    },
    options,
  );
}

async function consumer(t: ExecutionContext, port: number): Promise<EmberClient> {
  const client = new EmberClient('127.0.0.1', port, 5000);
  let discarded = false;
  const discard = client.discard.bind(client);
  client.discard = () => {
    if (!discarded) discard();
    discarded = true;
  };
  t.teardown(() => client.discard());
  client.on('error', () => {});
  await client.connect();
  await client.expand(client.tree as never);
  return client;
}

async function at(client: EmberClient, path: string): Promise<Element> {
  const element = (await client.getElementByPath(path)) as Element | undefined;
  if (!element) throw new Error(`nothing at ${path}`);
  return element;
}

const contentsAt = async (client: EmberClient, path: string) => (await at(client, path)).contents as Model.Parameter;

test('a consumer reads the exposed parameters as a tree: a node per segment, typed parameters with their access and value, a trigger as a function', async (t) => {
  const port = await freePort();
  await providerHub(t, port);
  const client = await consumer(t, port);
  const view = async (path: string) => {
    const contents = await contentsAt(client, path);
    return [contents.type, contents.parameterType, contents.access, contents.value];
  };
  t.deepEqual(await view('studio.fader.1'), ['PARAMETER', 'REAL', 'READ_WRITE', 0.5]);
  t.deepEqual(await view('studio.onair'), ['PARAMETER', 'BOOLEAN', 'READ_WRITE', false]);
  t.deepEqual(await view('studio.title'), ['PARAMETER', 'STRING', 'READ_WRITE', 'Hello']);
  t.deepEqual(await view('studio.count'), ['PARAMETER', 'INTEGER', 'READ_WRITE', 3]);
  t.deepEqual(await view('studio._status.connected'), ['PARAMETER', 'BOOLEAN', 'READ', true]);
  t.deepEqual((await view('clock.timer.1.start')).slice(0, 3), ['PARAMETER', 'INTEGER', 'WRITE']);
  t.is((await at(client, 'studio.go')).contents.type, Model.ElementType.Function);
  t.is((await at(client, 'studio.fader')).contents.type, Model.ElementType.Node);
});

test('subscribed consumers get every change, several at once', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  const clients = await Promise.all([consumer(t, port), consumer(t, port), consumer(t, port)]);
  const elements = await Promise.all(clients.map((client) => at(client, 'studio.fader.1')));
  for (const value of [0.1, 0.2, 0.3]) {
    param(hub, 'studio/fader/1').set(value);
    await eventually(
      () => elements.every((element) => (element.contents as Model.Parameter).value === value),
      `every consumer to see ${value}`,
    );
  }
  t.pass();
});

test('a consumer’s write is a hub write, converted, with the origin `ember <peer>`', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  const client = await consumer(t, port);
  const fader = await at(client, 'studio.fader.2');
  const request = await client.setValue(fader as never, 0.75);
  await request.response;
  t.is(param(hub, 'studio/fader/2').value, 0.75);
  t.regex(param(hub, 'studio/fader/2').lastChange?.by ?? '', /^ember 127\.0\.0\.1:\d+$/);
  const title = await at(client, 'studio.title');
  await (await client.setValue(title as never, 'On air')).response;
  t.is(param(hub, 'studio/title').value, 'On air');
});

test('a refused write leaves the consumer at the hub’s value', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  const client = await consumer(t, port);
  const connected = await at(client, 'studio._status.connected');
  const answer = (await (await client.setValue(connected as never, false)).response) as Element;
  t.is((answer.contents as Model.Parameter).value, true);
  t.is(param(hub, 'studio/_status/connected').value, true);
});

test('invoking a trigger’s function fires the trigger', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  const fires = record(t, param(hub, 'studio/go'));
  const client = await consumer(t, port);
  const go = await at(client, 'studio.go');
  const result = (await (await client.invoke(go as never)).response) as { success?: boolean };
  t.true(result.success);
  t.is(fires.length, 1);
});

test('parameters that appear are added to the tree, and parameters that go are shown offline', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  const client = await consumer(t, port);
  const flow = (lines: string[]) =>
    flowOf({
      connections: {
        ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['studio/#', 'clock/#'], write: ['studio/#', 'clock/#'] },
        ...studio(lines),
      },
    });
  await hub.reload(flow(['fader/3,F,0.9']));
  const faders = await at(client, 'studio.fader');
  await eventually(
    () => Object.values(faders.children ?? {}).some((child) => (child.contents as Model.Parameter).identifier === '3'),
    'the new fader to appear',
  );
  const third = Object.values(faders.children ?? {}).find((child) => (child.contents as Model.Parameter).identifier === '3');
  const contents = third?.contents as Model.Parameter | undefined;
  t.is(contents?.value, 0.9);
  await hub.reload(flow([]));
  await eventually(() => contents?.isOnline === false, 'the fader to go offline');
  t.pass();
});

test('node numbers stay the same for the same addresses across restarts (kept in the state folder)', async (t) => {
  const port = await freePort();
  const store = await storeWith(t);
  const pathOf = async (address: string) => {
    const client = await consumer(t, port);
    const path = (await at(client, address.replaceAll('/', '.'))) as Element & { number: number; parent?: Element };
    const numbers: number[] = [];
    for (let element: (Element & { number?: number }) | undefined = path; element?.number !== undefined; element = element.parent as never)
      numbers.unshift(element.number);
    client.discard();
    return numbers.join('.');
  };
  let hub: Hub = await providerHub(t, port, studio(), { state: store });
  const before = [await pathOf('studio/title'), await pathOf('studio/fader/2')];
  await hub.stop();
  hub = await providerHub(
    t,
    port,
    { studio: { type: 'dummy', parameters: ['aaa/first,S', 'fader/0,F', 'fader/2,F', 'title,S'] } },
    { state: store },
  );
  t.deepEqual([await pathOf('studio/title'), await pathOf('studio/fader/2')], before);
  t.not(await pathOf('studio/fader/0'), await pathOf('studio/fader/2'));
});

test("what a parameter says of itself reaches emberplus-connection's consumer: description, minimum, maximum, an enumeration of its choices (R-PK6)", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-ember-meta-'));
  await writeFile(
    join(dir, 'desk.js'),
    `export default ({ define }) => {
  define('level', { type: 'F', initial: -6, meta: { label: 'Programme level', description: 'The mix to air', unit: 'dB', minimum: -60, maximum: 10 } });
  define('source', { type: 'I', initial: 1, meta: { label: 'Source', choices: [{ value: 1, label: 'Camera 1' }, { value: 2, label: 'Camera 2' }, { value: 7, label: 'Camera 1' }] } });
};
`,
  );
  const port = await freePort();
  const hub = await startHub(
    t,
    {
      connections: { ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['desk/#'], write: ['desk/#'] } },
      flows: ['desk.js'],
    },
    { dir },
  );
  const client = await consumer(t, port);
  const level = await contentsAt(client, 'desk.level');
  t.like(level, {
    parameterType: Model.ParameterType.Real,
    description: 'Programme level: The mix to air',
    minimum: -60,
    maximum: 10,
    value: -6,
  });
  const source = await contentsAt(client, 'desk.source');
  t.is(source.parameterType, Model.ParameterType.Enum);
  t.deepEqual(
    [...(source.enumMap ?? new Map())],
    [
      ['Camera 1', 1],
      ['Camera 2', 2],
      ['Camera 1 (7)', 7],
    ],
    'each choice by its label, a repeated label told apart',
  );
  // The consumer writes the enumeration's value; the hub holds it, and answers it.
  const element = await at(client, 'desk.source');
  await (await client.setValue(element as never, 7, false)).response;
  await eventually(() => param(hub, 'desk/source').value === 7, 'the choice written');
  t.is((await contentsAt(client, 'desk.source')).value, 7);
});
