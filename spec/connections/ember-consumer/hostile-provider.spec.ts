/**
 * The ember-consumer's bounds hold against a hostile provider (issue 44 item 3, R-G4): a flood
 * of keep-alive asks gets ten answers a second, not one each; a path too deep and a message
 * past `maxMessageBytes` are dropped and counted; what the provider says after them is read.
 * The provider is a plain TCP server writing frames made by emberplus-connection's coder.
 */
import { createServer, type Socket } from 'node:net';
import test from 'ava';
import { berEncode, Model, S101Codec, Types } from 'emberplus-connection';
import { eventually } from '../../helpers/eventually.ts';
import { startHub } from '../../helpers/hub.ts';

const codec = new S101Codec();
const framed = (elements: unknown[]) => Buffer.concat(codec.encodeBER(berEncode(elements as never, Types.RootType.Elements)));

/** A node `device` holding an integer parameter `level` of `value`, in one message. */
function tree(value: number): Buffer {
  const level = new Model.NumberedTreeNodeImpl(
    1,
    new Model.ParameterImpl(
      Model.ParameterType.Integer,
      'level',
      undefined,
      value,
      undefined,
      undefined,
      Model.ParameterAccess.ReadWrite,
    ) as never,
  );
  return framed([new Model.NumberedTreeNodeImpl(1, new Model.EmberNodeImpl('device') as never, { 1: level } as never)]);
}

/** A node 20,000 levels deep. */
function deepNode(): Buffer {
  const path = Array.from({ length: 20_000 }, (_, i) => 1 + (i % 9)).join('.');
  return framed([new Model.QualifiedElementImpl(path, new Model.EmberNodeImpl('deep') as never)]);
}

test('a hostile provider: a keep-alive flood gets ten answers a second, a path too deep and a message past the bound are dropped and counted, and what follows is read', async (t) => {
  let answers = 0;
  let floodEnded = 0;
  const server = createServer((socket: Socket) => {
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      // A keep-alive answer is the 5 bytes after BOF: slot 0, Ember, command 2 (answer).
      for (let i = chunk.indexOf(0xfe); i >= 0; i = chunk.indexOf(0xfe, i + 1)) if (chunk[i + 3] === 0x02) answers++;
    });
    const asks = Buffer.concat(Array.from({ length: 5000 }, () => codec.keepAliveRequest()));
    socket.write(asks);
    socket.write(deepNode());
    socket.write(Buffer.concat(codec.encodeBER(Buffer.alloc(200 * 1024, 0x30))));
    socket.write(tree(5), () => (floodEnded = Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const began = Date.now();
  const hub = await startHub(t, {
    connections: { dev: { type: 'ember-consumer', host: '127.0.0.1', port, maxMessageBytes: 65536 } },
  });

  await eventually(() => hub.graph.get('dev/device/level')?.value === 5, 'what followed the junk read');
  const details = () => hub.connection('dev')?.info.details as { dropped: { messages: number } };
  await eventually(() => details().dropped.messages >= 2, 'the deep path and the oversized message dropped');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const seconds = (Date.now() - began) / 1000;
  t.log(
    `${answers} keep-alive answers to 5,000 asks in ${seconds.toFixed(1)} s (the flood written by ${((floodEnded - began) / 1000).toFixed(1)} s)`,
  );
  t.true(answers <= Math.ceil(seconds * 10) + 1, `${answers} answers in ${seconds.toFixed(1)} s`);
  t.true(answers >= 1, 'a keep-alive is still answered');
});
