/**
 * A consumer cannot pin the hub (issue 44 item 3): a million Subscribes for paths that name
 * nothing keep nothing, and a consumer past its bound on requests is cut off with a log line
 * while `/healthz` and other consumers carry on; hostile frames (a path too deep, floods of
 * keep-alives or empty frames, a message past its bound, one whose last frame never comes) are
 * dropped or cut off the same way. The frames are written by emberplus-connection's coder.
 */
import { connect } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { Hub } from '../../../lib/hub/hub.ts';
import { berEncode, EmberClient, Model, S101Codec, Types } from 'emberplus-connection';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';
import { serve } from '../../helpers/http.ts';
import { freePort } from '../../helpers/ports.ts';

/** One message of `count` Subscribe commands on made-up paths, written by the library's coder. */
function subscribes(count: number, from: number): Buffer {
  const codec = new S101Codec();
  const elements = Array.from(
    { length: count },
    (_, i) =>
      new Model.QualifiedElementImpl(
        `9.${from + i}.7`,
        new Model.EmberNodeImpl() as never,
        [new Model.NumberedTreeNodeImpl(0, { type: Model.ElementType.Command, number: 30 } as never)] as never,
      ),
  );
  return Buffer.concat(codec.encodeBER(berEncode(elements as never, Types.RootType.Elements)));
}

/** A GetDirectory on a path `depth` numbers deep: 20,000 of them fit in 40 KiB. */
function deepDirectory(depth: number): Buffer {
  const path = Array.from({ length: depth }, (_, i) => 1 + (i % 9)).join('.');
  const element = new Model.QualifiedElementImpl(
    path,
    new Model.EmberNodeImpl() as never,
    [new Model.NumberedTreeNodeImpl(0, { type: Model.ElementType.Command, number: 32 } as never)] as never,
  );
  return Buffer.concat(new S101Codec().encodeBER(berEncode([element] as never, Types.RootType.Elements)));
}

/** A consumer of emberplus-connection that reads the tree and sets `studio.level` to `value`, as before any attack. */
async function setsLevel(t: ExecutionContext, port: number, hub: Hub, value: number): Promise<EmberClient> {
  const client = new EmberClient('127.0.0.1', port, 3000);
  t.teardown(() => client.discard());
  client.on('error', () => {});
  await client.connect();
  await client.expand(client.tree as never);
  const level = await client.getElementByPath('studio.level');
  await (await client.setValue(level as never, value)).response;
  t.is(param(hub, 'studio/level').value, value);
  return client;
}

/** Milliseconds of one `/healthz`. */
async function healthz(base: string): Promise<number> {
  const started = performance.now();
  await (await fetch(`${base}/healthz`)).text();
  return performance.now() - started;
}

