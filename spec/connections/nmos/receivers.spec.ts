/**
 * IS-07 receivers connected through IS-05 (R-NM3), over real sockets: a receiver a
 * controller connects to a sender follows the sender's source — its bound parameter takes
 * each state — and deactivated it follows nothing; a sender that lies, floods or sends a
 * message past the bound is dropped and dialled again after a backoff, and the hub runs on.
 * The sender of the first spec is another nmos node of the hub (the local AMWA and nmos-cpp
 * runs of docs/contributing/nmos-testing.md meet a sender nobody here wrote); that of the
 * second is a scripted `ws` server, so it can misbehave on cue.
 */
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import type { Hub } from '../../../lib/hub/hub.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';
import { storeWith } from '../../helpers/state.ts';
import { LOOPBACK_NODE } from '../../helpers/nmos-node.ts';
import { baseOf } from '../../helpers/http.ts';

const CONNECTION = '/x-nmos/connection/v1.1';

const until = async (what: string, check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

async function patch(url: string, body: unknown) {
  const answer = await fetch(url, { method: 'PATCH', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

async function receiverHub(t: ExecutionContext, more: Record<string, unknown> = {}) {
  const hub = await startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: ['onair,B,false'] },
      monitor: { type: 'dummy', parameters: ['onair,B,false', 'title,S,'] },
      gallery: {
        ...LOOPBACK_NODE,
        seed: 'gallery',
        receivers: { onair: { parameter: 'monitor/onair' }, title: { parameter: 'monitor/title' } },
      },
      ...more,
    },
  });
  const receivers = (await (await fetch(`${baseOf(hub, 'gallery')}/x-nmos/node/v1.3/receivers`)).json()) as { id: string; label: string }[];
  const idOf = (name: string) => receivers.find(({ label }) => label.startsWith(`${name} `))?.id as string;
  return {
    hub,
    idOf,
    connect: (name: string, body: unknown) => patch(`${baseOf(hub, 'gallery')}${CONNECTION}/single/receivers/${idOf(name)}/staged`, body),
  };
}

/** A node of the hub serving `studio/onair` as its one sender. */
const STUDIO_NODE = { ...LOOPBACK_NODE, seed: 'studio', expose: ['studio/onair'] };

/** The one sender of the hub's `studio-node`: its id and its active transport parameters, as a controller reads them. */
async function studioSender(hub: Hub) {
  const node = baseOf(hub, 'studio-node');
  const [listed] = (await (await fetch(`${node}${CONNECTION}/single/senders`)).json()) as string[];
  const senderId = listed?.slice(0, -1) as string;
  const { transport_params } = (await (await fetch(`${node}${CONNECTION}/single/senders/${senderId}/active`)).json()) as {
    transport_params: Record<string, string>[];
  };
  return { senderId, leg: transport_params[0] };
}

test("a receiver connected through IS-05 to a node's sender follows its source until it is deactivated (R-NM3)", async (t) => {
  const { hub, idOf, connect } = await receiverHub(t, { 'studio-node': STUDIO_NODE });
  const { senderId, leg } = await studioSender(hub);
  param(hub, 'studio/onair').set(true);
  // What a controller does: the sender's transport parameters staged on the receiver, activated at once.
  const connected = await connect('onair', {
    sender_id: senderId,
    master_enable: true,
    activation: { mode: 'activate_immediate' },
    transport_params: [leg],
  });
  t.is(connected.status, 200, JSON.stringify(connected.body));
  await until('the source state on connect', () => param(hub, 'monitor/onair').value === true);
  param(hub, 'studio/onair').set(false);
  await until('the change', () => param(hub, 'monitor/onair').value === false);
  param(hub, 'studio/onair').set(true);
  await until('the next change', () => param(hub, 'monitor/onair').value === true);
  const listed = (await (await fetch(`${baseOf(hub, 'gallery')}/x-nmos/node/v1.3/receivers/${idOf('onair')}`)).json()) as {
    subscription: unknown;
  };
  t.deepEqual(listed.subscription, { sender_id: senderId, active: true });
  t.is(hub.connection('gallery')?.info.details?.['receiversLinked'], 1);
  t.is(hub.connection('studio-node')?.info.details?.['clients'], 1, 'one events client at the sender: the receiver');

  await connect('onair', { master_enable: false, activation: { mode: 'activate_immediate' } });
  await until('the link closed', () => hub.connection('studio-node')?.info.details?.['clients'] === 0);
  param(hub, 'studio/onair').set(false);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(param(hub, 'monitor/onair').value, true, 'deactivated, it follows no more');
  t.is(hub.connection('gallery')?.info.details?.['receiversLinked'], 0);
});

