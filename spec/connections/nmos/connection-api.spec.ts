/**
 * A hub with an `nmos` connection with senders and receivers, asked over real HTTP (R-NM3):
 * the IS-05 Connection API lists them with their constraints, staged and active parameters;
 * a PATCH that breaks the schema or a constraint is refused with a 400 that changes nothing;
 * activations, immediate or scheduled, make staged active, lock staged while scheduled, and
 * show in the Node API as a new version and subscription; the bulk interface stages many.
 */
import test, { type ExecutionContext } from 'ava';
import { Value } from '@sinclair/typebox/value';
import WebSocket from 'ws';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { ReceiverEndpoint, SenderEndpoint } from '../../../lib/connections/nmos/connection-shapes.ts';
import { shapeOf } from '../../../lib/connections/nmos/resource-shapes.ts';
import { msOfTai } from '../../../lib/connections/nmos/tai-time.ts';
import { startHub } from '../../helpers/hub.ts';
import { LOOPBACK_NODE } from '../../helpers/nmos-node.ts';

const CONNECTION = '/x-nmos/connection/v1.1';

async function nodeHub(t: ExecutionContext) {
  const hub = await startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: ['onair,B,false', 'title,S,Morning', 'tally,B,false', 'level,F,0'] },
      node: {
        ...LOOPBACK_NODE,
        expose: ['studio/onair', 'studio/title'],
        receivers: {
          tally: { parameter: 'studio/tally' },
          level: { parameter: 'studio/level', label: 'Level in', eventTypes: ['number/level/dB'] },
        },
      },
    },
  });
  const port = hub.connection('node')?.info.details?.['port'] as number;
  const base = `http://127.0.0.1:${port}`;
  const request = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return { status: answer.status, body: (await answer.json()) as never };
  };
  const get = (path: string) => request('GET', path);
  const senders = ((await get(`${CONNECTION}/single/senders`)).body as string[]).map((id) => id.slice(0, -1));
  const receivers = ((await get(`${CONNECTION}/single/receivers`)).body as string[]).map((id) => id.slice(0, -1));
  return { hub, port, base, request, get, senders, receivers };
}

test("the Connection API lists the node's senders and receivers, each with constraints, staged, active and transport type (R-NM3)", async (t) => {
  const { get, senders, receivers, port } = await nodeHub(t);
  t.deepEqual((await get('/x-nmos/')).body, ['node/', 'events/', 'connection/']);
  t.deepEqual((await get('/x-nmos/connection/')).body, ['v1.1/']);
  t.deepEqual((await get(`${CONNECTION}/`)).body, ['bulk/', 'single/']);
  t.deepEqual((await get(`${CONNECTION}/single`)).body, ['senders/', 'receivers/']);
  t.is(senders.length, 2);
  t.is(receivers.length, 2);
  const nodeSenders = (await get('/x-nmos/node/v1.3/senders')).body as { id: string; flow_id: string }[];
  t.deepEqual(senders.sort(), nodeSenders.map(({ id }) => id).sort(), 'the same senders as the Node API');
  const sender = senders[0] as string;
  t.deepEqual((await get(`${CONNECTION}/single/senders/${sender}`)).body, [
    'constraints/',
    'staged/',
    'active/',
    'transportfile/',
    'transporttype/',
  ]);
  t.is((await get(`${CONNECTION}/single/senders/${sender}/transporttype`)).body as string, 'urn:x-nmos:transport:websocket');
  t.is((await get(`${CONNECTION}/single/senders/${sender}/transportfile`)).status, 404, 'a WebSocket sender has no transport file');
  const active = (await get(`${CONNECTION}/single/senders/${sender}/active`)).body as { transport_params: Record<string, unknown>[] };
  t.true(Value.Check(SenderEndpoint, active));
  const flow = nodeSenders.find(({ id }) => id === sender)?.flow_id;
  const flowBody = (await get(`/x-nmos/node/v1.3/flows/${flow}`)).body as { source_id: string };
  t.deepEqual(active.transport_params[0], {
    connection_uri: `ws://127.0.0.1:${port}/x-nmos/events/v1.0/socket`,
    connection_authorization: false,
    ext_is_07_source_id: flowBody.source_id,
    ext_is_07_rest_api_url: `http://127.0.0.1:${port}/x-nmos/events/v1.0/sources/${flowBody.source_id}/`,
  });
  const constraints = (await get(`${CONNECTION}/single/senders/${sender}/constraints`)).body as Record<string, { enum?: unknown[] }>[];
  t.deepEqual(constraints[0]?.['ext_is_07_source_id'], { enum: [flowBody.source_id] }, "a sender's parameters are what they are");
  const receiver = receivers[0] as string;
  t.deepEqual((await get(`${CONNECTION}/single/receivers/${receiver}/`)).body, ['constraints/', 'staged/', 'active/', 'transporttype/']);
  const staged = (await get(`${CONNECTION}/single/receivers/${receiver}/staged`)).body;
  t.true(Value.Check(ReceiverEndpoint, staged));
  t.like(staged, { sender_id: null, master_enable: false, transport_params: [{ connection_uri: null, ext_is_07_source_id: null }] });
  t.deepEqual((await get(`${CONNECTION}/single/receivers/${receiver}/constraints`)).body, [
    { connection_uri: {}, connection_authorization: { enum: [false] }, ext_is_07_source_id: {}, ext_is_07_rest_api_url: {} },
  ]);
  t.is((await get(`${CONNECTION}/single/receivers/00000000-0000-5000-8000-000000000000/staged`)).status, 404);
  t.is((await get(`${CONNECTION}/bulk/senders`)).status, 405, 'IS-05: a GET of bulk/ is a 405');
});

