/**
 * Matrices an ember-provider declares (issue 46), switched by emberplus-connection's own
 * consumer (`EmberClient`: matrixConnect, matrixDisconnect, matrixSetConnection) and by the
 * hub's ember-consumer (R-E3), and followed by hub writes.
 */
import test, { type ExecutionContext } from 'ava';
import { EmberClient, type Model } from 'emberplus-connection';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import type { SetResult } from '../../../lib/core/parameter.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import type { Hub } from '../../../lib/hub/hub.ts';
import { eventually } from '../../helpers/eventually.ts';
import { param, startHub } from '../../helpers/hub.ts';
import { freePort } from '../../helpers/ports.ts';

type MatrixElement = Model.TreeElement<Model.Matrix>;

const MATRICES = [
  { id: 'video', targets: 4, sources: 8 },
  { id: 'audio/main', targets: 2, sources: 3, type: 'nToN' },
  { id: 'lines', targets: 3, sources: 3, type: 'oneToOne' },
];

async function providerHub(t: ExecutionContext, port: number, more: object = {}) {
  return startHub(t, {
    connections: { ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', matrices: MATRICES, write: ['ember/#'] }, ...more },
  });
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

async function matrixAt(client: EmberClient, path: string): Promise<MatrixElement> {
  const element = (await client.getElementByPath(path)) as MatrixElement | undefined;
  if (element?.contents.type !== 'MATRIX') throw new Error(`no matrix at ${path}`);
  return element;
}

const held = (matrix: MatrixElement, target: number) => matrix.contents.connections?.[target]?.sources ?? [];

function written(hub: Hub, address: string, value: unknown): Promise<SetResult> {
  return new Promise((resolve) => {
    const taken = param(hub, address).set(value, 'spec', resolve);
    if (!taken.ok) resolve(taken);
  });
}

test('a declared matrix is an Ember+ matrix at <connection>/<id>: its type, counts and connections, held in hub parameters', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  t.deepEqual(
    hub.graph.byPrefix('ember/video/').map((p) => [p.id, p.type, p.access, p.value]),
    [0, 1, 2, 3].map((target) => [`video/targets/${target}/source`, 'I', 'read-write', -1]),
  );
  t.is(param(hub, 'ember/audio/main/targets/1/sources').value, '');
  param(hub, 'ember/video/targets/2/source').set(5);
  const client = await consumer(t, port);
  const video = await matrixAt(client, 'ember.video');
  t.like(video.contents, { identifier: 'video', matrixType: 'ONE_TO_N', addressingMode: 'LINEAR', targetCount: 4, sourceCount: 8 });
  t.deepEqual(
    [0, 1, 2, 3].map((target) => held(video, target)),
    [[], [], [5], []],
  );
  t.like((await matrixAt(client, 'ember.audio.main')).contents, { matrixType: 'N_TO_N', targetCount: 2, sourceCount: 3 });
});

test('a consumer’s connect is a hub write with the origin `ember <peer>`; a hub write is sent to the consumers that follow the matrix', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  const client = await consumer(t, port);
  const video = await matrixAt(client, 'ember.video');
  await (await client.matrixConnect(video as never, 1, [4])).response;
  t.is(param(hub, 'ember/video/targets/1/source').value, 4);
  t.regex(param(hub, 'ember/video/targets/1/source').lastChange?.by ?? '', /^ember 127\.0\.0\.1:\d+$/);
  await (await client.matrixSetConnection(video as never, 1, [])).response;
  t.is(param(hub, 'ember/video/targets/1/source').value, -1, 'an empty absolute connect disconnects');
  param(hub, 'ember/video/targets/3/source').set(7);
  await eventually(() => held(video, 3)[0] === 7, 'the consumer to see the hub’s route');
  t.pass();
});

test('nToN: connect adds sources, disconnect takes them away, an absolute connect sets them', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  const client = await consumer(t, port);
  const audio = await matrixAt(client, 'ember.audio.main');
  const target = 'ember/audio/main/targets/0/sources';
  await (await client.matrixConnect(audio as never, 0, [2])).response;
  await (await client.matrixConnect(audio as never, 0, [0])).response;
  t.is(param(hub, target).value, '0,2');
  await (await client.matrixDisconnect(audio as never, 0, [2])).response;
  t.is(param(hub, target).value, '0');
  await (await client.matrixSetConnection(audio as never, 0, [1, 2])).response;
  t.is(param(hub, target).value, '1,2');
  t.deepEqual(held(audio, 0), [1, 2]);
  t.deepEqual(param(hub, target).set('2, 0'), { ok: true, value: true });
  t.is(param(hub, target).value, '0,2', 'a hub write is kept in order, as the consumer shows it');
});