test('a sender that sends a message past the bound, floods or lies is dropped and dialled again after a backoff; the hub runs on (R-NM3)', async (t) => {
  const sourceId = '9f463872-9621-4939-aa3a-dc3c82d8578b';
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const commands: { at: number; command: string; sources?: string[] }[] = [];
  const acts = [
    // A state larger than the receiver's bound (maxMessageBytes) closes the link.
    (socket: WebSocket) =>
      socket.send(JSON.stringify({ message_type: 'state', identity: { source_id: sourceId }, payload: { value: 'x'.repeat(4096) } })),
    // A flood: more messages in a second than the receiver takes.
    (socket: WebSocket) => {
      for (let n = 0; n < 1100; n++) socket.send(JSON.stringify({ message_type: 'health', timing: {} }));
    },
    // Lies and noise (another source, not JSON, not IS-07), then the truth.
    (socket: WebSocket) => {
      socket.send(
        JSON.stringify({
          message_type: 'state',
          identity: { source_id: '00000000-0000-5000-8000-000000000000' },
          payload: { value: 'not ours' },
        }),
      );
      socket.send('{');
      socket.send('[1,2]');
      socket.send(
        JSON.stringify({
          message_type: 'state',
          identity: { source_id: sourceId },
          event_type: 'string',
          payload: { value: 'Evening news' },
        }),
      );
    },
  ];
  let connections = 0;
  server.on('connection', (socket) => {
    const act = acts[connections++];
    socket.on('message', (data) => {
      const command = JSON.parse(data.toString()) as { command: string; sources?: string[] };
      commands.push({ at: Date.now(), ...command });
      if (command.command === 'subscription') act?.(socket);
    });
  });
  // The receiver's bound for a message is the nmos connection's maxMessageBytes (here its least).
  const small = await startHub(t, {
    connections: {
      monitor: { type: 'dummy', parameters: ['title,S,'] },
      gallery: {
        ...LOOPBACK_NODE,
        maxMessageBytes: 1024,
        receivers: { title: { parameter: 'monitor/title' } },
      },
    },
  });
  const [receiver] = (await (await fetch(`${baseOf(small, 'gallery')}${CONNECTION}/single/receivers`)).json()) as string[];
  const answer = await patch(`${baseOf(small, 'gallery')}${CONNECTION}/single/receivers/${receiver}staged`, {
    master_enable: true,
    activation: { mode: 'activate_immediate' },
    transport_params: [{ connection_uri: `ws://127.0.0.1:${port}/`, ext_is_07_source_id: sourceId }],
  });
  t.is(answer.status, 200);
  await until(
    'the truth, after two drops and backoffs of 1 s and 2 s',
    () => param(small, 'monitor/title').value === 'Evening news',
    10_000,
  );
  t.is(connections, 3);
  const subscriptions = commands.filter(({ command }) => command === 'subscription');
  t.is(subscriptions.length, 3, 'a subscription on every connect');
  t.deepEqual(subscriptions[0]?.sources, [sourceId]);
  const gaps = subscriptions.slice(1).map(({ at }, index) => at - (subscriptions[index]?.at ?? 0));
  t.true((gaps[0] ?? 0) >= 900 && (gaps[1] ?? 0) >= 1900, `backoffs of 1 s then 2 s: ${gaps.join(', ')} ms`);
  t.true(
    commands.some(({ command }) => command === 'health'),
    'health commands as IS-07 asks',
  );
  t.is(small.connection('gallery')?.info.status, 'ok', 'the hub and the node run on');
  t.is(param(small, 'monitor/title').value, 'Evening news', 'not the other source’s state');
});