test('the device lists the receivers and advertises the Connection API; each receiver takes the event types of its parameter (R-NM3)', async (t) => {
  const { get, base, receivers } = await nodeHub(t);
  const [device] = (await get('/x-nmos/node/v1.3/devices')).body as { receivers: string[]; controls: { href: string; type: string }[] }[];
  t.deepEqual(device?.receivers.sort(), [...receivers].sort());
  t.true(device?.controls.some(({ href, type }) => type === 'urn:x-nmos:control:sr-ctrl/v1.1' && href === `${base}${CONNECTION}/`));
  const listed = (await get('/x-nmos/node/v1.3/receivers')).body as { label: string; caps: { event_types: string[] } }[];
  for (const receiver of listed)
    t.true(Value.Check(shapeOf.receiver, receiver), JSON.stringify([...Value.Errors(shapeOf.receiver, receiver)][0]));
  t.deepEqual(listed.map(({ label, caps }) => [label, caps.event_types]).sort(), [
    ['Level in', ['number/level/dB']],
    ['tally (studio/tally)', ['boolean', 'boolean/*']],
  ]);
});

test('a PATCH that breaks the schema or a constraint is a 400 with a code, and changes nothing (R-NM3)', async (t) => {
  const { request, get, senders, receivers } = await nodeHub(t);
  const receiver = `${CONNECTION}/single/receivers/${receivers[0]}/staged`;
  const sender = `${CONNECTION}/single/senders/${senders[0]}/staged`;
  const before = (await get(receiver)).body;
  for (const [path, body] of [
    [receiver, { bad: 'data' }],
    [receiver, { master_enable: 'yes' }],
    [receiver, { transport_params: [{ connection_uri: 'http://not.a.websocket/' }] }],
    [receiver, { transport_params: [{ ext_is_07_source_id: 'not-a-uuid' }] }],
    [receiver, { transport_params: [{ destination_port: 5004 }] }],
    [receiver, { transport_params: [{}, {}] }],
    [receiver, { master_enable: true, activation: { mode: 'activate_scheduled_relative' } }],
    [sender, { transport_params: [{ connection_uri: 'ws://elsewhere:1/' }] }],
  ] as const) {
    const answer = await request('PATCH', path, body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.like(answer.body, { code: 400, debug: 'PB_BAD_REQUEST' });
  }
  t.deepEqual((await get(receiver)).body, before, 'nothing of a refused PATCH was staged');
  const notJson = await fetch(`${(await nodeHub(t)).base}${receiver}`, { method: 'PATCH', body: '{' });
  t.is(notJson.status, 400);
});

test('an immediate activation makes staged active with auto resolved, and the Node API shows a new version and subscription (R-NM3)', async (t) => {
  const { request, get, receivers, port } = await nodeHub(t);
  const id = receivers[0] as string;
  const versionBefore = ((await get(`/x-nmos/node/v1.3/receivers/${id}`)).body as { version: string }).version;
  const senderId = '9f463872-9621-4939-aa3a-dc3c82d8578b';
  const staged = await request('PATCH', `${CONNECTION}/single/receivers/${id}/staged`, {
    sender_id: senderId,
    master_enable: true,
    transport_params: [
      {
        connection_uri: `ws://127.0.0.1:${port}/x-nmos/events/v1.0/socket`,
        ext_is_07_source_id: senderId,
        connection_authorization: 'auto',
      },
    ],
  });
  t.is(staged.status, 200);
  t.like(staged.body, { activation: { mode: null, activation_time: null }, transport_params: [{ connection_authorization: 'auto' }] });
  t.like((await get(`${CONNECTION}/single/receivers/${id}/active`)).body, { master_enable: false }, 'staged only, not active yet');
  const activated = await request('PATCH', `${CONNECTION}/single/receivers/${id}/staged`, { activation: { mode: 'activate_immediate' } });
  t.is(activated.status, 200);
  t.like(activated.body, { activation: { mode: 'activate_immediate', requested_time: null } });
  t.regex((activated.body as { activation: { activation_time: string } }).activation.activation_time, /^\d+:\d+$/);
  t.like((await get(`${CONNECTION}/single/receivers/${id}/staged`)).body, {
    activation: { mode: null, requested_time: null, activation_time: null },
  });
  const active = (await get(`${CONNECTION}/single/receivers/${id}/active`)).body;
  t.like(active, {
    sender_id: senderId,
    master_enable: true,
    transport_params: [{ connection_authorization: false, ext_is_07_source_id: senderId }],
  });
  const listed = (await get(`/x-nmos/node/v1.3/receivers/${id}`)).body as { version: string; subscription: unknown };
  t.deepEqual(listed.subscription, { sender_id: senderId, active: true });
  t.true(msOfTai(listed.version) > msOfTai(versionBefore) || listed.version > versionBefore, 'a new version');
  const again = await request('PATCH', `${CONNECTION}/single/receivers/${id}/staged`, { activation: { mode: 'activate_immediate' } });
  t.is(again.status, 200);
  const after = (await get(`/x-nmos/node/v1.3/receivers/${id}`)).body as { version: string };
  t.not(after.version, listed.version, 'an activation of the same parameters is a new version too (IS-05 re-applies them)');
  await request('PATCH', `${CONNECTION}/single/receivers/${id}/staged`, {
    master_enable: false,
    activation: { mode: 'activate_immediate' },
  });
  t.deepEqual(((await get(`/x-nmos/node/v1.3/receivers/${id}`)).body as { subscription: unknown }).subscription, {
    sender_id: null,
    active: false,
  });
});

test('a sender disabled through IS-05 sends no state to events clients, and its IS-04 subscription says so (R-NM3)', async (t) => {
  const { request, get, senders, port } = await nodeHub(t);
  const id = senders[0] as string;
  const { transport_params } = (await get(`${CONNECTION}/single/senders/${id}/active`)).body as {
    transport_params: { ext_is_07_source_id: string }[];
  };
  const sourceId = transport_params[0]?.ext_is_07_source_id;
  const patched = await request('PATCH', `${CONNECTION}/single/senders/${id}/staged`, {
    master_enable: false,
    transport_params: [{ connection_uri: 'auto' }],
    activation: { mode: 'activate_immediate' },
  });
  t.is(patched.status, 200);
  t.like((await get(`${CONNECTION}/single/senders/${id}/active`)).body, {
    master_enable: false,
    transport_params: [{ connection_uri: `ws://127.0.0.1:${port}/x-nmos/events/v1.0/socket` }],
  });
  t.deepEqual(((await get(`/x-nmos/node/v1.3/senders/${id}`)).body as { subscription: unknown }).subscription, {
    receiver_id: null,
    active: false,
  });
  const socket = new WebSocket(`ws://127.0.0.1:${port}/x-nmos/events/v1.0/socket`);
  t.teardown(() => socket.terminate());
  const heard: string[] = [];
  socket.on('message', (data: Buffer) => heard.push(JSON.parse(data.toString()).message_type));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ command: 'subscription', sources: [sourceId] }));
  socket.send(JSON.stringify({ command: 'health', timestamp: '1:0' }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.deepEqual(heard, ['health'], 'no state of a disabled sender');
  await request('PATCH', `${CONNECTION}/single/senders/${id}/staged`, { master_enable: true, activation: { mode: 'activate_immediate' } });
  socket.send(JSON.stringify({ command: 'subscription', sources: [sourceId] }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.deepEqual(heard, ['health', 'state'], 'enabled again, it does');
});

test('a scheduled activation answers 202 and locks staged (423) until it happens, or until cancelled (R-NM3)', async (t) => {
  const { request, get, receivers } = await nodeHub(t);
  const staged = `${CONNECTION}/single/receivers/${receivers[0]}/staged`;
  const active = async () => (await get(`${CONNECTION}/single/receivers/${receivers[0]}/active`)).body as Record<string, unknown>;
  // A minute ahead: the lock holds however slow the machine is.
  const at = `${Math.floor(Date.now() / 1000) + 37 + 60}:0`;
  const absolute = await request('PATCH', staged, {
    master_enable: true,
    activation: { mode: 'activate_scheduled_absolute', requested_time: at },
  });
  t.is(absolute.status, 202);
  t.like(absolute.body, { activation: { mode: 'activate_scheduled_absolute', requested_time: at, activation_time: at } });
  const locked = await request('PATCH', staged, { master_enable: false });
  t.is(locked.status, 423);
  t.like(locked.body, { code: 423, debug: 'PB_ACTIVATION_SCHEDULED' });
  t.like((await get(staged)).body, { master_enable: true }, 'nothing of the locked PATCH was staged');
  const cancelled = await request('PATCH', staged, { activation: { mode: null } });
  t.is(cancelled.status, 200);
  t.like(cancelled.body, { master_enable: true, activation: { mode: null, requested_time: null } });
  t.like(await active(), { master_enable: false }, 'the cancelled activation never happened');
  const relative = await request('PATCH', staged, { activation: { mode: 'activate_scheduled_relative', requested_time: '0:300000000' } });
  t.is(relative.status, 202);
  t.like(relative.body, { activation: { mode: 'activate_scheduled_relative', requested_time: '0:300000000' } });
  const deadline = Date.now() + 5000;
  while ((await active())['master_enable'] !== true && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  t.like(await active(), { master_enable: true, activation: { mode: 'activate_scheduled_relative', requested_time: '0:300000000' } });
  t.like((await get(staged)).body, { activation: { mode: null, requested_time: null, activation_time: null } });
});

test('the bulk interface stages many in one POST, each answered with the status it would have had alone (R-NM3)', async (t) => {
  const { request, get, receivers } = await nodeHub(t);
  const [first, second] = receivers as [string, string];
  const answer = await request('POST', `${CONNECTION}/bulk/receivers`, [
    { id: first, params: { transport_params: [{ connection_uri: 'ws://10.0.0.9:3210/x-nmos/events/v1.0/socket' }] } },
    { id: second, params: { transport_params: [{ connection_uri: 'not a uri' }] } },
    { id: '00000000-0000-5000-8000-000000000000', params: {} },
  ]);
  t.is(answer.status, 200);
  t.like(answer.body, [{ id: first, code: 200 }, { id: second, code: 400 }, { code: 404 }]);
  t.like((await get(`${CONNECTION}/single/receivers/${first}/staged`)).body, {
    transport_params: [{ connection_uri: 'ws://10.0.0.9:3210/x-nmos/events/v1.0/socket' }],
  });
  t.like((await get(`${CONNECTION}/single/receivers/${second}/staged`)).body, { transport_params: [{ connection_uri: null }] });
  t.is((await request('POST', `${CONNECTION}/bulk/receivers`, { id: first })).status, 400, 'not a list');
});

test('a receiver bound to what is not a parameter address, or with a bad name or event type, is refused when the flow is read, with its path (R-NM3)', (t) => {
  const refusal = (receivers: unknown) => {
    const result = validateFlow({ connections: { node: { type: 'nmos', port: 0, dnsSd: false, receivers } } }, '/virtual/flow.json5');
    return result.ok ? 'taken' : `${result.error.code}: ${result.error.message}`;
  };
  t.regex(refusal({ tally: { parameter: 'nothing' } }), /PB_FLOW_FILE_INVALID: .*connections\.node\.receivers\.tally\.parameter/s);
  t.regex(refusal({ 'no spaces': { parameter: 'studio/tally' } }), /PB_FLOW_FILE_INVALID: .*receivers/s);
  t.regex(refusal({ tally: { parameter: 'studio/tally', eventTypes: ['bad type'] } }), /PB_FLOW_FILE_INVALID: .*eventTypes/s);
  t.is(refusal({ tally: { parameter: 'studio/tally', eventTypes: ['boolean', 'number/*'] } }), 'taken');
});