test('a million Subscribes for made-up paths keep nothing, cut the consumer off, and leave /healthz and other consumers answered', async (t) => {
  const port = await freePort();
  const { hub, base } = await serve(
    t,
    {},
    {
      studio: { type: 'dummy', parameters: ['level,I,3'] },
      ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['studio/#'], write: ['studio/#'] },
    },
  );
  const baseline: number[] = [];
  for (let i = 0; i < 20; i++) baseline.push(await healthz(base));

  const batch = subscribes(1000, 0);
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let closed = false;
  socket.once('close', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  const during: number[] = [];
  let sent = 0;
  // 1,000 messages of 1,000: a million Subscribes, written as fast as the socket takes them.
  const flood = (async () => {
    for (; sent < 1000 && !closed; sent++)
      if (!socket.write(batch)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
  })();
  while (!closed && during.length < 200) during.push(await healthz(base));
  await flood;
  await eventually(() => closed, 'the consumer cut off');
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
  t.log(
    `/healthz median ${median(baseline).toFixed(1)} ms before, ${median(during).toFixed(1)} ms during (${during.length} asked); ${sent} of 1,000 messages of 1,000 Subscribes written before the cut`,
  );
  const details = hub.connection('ember')?.info.details as { followedPaths: number; cutOff: number; consumers: number };
  t.is(details.followedPaths, 0, 'nothing kept for paths that name nothing');
  t.true(details.cutOff >= 1);
  t.true(sent < 1000, 'cut off before it had sent them all');

  // Another consumer reads and writes as before.
  await setsLevel(t, port, hub, 8);
});

/** Writes `bytes` `times` times (or until the hub closes the socket); resolves with whether it was closed. */
async function flood(port: number, bytes: Buffer, times: number): Promise<{ closed: boolean; sent: number }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.on('data', () => {});
  let closed = false;
  socket.once('close', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  let sent = 0;
  for (; sent < times && !closed; sent++)
    if (!socket.write(bytes)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
  await Promise.race([eventually(() => closed, 'the consumer cut off', 10_000).catch(() => {}), new Promise((r) => setTimeout(r, 3000))]);
  socket.destroy();
  return { closed, sent };
}

test('hostile frames: a path too deep, floods of keep-alives and of empty frames, a message past its bound, one whose last frame never comes — dropped or cut off with a log line, /healthz and another consumer answered throughout', async (t) => {
  const port = await freePort();
  const captured = capturedLog();
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        studio: { type: 'dummy', parameters: ['level,I,3'] },
        ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['studio/#'], write: ['studio/#'] },
      },
    },
    { log: captured.log },
  );
  const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port']}`;
  const baseline: number[] = [];
  for (let i = 0; i < 20; i++) baseline.push(await healthz(base));
  const during: number[] = [];
  let attacking = true;
  const asking = (async () => {
    while (attacking) during.push(await healthz(base));
  })();
  t.teardown(() => {
    attacking = false;
    return asking;
  });
  const codec = new S101Codec();
  const warned = (text: string) => captured.lines().some((line) => line.connection === 'ember' && line.msg.includes(text));

  // A path 20,000 levels deep, again and again: each message dropped, and the sender cut off.
  const deep = await flood(port, deepDirectory(20_000), 1000);
  t.true(warned('a path deeper than 64 levels, dropped'), 'the deep path said');
  t.true(deep.closed && warned('more than 100 of its messages dropped'), 'a sender of nothing but such messages cut off');
  // Keep-alives and empty frames count as requests: a flood of either is cut off.
  const keepalives = await flood(port, Buffer.concat(Array.from({ length: 1000 }, () => codec.keepAliveRequest())), 1000);
  t.true(keepalives.closed, 'a keep-alive flood cut off');
  const empties = await flood(port, Buffer.concat(Array.from({ length: 1000 }, () => codec.encodeBER(Buffer.alloc(0))).flat()), 1000);
  t.true(empties.closed, 'an empty-frame flood cut off');
  t.true(warned('more than 20000 requests in a second'));
  // A message of 1 MiB whose last frame never comes: dropped at the consumer's bound (64 KiB), not held.
  const droppedNow = () => hub.connection('ember')?.info.details?.['dropped'];
  const droppedBefore = droppedNow();
  const frames = codec.encodeBER(Buffer.alloc(1024 * 1024, 0x30));
  await flood(port, Buffer.concat(frames.slice(0, -1)), 1);
  await eventually(() => droppedNow() === Number(droppedBefore) + 1, 'the unfinished message dropped at its bound');
  attacking = false;
  await asking;

  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
  t.log(
    `/healthz median ${median(baseline).toFixed(1)} ms before, ${median(during).toFixed(1)} ms during (${during.length} asked, the longest ${Math.max(...during).toFixed(0)} ms)`,
  );
  const details = hub.connection('ember')?.info.details as { followedPaths: number; cutOff: number };
  t.is(details.followedPaths, 0);
  t.true(details.cutOff >= 3);

  const client = await setsLevel(t, port, hub, 9);
  t.true(Number(hub.connection('ember')?.info.details?.['followedPaths']) > 0, 'the reading consumer follows its paths');
  await client.disconnect();
  await eventually(() => hub.connection('ember')?.info.details?.['followedPaths'] === 0, 'paths nobody follows let go');
});
