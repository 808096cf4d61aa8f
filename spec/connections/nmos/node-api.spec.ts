/**
 * A hub with an `nmos` connection, asked over real HTTP and a real WebSocket client (`ws`):
 * the Node API lists what the hub's exposed parameters became (R-NM1), the Events API gives
 * each source's state and type, and the events WebSocket answers a subscription with the
 * state, then every change, answers health, and drops a client that stops sending it (R-NM2).
 */
import test, { type ExecutionContext } from 'ava';
import { Value } from '@sinclair/typebox/value';
import WebSocket from 'ws';
import { HealthMessage, SourceState, StateMessage, shapeOf } from '../../../lib/connections/nmos/resource-shapes.ts';
import type { StateStore } from '../../../lib/state/store.ts';
import { param, startHub } from '../../helpers/hub.ts';
import { storeWith } from '../../helpers/state.ts';
import { LOOPBACK_NODE } from '../../helpers/nmos-node.ts';
import { baseOf } from '../../helpers/http.ts';

async function nodeHub(t: ExecutionContext, nmos: object = {}) {
  const hub = await startHub(t, {
    connections: {
      studio: {
        type: 'dummy',
        parameters: ['onair,B,false', 'title,S,Morning', 'gain,F,0', 'source,I,1', 'cue,T'],
        describe: {
          gain: { label: 'Gain', unit: 'dB', minimum: -80, maximum: 10 },
          source: {
            choices: [
              { value: 1, label: 'Camera 1' },
              { value: 2, label: 'Camera 2' },
            ],
          },
        },
      },
      backstage: { type: 'dummy', parameters: ['hidden,B,true'] },
      node: { ...LOOPBACK_NODE, expose: ['studio/#'], ...nmos },
    },
  });
  const info = hub.connection('node')?.info;
  if (info?.status !== 'ok') throw new Error(`nmos did not start: ${info?.status} ${info?.reason}`);
  const port = info.details?.['port'] as number;
  const base = `http://127.0.0.1:${port}`;
  const get = async (path: string) => {
    const answer = await fetch(`${base}${path}`);
    return { status: answer.status, body: (await answer.json()) as never, cors: answer.headers.get('access-control-allow-origin') };
  };
  return { hub, port, base, get };
}

test('the Node API lists the node, its device and a source, flow and sender for each exposed parameter but triggers (R-NM1)', async (t) => {
  const { get } = await nodeHub(t);
  t.like(await get('/x-nmos/node/v1.3/'), { status: 200, body: ['self/', 'devices/', 'sources/', 'flows/', 'senders/', 'receivers/'] });
  t.deepEqual((await get('/x-nmos/')).body, ['node/', 'events/', 'connection/']);
  const self = await get('/x-nmos/node/v1.3/self');
  t.is(self.status, 200);
  t.is(self.cors, '*');
  t.true(Value.Check(shapeOf.node, self.body));
  const sources = (await get('/x-nmos/node/v1.3/sources')).body as { id: string; label: string; event_type: string }[];
  t.deepEqual(sources.map(({ event_type }) => event_type).sort(), ['boolean', 'number/enum/source', 'number/gain/dB', 'string']);
  t.true(
    sources.some(({ label }) => label === 'Gain (studio/gain)'),
    'labelled as the parameter says of itself',
  );
  for (const kind of ['devices', 'sources', 'flows', 'senders'] as const) {
    const list = (await get(`/x-nmos/node/v1.3/${kind}/`)).body as { id: string }[];
    t.is(list.length, kind === 'devices' ? 1 : 4, kind);
    const shape = shapeOf[kind.slice(0, -1) as 'device'];
    for (const resource of list) t.true(Value.Check(shape, resource), `${kind}: ${JSON.stringify([...Value.Errors(shape, resource)][0])}`);
    const one = list[0] as { id: string };
    t.deepEqual((await get(`/x-nmos/node/v1.3/${kind}/${one.id}`)).body, one, 'one by its id');
    t.deepEqual((await get(`/x-nmos/node/v1.3/${kind}/${one.id}/`)).body, one, 'with a trailing slash too');
  }
  t.deepEqual((await get('/x-nmos/node/v1.3/receivers')).body, []);
  const missing = await get('/x-nmos/node/v1.3/sources/00000000-0000-5000-8000-000000000000');
  t.like(missing, { status: 404, body: { code: 404, error: 'Not Found' } });
  t.is((await get('/x-nmos/node/v1.2/self')).status, 404);
  t.is((await fetch(`${(await nodeHub(t)).base}/x-nmos/node/v1.3/self`, { method: 'POST' })).status, 405);
});