test("a number with IS-07's scale is written as value / scale, as nmos-cpp's temperature source sends it (R-NM3)", async (t) => {
  const sourceId = '4a1b1e15-4cd8-576d-8581-c08681867d80';
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) =>
    socket.on('message', () =>
      socket.send(
        JSON.stringify({
          message_type: 'state',
          identity: { source_id: sourceId, flow_id: sourceId },
          event_type: 'number/temperature/C',
          timing: { creation_timestamp: '1795949901:296600684' },
          payload: { scale: 10, value: 224 },
        }),
      ),
    ),
  );
  const hub = await startHub(t, {
    connections: {
      gallery: { type: 'dummy', parameters: ['temperature,F,0'] },
      node: {
        ...LOOPBACK_NODE,
        receivers: { temp: { parameter: 'gallery/temperature' } },
      },
    },
  });
  const [receiver] = (await (await fetch(`${baseOf(hub, 'node')}${CONNECTION}/single/receivers`)).json()) as string[];
  await patch(`${baseOf(hub, 'node')}${CONNECTION}/single/receivers/${receiver}staged`, {
    master_enable: true,
    activation: { mode: 'activate_immediate' },
    transport_params: [{ connection_uri: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`, ext_is_07_source_id: sourceId }],
  });
  await until('the temperature', () => param(hub, 'gallery/temperature').value !== 0);
  t.is(param(hub, 'gallery/temperature').value, 22.4);
});

test('a receiver whose sender cannot be reached is a problem of the connection under its name, gone once deactivated; the node stays ok (R-NM3)', async (t) => {
  const closed = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => closed.once('listening', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const { hub, connect } = await receiverHub(t);
  const answer = await connect('onair', {
    master_enable: true,
    activation: { mode: 'activate_immediate' },
    transport_params: [{ connection_uri: `ws://127.0.0.1:${port}/`, ext_is_07_source_id: '9f463872-9621-4939-aa3a-dc3c82d8578b' }],
  });
  t.is(answer.status, 200, 'IS-05: the activation is taken; the link is the receiver’s to recover');
  const problem = () => hub.problems().find((listed) => listed.id === 'gallery' && 'part' in listed && listed.part === 'onair');
  await until('the problem', () => problem()?.message.includes('ECONNREFUSED') === true);
  t.like(problem(), { code: 'PB_DEVICE_UNAVAILABLE' });
  t.is(hub.connection('gallery')?.info.status, 'ok');
  await connect('onair', { master_enable: false, activation: { mode: 'activate_immediate' } });
  t.is(problem(), undefined);
});

test('a state its parameter refuses is a problem under <receiver>/write with the write’s code, gone once a write is taken (R-NM3)', async (t) => {
  const hub = await startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: ['title,S,Morning'] },
      gallery: { type: 'dummy', parameters: ['level,F,0'] },
      node: {
        ...LOOPBACK_NODE,
        expose: ['studio/title'],
        receivers: { level: { parameter: 'gallery/level' } },
      },
    },
  });
  const node = baseOf(hub, 'node');
  const [sender] = (await (await fetch(`${node}${CONNECTION}/single/senders`)).json()) as string[];
  const { transport_params } = (await (await fetch(`${node}${CONNECTION}/single/senders/${sender}active`)).json()) as {
    transport_params: unknown[];
  };
  const [receiver] = (await (await fetch(`${node}${CONNECTION}/single/receivers`)).json()) as string[];
  // A controller connects the number receiver to a text source: 'Morning' is no number.
  await patch(`${node}${CONNECTION}/single/receivers/${receiver}staged`, {
    master_enable: true,
    activation: { mode: 'activate_immediate' },
    transport_params,
  });
  const problem = () => hub.problems().find((listed) => 'part' in listed && listed.part === 'level/write');
  await until('the refused write listed', () => problem() !== undefined);
  t.like(problem(), { id: 'node', code: 'PB_CONVERSION' });
  t.regex(problem()?.message ?? '', /gallery\/level refused what the sender sent \("Morning"\)/);
  t.is(param(hub, 'gallery/level').value, 0, 'nothing written');
  param(hub, 'studio/title').set('12.5');
  await until('the write taken', () => param(hub, 'gallery/level').value === 12.5);
  t.is(problem(), undefined);
});

