import test from 'ava';
import { Writable } from 'node:stream';
import mqttPacket from 'mqtt-packet';
import { writeOncePerTurn } from '../../lib/broker/turn-writes.ts';

/** A stream that keeps each write it is given, as the socket would see them. */
function recorder() {
  const writes: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk);
      done();
    },
  });
  return { stream, writes };
}

const publish = (i: number) => ({
  cmd: 'publish' as const,
  topic: `patchbay/desk/val/p${i}`,
  payload: String(i),
  qos: 1 as const,
  messageId: i + 1,
  retain: true,
  dup: false,
  properties: { userProperties: { hub: 'a', n: `1.1.${i}`, sig: 'x'.repeat(22) } },
});

const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

/** Every packet in `bytes`, read by mqtt-packet's own parser. */
function parse(bytes: Buffer): unknown[] {
  const parser = mqttPacket.parser({ protocolVersion: 5 });
  const packets: unknown[] = [];
  parser.on('packet', (packet) => packets.push(packet));
  parser.parse(bytes);
  return packets;
}

test("a turn's packets reach the socket as one write, whole and in order, when the turn ends", async (t) => {
  const { stream, writes } = recorder();
  writeOncePerTurn(stream);
  for (let i = 0; i < 3; i++) mqttPacket.writeToStream(publish(i), stream, { protocolVersion: 5 });
  t.is(writes.length, 0, 'nothing written before the turn ends');
  await turnEnds();
  t.is(writes.length, 1);
  const packets = parse(writes[0]!) as { topic: string; payload: Buffer; properties: { userProperties: unknown } }[];
  t.deepEqual(
    packets.map((packet) => [packet.topic, packet.payload.toString(), packet.properties.userProperties]),
    [0, 1, 2].map((i) => [`patchbay/desk/val/p${i}`, String(i), { hub: 'a', n: `1.1.${i}`, sig: 'x'.repeat(22) }]),
  );
  mqttPacket.writeToStream(publish(3), stream, { protocolVersion: 5 });
  await turnEnds();
  t.is(writes.length, 2, 'the next turn writes again');
});

test('a write that asks to be told when it went out goes at once, after what the turn gathered before it', async (t) => {
  const { stream, writes } = recorder();
  writeOncePerTurn(stream);
  mqttPacket.writeToStream(publish(0), stream, { protocolVersion: 5 });
  let told = false;
  stream.write(Buffer.from([0xc0, 0x00]), () => (told = true));
  // mqtt-packet corks the stream for the rest of the tick.
  await new Promise((resolve) => process.nextTick(resolve));
  t.is(writes.length, 2);
  t.is((parse(writes[0]!)[0] as { topic: string }).topic, 'patchbay/desk/val/p0');
  t.deepEqual([...writes[1]!], [0xc0, 0x00]);
  await turnEnds();
  t.true(told);
  t.is(writes.length, 2, 'nothing is left for the end of the turn');
});

test('what a closed socket gathered is dropped without an error', async (t) => {
  const { stream, writes } = recorder();
  writeOncePerTurn(stream);
  const errors: Error[] = [];
  stream.on('error', (error) => errors.push(error));
  mqttPacket.writeToStream(publish(0), stream, { protocolVersion: 5 });
  stream.destroy();
  await turnEnds();
  t.is(writes.length, 0);
  t.deepEqual(errors, []);
});