test('HEAD answers as GET without the body, and OPTIONS with what a browser asks of CORS (R-NM1)', async (t) => {
  const { base } = await nodeHub(t);
  const got = await fetch(`${base}/x-nmos/node/v1.3/sources/`);
  const length = (await got.text()).length;
  const head = await fetch(`${base}/x-nmos/node/v1.3/sources/`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(Number(head.headers.get('content-length')), length);
  t.is(await head.text(), '');
  const options = await fetch(`${base}/x-nmos/node/v1.3/self`, { method: 'OPTIONS' });
  t.is(options.status, 200);
  t.is(options.headers.get('access-control-allow-origin'), '*');
  t.regex(options.headers.get('access-control-allow-methods') ?? '', /GET/);
});

test('the Events API gives each source its state and its type (R-NM2)', async (t) => {
  const { get, hub } = await nodeHub(t);
  const sources = (await get('/x-nmos/events/v1.0/sources/')).body as string[];
  t.is(sources.length, 4);
  const nodeSources = (await get('/x-nmos/node/v1.3/sources')).body as { id: string; event_type: string }[];
  const gain = nodeSources.find(({ event_type }) => event_type === 'number/gain/dB') as { id: string };
  t.true(sources.includes(`${gain.id}/`));
  t.deepEqual((await get(`/x-nmos/events/v1.0/sources/${gain.id}`)).body, ['state/', 'type/']);
  t.deepEqual((await get(`/x-nmos/events/v1.0/sources/${gain.id}/type`)).body, {
    type: 'number',
    min: { value: -80 },
    max: { value: 10 },
    unit: 'dB',
  });
  param(hub, 'studio/gain').set(-6.5);
  const state = (await get(`/x-nmos/events/v1.0/sources/${gain.id}/state`)).body;
  t.true(Value.Check(SourceState, state));
  t.like(state, { message_type: 'state', event_type: 'number/gain/dB', payload: { value: -6.5 } });
  t.deepEqual(
    (state as SourceState).identity,
    { source_id: gain.id },
    "the source's state, without a flow: only a sender's messages carry one",
  );
});

/** A `ws` client of the node's events socket, each message parsed as it comes. */
async function eventsClient(t: ExecutionContext, port: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/x-nmos/events/v1.0/socket`);
  t.teardown(() => socket.terminate());
  const messages: { message_type: string; identity?: { source_id: string }; payload?: { value: unknown } }[] = [];
  const waiting: (() => void)[] = [];
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString()));
    for (const wake of waiting.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const until = async (count: number) => {
    const deadline = Date.now() + 5000;
    while (messages.length < count) {
      if (Date.now() > deadline) throw new Error(`${messages.length} messages, waited for ${count}: ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return messages;
  };
  return { socket, messages, until, closed, send: (message: object) => socket.send(JSON.stringify(message)) };
}

test('a subscription is answered with each source’s state, then every change; health is answered (R-NM2)', async (t) => {
  const { get, hub, port } = await nodeHub(t);
  const sources = (await get('/x-nmos/node/v1.3/sources')).body as { id: string; event_type: string }[];
  const onair = sources.find(({ event_type }) => event_type === 'boolean') as { id: string };
  const title = sources.find(({ event_type }) => event_type === 'string') as { id: string };
  const client = await eventsClient(t, port);
  client.send({ command: 'subscription', sources: [onair.id, title.id] });
  const first = await client.until(2);
  t.deepEqual(
    first.map(({ identity, payload }) => [identity?.source_id, payload?.value]),
    [
      [onair.id, false],
      [title.id, 'Morning'],
    ],
  );
  for (const message of first) t.true(Value.Check(StateMessage, message));
  param(hub, 'studio/onair').set(true);
  param(hub, 'backstage/hidden').set(false);
  const [, , change] = await client.until(3);
  t.like(change, { message_type: 'state', identity: { source_id: onair.id }, payload: { value: true } });
  client.send({ command: 'subscription', sources: [title.id] });
  await client.until(4);
  param(hub, 'studio/onair').set(false);
  param(hub, 'studio/title').set('Evening');
  const [, , , again, evening] = await client.until(5);
  t.like(
    again,
    { identity: { source_id: title.id }, payload: { value: 'Morning' } },
    'a new subscription is answered with the state again',
  );
  t.like(evening, { identity: { source_id: title.id }, payload: { value: 'Evening' } }, 'onair is no longer followed');
  client.send({ command: 'health', timestamp: '1441974485:12300000' });
  const [health] = (await client.until(6)).slice(5);
  t.true(Value.Check(HealthMessage, health));
  t.like(health, { message_type: 'health', timing: { origin_timestamp: '1441974485:12300000' } });
  await hub.stop();
  const { reason } = await client.closed;
  t.regex(reason, /the node stopped/);
  t.like(client.messages[6], { message_type: 'shutdown', identity: { source_id: title.id } }, 'each source followed says it is going');
  t.is(client.messages.length, 7);
});