test('what a controller activated is kept: a hub that restarts follows the same sender again, and a receiver deactivated stays so (R-NM3)', async (t) => {
  const studio = await startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: ['onair,B,false'] },
      'studio-node': STUDIO_NODE,
    },
  });
  const { senderId, leg } = await studioSender(studio);
  const state = await storeWith(t);
  const gallery = { ...LOOPBACK_NODE, seed: 'gallery' };
  const flowWith = (seed: string) => ({
    connections: {
      monitor: { type: 'dummy', parameters: ['onair,B,false'] },
      gallery: { ...gallery, seed, receivers: { onair: { parameter: 'monitor/onair' } } },
    },
  });
  const receiving = async (seed = 'gallery') => {
    const hub = await startHub(t, flowWith(seed), { state });
    const [receiver] = (await (await fetch(`${baseOf(hub, 'gallery')}/x-nmos/node/v1.3/receivers`)).json()) as { id: string }[];
    const url = `${baseOf(hub, 'gallery')}${CONNECTION}/single/receivers/${receiver?.id}`;
    return { hub, url, active: async () => (await (await fetch(`${url}/active`)).json()) as Record<string, unknown> };
  };

  const first = await receiving();
  const connected = await patch(`${first.url}/staged`, {
    sender_id: senderId,
    master_enable: true,
    activation: { mode: 'activate_immediate' },
    transport_params: [leg],
  });
  t.is(connected.status, 200, JSON.stringify(connected.body));
  param(studio, 'studio/onair').set(true);
  await until('the first hub follows', () => param(first.hub, 'monitor/onair').value === true);
  const wasActive = await first.active();
  await first.hub.stop();

  param(studio, 'studio/onair').set(false);
  const second = await receiving();
  t.deepEqual(await second.active(), wasActive, 'the same sender, transport parameters and activation');
  await until('the restarted hub takes the state on connect', () => param(second.hub, 'monitor/onair').value === false);
  param(studio, 'studio/onair').set(true);
  await until('and each change after', () => param(second.hub, 'monitor/onair').value === true);
  t.is(studio.connection('studio-node')?.info.details?.['clients'], 1, 'one link at the sender: the restarted hub');

  const off = await patch(`${second.url}/staged`, { master_enable: false, activation: { mode: 'activate_immediate' } });
  t.is(off.status, 200);
  await second.hub.stop();
  await until('the sender has no client', () => studio.connection('studio-node')?.info.details?.['clients'] === 0);
  const third = await receiving();
  t.is((await third.active())['master_enable'], false, 'deactivated before the restart, deactivated after');
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(studio.connection('studio-node')?.info.details?.['clients'], 0, 'no link at the sender');
});

test('a kept activation of another receiver id (the seed changed) is forgotten with a warning: the receiver follows nothing (R-NM3)', async (t) => {
  const state = await storeWith(t);
  const flowWith = (seed: string) => ({
    connections: {
      monitor: { type: 'dummy', parameters: ['onair,B,false'] },
      gallery: {
        ...LOOPBACK_NODE,
        seed,
        receivers: { onair: { parameter: 'monitor/onair' } },
      },
    },
  });
  const first = await startHub(t, flowWith('gallery'), { state });
  const [receiver] = (await (await fetch(`${baseOf(first, 'gallery')}/x-nmos/node/v1.3/receivers`)).json()) as { id: string }[];
  const connected = await patch(`${baseOf(first, 'gallery')}${CONNECTION}/single/receivers/${receiver?.id}/staged`, {
    sender_id: '9f463872-9621-4939-aa3a-dc3c82d8578b',
    master_enable: true,
    activation: { mode: 'activate_immediate' },
    transport_params: [{ connection_uri: 'ws://127.0.0.1:9/x-nmos/events', ext_is_07_source_id: '9f463872-9621-4939-aa3a-dc3c82d8578b' }],
  });
  t.is(connected.status, 200, JSON.stringify(connected.body));
  await first.stop();
  const { log, lines } = capturedLog('warn');
  const second = await startHub(t, flowWith('another'), { state, log });
  const [other] = (await (await fetch(`${baseOf(second, 'gallery')}/x-nmos/node/v1.3/receivers`)).json()) as { id: string }[];
  const active = (await (await fetch(`${baseOf(second, 'gallery')}${CONNECTION}/single/receivers/${other?.id}/active`)).json()) as Record<
    string,
    unknown
  >;
  t.is(active['master_enable'], false);
  t.true(
    lines().some(({ msg }) => msg.includes('the NMOS receiver onair: its kept activation is forgotten (kept for another receiver id)')),
    JSON.stringify(lines()),
  );
  t.deepEqual(
    second.problems().filter((listed) => listed.id === 'gallery'),
    [],
    'no problem: it follows nothing, as a receiver never connected',
  );
});
