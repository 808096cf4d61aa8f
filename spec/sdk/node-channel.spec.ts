import { PassThrough } from 'node:stream';
import { serialize } from 'node:v8';
import test from 'ava';
import { framed, isFlatRecord, NodeChannel } from '../../lib/sdk/process/node-channel.ts';

/** A channel over a stream whose writes it reads, and what it told. */
function channel(maxFrameBytes = 1024) {
  const socket = new PassThrough();
  const told = { messages: [] as unknown[], dropped: 0, faults: [] as string[] };
  const read = new NodeChannel(
    socket,
    { message: (message) => told.messages.push(message), dropped: () => void told.dropped++, fault: (reason) => told.faults.push(reason) },
    { maxFrameBytes, flat: true },
  );
  return { socket, told, read };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a record of texts, numbers, booleans, null and undefined is flat; anything holding an object or a list is not', (t) => {
  const flat = [
    { direction: 'call', name: 'x', payload: '{"a":1}', callbackId: 3 },
    { payload: 'é€😀\u0000', success: true, callbackId: undefined, none: null },
    { a: -5, b: 1.5, c: 2 ** 31, d: -(2 ** 40), e: false, 7: 'numeric key' },
    {},
  ];
  for (const record of flat) t.true(isFlatRecord(serialize(record)), JSON.stringify(record));
  const notFlat = [{ a: { b: 1 } }, { a: [1] }, [1, 2], 'text', 5, { a: new Date(0) }, { a: Buffer.from('x') }, { a: 10n }];
  for (const value of notFlat) t.false(isFlatRecord(serialize(value)), String(value));
  t.false(isFlatRecord(serialize({ a: 'x' }).subarray(0, 6)), 'cut short');
  t.false(isFlatRecord(Buffer.from('AAAAAAAA')), 'junk');
});

test('messages cut anywhere are read whole and in order; one that is not flat is dropped unread', async (t) => {
  const { socket, told } = channel();
  const bytes = Buffer.concat([framed({ n: 1 }), framed({ n: { deep: true } }), framed({ n: 3, text: 'x'.repeat(300) })]);
  for (let at = 0; at < bytes.length; at += 7) socket.write(bytes.subarray(at, at + 7));
  await settle();
  t.deepEqual(told.messages, [{ n: 1 }, { n: 3, text: 'x'.repeat(300) }]);
  t.is(told.dropped, 1);
  t.deepEqual(told.faults, []);
});

test('junk, or a length past the bound, is a fault told once, and nothing after it is read', async (t) => {
  const junk = channel();
  junk.socket.write(Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from('AAAAAAAA'), framed({ after: true })]));
  await settle();
  t.deepEqual(junk.told.messages, []);
  t.is(junk.told.faults.length, 1);
  t.regex(junk.told.faults[0] ?? '', /no message/);

  const long = channel(100);
  long.socket.write(Buffer.from([0x41, 0x41, 0x41, 0x41]));
  await settle();
  t.deepEqual(long.told.faults, ['it sent a message of 1094795585 bytes, more than the 100 taken']);
  t.false(long.read.open);
});