test('a client that sends no health for clientTimeoutMs is dropped; one that does stays (R-NM2)', async (t) => {
  const { port, hub } = await nodeHub(t, { clientTimeoutMs: 1500 });
  // Timed from before it connects: the node counts from its open, which comes after.
  const started = Date.now();
  const silent = await eventsClient(t, port);
  const healthy = await eventsClient(t, port);
  const keep = setInterval(() => healthy.send({ command: 'health', timestamp: '1:0' }), 200);
  t.teardown(() => clearInterval(keep));
  const { reason } = await silent.closed;
  const after = Date.now() - started;
  t.true(after >= 1500 && after < 5000, `dropped after ${after} ms`);
  t.regex(reason, /no health command for 1500 ms/);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.is(healthy.socket.readyState, WebSocket.OPEN, 'a client that sends health is kept');
  t.is(hub.connection('node')?.info.details?.['droppedClients'], 1);
});

test('a message larger than maxMessageBytes closes its client; a malformed one is ignored (R-NM2)', async (t) => {
  const { port } = await nodeHub(t, { maxMessageBytes: 1024 });
  const client = await eventsClient(t, port);
  client.socket.send('not json');
  client.send({ command: 'health', timestamp: '1:0' });
  await client.until(1);
  client.send({ command: 'subscription', sources: ['x'.repeat(2000)] });
  const { code } = await client.closed;
  t.not(code, 1000);
});

test('the node and its sources keep their ids across a restart with the same state folder; another folder is another node (R-NM1)', async (t) => {
  const store = await storeWith(t);
  const idsOf = async (state: StateStore) => {
    const hub = await startHub(
      t,
      {
        connections: {
          studio: { type: 'dummy', parameters: ['onair,B,false'] },
          node: { ...LOOPBACK_NODE, expose: ['studio/#'] },
        },
      },
      { state },
    );
    const base = `${baseOf(hub, 'node')}/x-nmos/node/v1.3`;
    const self = (await (await fetch(`${base}/self`)).json()) as { id: string };
    const sources = (await (await fetch(`${base}/sources`)).json()) as { id: string }[];
    await hub.stop();
    return [self.id, ...sources.map(({ id }) => id)];
  };
  const first = await idsOf(store);
  t.deepEqual(await idsOf(store), first);
  const other = await idsOf(await storeWith(t));
  t.not(other[0], first[0]);
});

test('two hubs given the same seed are the same node with the same sources, as the hubs of a redundancy group must be (R-NM1)', async (t) => {
  const idsOf = async () => {
    const hub = await startHub(t, {
      connections: {
        studio: { type: 'dummy', parameters: ['onair,B,false'] },
        node: { ...LOOPBACK_NODE, expose: ['studio/#'], seed: 'studio-a' },
      },
    });
    const base = `${baseOf(hub, 'node')}/x-nmos/node/v1.3`;
    const self = (await (await fetch(`${base}/self`)).json()) as { id: string };
    const senders = (await (await fetch(`${base}/senders`)).json()) as { id: string }[];
    return [self.id, ...senders.map(({ id }) => id)];
  };
  // Each hub keeps records of its own (no shared state folder), as two machines do.
  const [active, standby] = [await idsOf(), await idsOf()];
  t.deepEqual(standby, active);
  t.is(active.length, 2);
});
