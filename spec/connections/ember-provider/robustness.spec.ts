/**
 * The hub's consumer against the hub's provider (R-E3), and a provider that holds up against
 * consumers that misbehave: one that never reads, frames that are malformed or too large
 * (R-G4), and 10,000 parameters.
 */
import { connect, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { berEncode, EmberClient, Model, S101Codec, Types } from 'emberplus-connection';
import type { Hub } from '../../../lib/hub/hub.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';
import { freePort } from '../../helpers/ports.ts';

async function provider(t: ExecutionContext, lines: string[], settings: object = {}): Promise<{ hub: Hub; port: number }> {
  const port = await freePort();
  const hub = await startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: lines },
      ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['studio/#'], write: ['studio/#'], ...settings },
    },
  });
  return { hub, port };
}

/** A consumer made of bytes: the library's frame writer and BER coder, the socket ours, to misbehave with. */
async function rawConsumer(
  t: ExecutionContext,
  port: number,
): Promise<{ socket: Socket; received: () => number; getDirectory(path?: string): void }> {
  const socket = connect({ port, host: '127.0.0.1' });
  t.teardown(() => void socket.destroy());
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  const codec = new S101Codec();
  const getDirectory = (path = '') => {
    const command = { type: Model.ElementType.Command, number: 32 } as never;
    const element = path
      ? new Model.QualifiedElementImpl(path, new Model.EmberNodeImpl() as never, [new Model.NumberedTreeNodeImpl(0, command)] as never)
      : new Model.NumberedTreeNodeImpl(0, command);
    for (const frame of codec.encodeBER(berEncode([element] as never, Types.RootType.Elements))) socket.write(frame);
  };
  return { socket, received: () => received, getDirectory };
}

test('the hub’s consumer reads the hub’s provider: same values and types, writes go through, changes come back', async (t) => {
  const { hub: studioHub, port } = await provider(t, ['fader/1,F,0.5', 'onair,B,false', 'title,S,Hello', 'count,I,3', 'go,T']);
  const captured = capturedLog();
  const desk = await startHub(t, { connections: { desk: { type: 'ember-consumer', host: '127.0.0.1', port } } }, { log: captured.log });
  await eventually(() => desk.graph.get('desk/studio/fader/1')?.value === 0.5, 'the tree to be read');
  t.deepEqual(
    desk.graph
      .byPrefix('desk/')
      .map((p) => [p.id, p.type, p.access, p.value])
      .sort(),
    [
      ['studio/count', 'I', 'read-write', 3],
      ['studio/fader/1', 'F', 'read-write', 0.5],
      ['studio/onair', 'B', 'read-write', false],
      ['studio/title', 'S', 'read-write', 'Hello'],
    ],
  );
  const answer = await new Promise((resolve) => param(desk, 'desk/studio/onair').set('on', 'spec', resolve));
  t.deepEqual(answer, { ok: true, value: true });
  t.is(param(studioHub, 'studio/onair').value, true);
  t.regex(param(studioHub, 'studio/onair').lastChange?.by ?? '', /^ember 127\.0\.0\.1:/);
  param(studioHub, 'studio/title').set('Breaking');
  await eventually(() => param(desk, 'desk/studio/title').value === 'Breaking', 'the change to come back');
  t.true(captured.lines().some((line) => /studio\/go: skipped, a function/.test(line.msg)));
});

test('a consumer that never reads is cut off past maxQueuedBytes, and the others go on hearing every change', async (t) => {
  const { hub, port } = await provider(t, ['title,S,'], { maxQueuedBytes: 65_536 });
  const stalled = await rawConsumer(t, port);
  stalled.getDirectory();
  stalled.getDirectory('1');
  await eventually(() => stalled.received() > 0, 'the stalled consumer to be answered once');
  stalled.socket.pause();
  const client = new EmberClient('127.0.0.1', port);
  t.teardown(() => client.discard());
  client.on('error', () => {});
  await client.connect();
  await client.expand(client.tree as never);
  const title = (await client.getElementByPath('studio.title')) as Model.TreeElement<Model.Parameter>;
  // Changes well within what the reading consumer (in this process) reads between two polls:
  // a burst past maxQueuedBytes at once cut it off too, now and then.
  const long = 'x'.repeat(16_000);
  let n = 0;
  await eventually(
    () => {
      for (let i = 0; i < 3; i++) param(hub, 'studio/title').set(`${n++}${long}`);
      return hub.connection('ember')?.info.details?.['cutOff'] === 1;
    },
    () => `the stalled consumer to be cut off: ${JSON.stringify(hub.connection('ember')?.info.details)}`,
    30_000,
  );
  param(hub, 'studio/title').set('last');
  await eventually(() => title.contents.value === 'last', 'the reading consumer to hear the last change');
  t.is(hub.connection('ember')?.info.details?.['consumers'], 1);
});

test('malformed and oversized frames are dropped and counted; the consumer’s connection stays open and the hub runs on', async (t) => {
  const { hub, port } = await provider(t, ['level,F,0.5'], { maxMessageBytes: 1024 });
  const consumer = await rawConsumer(t, port);
  consumer.socket.write(Buffer.from([0x01, 0x02, 0x03])); // bytes before any frame
  consumer.socket.write(Buffer.from([0xfe, 0x00, 0x0e, 0x00, 0x01, 0xc0, 0x01, 0x02, 0x31, 0x01, 0x12, 0x34, 0xff])); // a bad CRC
  consumer.socket.write(Buffer.concat([Buffer.from([0xfe]), Buffer.alloc(5000, 0x41), Buffer.from([0xff])])); // too large
  await eventually(() => Number(hub.connection('ember')?.info.details?.['dropped']) >= 2, 'the frames to be dropped');
  consumer.getDirectory();
  await eventually(() => consumer.received() > 0, 'the same connection to be answered');
  t.is(hub.connection('ember')?.info.status, 'ok');
  t.is(param(hub, 'studio/level').set(0.7).ok, true);
});

test('10,000 exposed parameters are read whole by a consumer, and a change still comes through', async (t) => {
  const lines = Array.from({ length: 10_000 }, (_, i) => `bank${Math.floor(i / 1000)}/p${i},I,${i}`);
  const { hub, port } = await provider(t, lines);
  const desk = await startHub(t, { connections: { desk: { type: 'ember-consumer', host: '127.0.0.1', port } } });
  await eventually(() => desk.graph.byPrefix('desk/').length === 10_000, 'every parameter to be read', 60_000);
  t.is(param(desk, 'desk/studio/bank9/p9999').value, 9999);
  param(hub, 'studio/bank4/p4321').set(-1);
  await eventually(() => param(desk, 'desk/studio/bank4/p4321').value === -1, 'the change');
});