test('a connect to a source the matrix does not have is refused: the consumer is sent what the hub holds', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  param(hub, 'ember/video/targets/0/source').set(2);
  const client = await consumer(t, port);
  const video = await matrixAt(client, 'ember.video');
  const answer = (await (await client.matrixConnect(video as never, 0, [9])).response) as MatrixElement;
  t.deepEqual(answer.contents.connections?.[0]?.sources, [2]);
  t.is(param(hub, 'ember/video/targets/0/source').value, 2);
  const refused = param(hub, 'ember/video/targets/0/source').set(8);
  t.is(refused.ok ? undefined : refused.error.code, 'PB_CONVERSION');
  t.is(param(hub, 'ember/audio/main/targets/0/sources').set('1,3').ok, false);
});

test('oneToOne: a source connected to a target leaves the one it was on', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port);
  param(hub, 'ember/lines/targets/0/source').set(1);
  const client = await consumer(t, port);
  const lines = await matrixAt(client, 'ember.lines');
  await (await client.matrixConnect(lines as never, 2, [1])).response;
  t.is(param(hub, 'ember/lines/targets/2/source').value, 1);
  t.is(param(hub, 'ember/lines/targets/0/source').value, -1);
  await eventually(() => held(lines, 0).length === 0, 'the consumer to see target 0 lose source 1');
  t.pass();
});

test('the hub’s ember-consumer switches the hub’s ember-provider matrices (R-E3)', async (t) => {
  const port = await freePort();
  const hub = await providerHub(t, port, { dev: { type: 'ember-consumer', host: '127.0.0.1', port } });
  const video = 'dev/ember/video/targets/1/source';
  await eventually(() => hub.graph.get(video)?.value === -1, 'the consumer to read the matrix');
  t.deepEqual(await written(hub, video, 6), { ok: true, value: true });
  t.is(param(hub, 'ember/video/targets/1/source').value, 6);
  const audio = 'dev/ember/audio/main/targets/1/sources';
  await eventually(() => hub.graph.get(audio)?.value === '', 'the nToN matrix');
  t.deepEqual(await written(hub, audio, '2,0'), { ok: true, value: true });
  t.is(param(hub, 'ember/audio/main/targets/1/sources').value, '0,2');
  param(hub, 'ember/video/targets/0/source').set(3);
  await eventually(() => param(hub, 'dev/ember/video/targets/0/source').value === 3, 'the consumer to follow a hub write');
  t.pass();
});

test('a bad matrix declaration is a flow-file mistake with its JSON path', (t) => {
  const result = validateFlow(
    {
      connections: {
        ember: {
          type: 'ember-provider',
          port: 0,
          matrices: [
            { id: 'video', targets: 0, sources: 8 },
            { id: 'a', targets: 2, sources: 2, type: 'manyToMany' },
            { id: 'b', targets: 2, sources: 100_000 },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  const messages = result.ok ? [] : result.issues.map(formatIssue);
  t.true(
    messages.some((m) => m.startsWith('connections.ember.matrices[0].targets')),
    messages.join('\n'),
  );
  t.true(
    messages.some((m) => m.startsWith('connections.ember.matrices[1].type')),
    messages.join('\n'),
  );
  t.true(
    messages.some((m) => m.startsWith('connections.ember.matrices[2].sources')),
    messages.join('\n'),
  );
});

test('matrix ids are parameter ids, each once', (t) => {
  const result = validateFlow(
    {
      connections: {
        ember: {
          type: 'ember-provider',
          port: 0,
          matrices: [
            { id: 'video', targets: 2, sources: 2 },
            { id: 'a b', targets: 2, sources: 2 },
            { id: 'video', targets: 2, sources: 2 },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  const messages = result.ok ? [] : result.issues.map(formatIssue);
  t.true(
    messages.some((m) => m.startsWith('connections.ember.matrices[1].id')),
    messages.join('\n'),
  );
  t.true(
    messages.some((m) => m.startsWith('connections.ember.matrices[2].id') && m.includes('taken')),
    messages.join('\n'),
  );
});
