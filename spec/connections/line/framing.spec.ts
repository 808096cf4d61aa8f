import test from 'ava';
import { type FramingOptions, Framer, wireFrame } from '../../../lib/sdk/device/framing.ts';

function framed(options: FramingOptions, chunks: readonly Buffer[], end?: { lastFrameOpen: boolean }) {
  const frames: string[] = [];
  const overruns: [string, boolean][] = [];
  const framer = new Framer(options, { frame: (text) => frames.push(text), overrun: (reason, fatal) => overruns.push([reason, fatal]) });
  for (const chunk of chunks) framer.push(chunk);
  if (end) framer.end(end);
  return { frames, overruns };
}

const crlf = { kind: 'delimiter', delimiter: Buffer.from('\r\n') } as const;

test('delimited frames come whole whatever the chunks, a delimiter split across two chunks included (R-N1)', (t) => {
  const text = 'ROUTE 1 3\r\nROUTE 2 4\r\n\r\nGPI 1 ON\r\n';
  for (let cut = 0; cut <= text.length; cut++) {
    const { frames } = framed({ framing: crlf, encoding: 'utf8', maxFrameBytes: 64 }, [
      Buffer.from(text.slice(0, cut)),
      Buffer.from(text.slice(cut)),
    ]);
    t.deepEqual(frames, ['ROUTE 1 3', 'ROUTE 2 4', '', 'GPI 1 ON'], `cut at ${cut}`);
  }
  t.deepEqual(
    framed({ framing: crlf, encoding: 'utf8', maxFrameBytes: 64 }, [Buffer.from('A\r\nB')], { lastFrameOpen: true }).frames,
    ['A', 'B'],
    "a datagram's last frame",
  );
  t.deepEqual(
    framed({ framing: crlf, encoding: 'utf8', maxFrameBytes: 64 }, [Buffer.from('A\r\nB')], { lastFrameOpen: false }).frames,
    ['A'],
    "a stream's unfinished frame",
  );
});

test('fixed-length and length-prefixed frames, in hex and latin1 (R-N1)', (t) => {
  const bytes = Buffer.from([0x01, 0xff, 0x02, 0x10, 0x20, 0x30]);
  t.deepEqual(
    framed({ framing: { kind: 'length', length: 2 }, encoding: 'hex', maxFrameBytes: 64 }, [bytes.subarray(0, 3), bytes.subarray(3)])
      .frames,
    ['01ff', '0210', '2030'],
  );
  const options: FramingOptions = { framing: { kind: 'lengthPrefix', prefixBytes: 2 }, encoding: 'latin1', maxFrameBytes: 300 };
  const wire = Buffer.concat([wireFrame('hé', options), wireFrame('x'.repeat(260), options)]);
  t.deepEqual([...wire.subarray(0, 4)], [0, 2, 0x68, 0xe9], 'a two-byte big-endian length, then latin1 bytes');
  const split = framed(options, [wire.subarray(0, 1), wire.subarray(1, 5), wire.subarray(5)]);
  t.deepEqual(split.frames, ['hé', 'x'.repeat(260)]);
  const fourBytes: FramingOptions = { framing: { kind: 'lengthPrefix', prefixBytes: 4 }, encoding: 'hex', maxFrameBytes: 16 };
  t.deepEqual([...wireFrame('A0 0b', fourBytes)], [0, 0, 0, 2, 0xa0, 0x0b], 'hex with spaces between bytes');
});

test('past maxFrameBytes: a delimited stream drops the frame and goes on after the next delimiter; a length prefix gives the stream up (R-G4)', (t) => {
  const small = { framing: crlf, encoding: 'utf8', maxFrameBytes: 8 } as const;
  const { frames, overruns } = framed(small, [
    Buffer.from('OK\r\n'),
    Buffer.from('x'.repeat(100)),
    Buffer.from('y'.repeat(100)),
    Buffer.from('z\r\nAFTER\r\n'),
  ]);
  t.deepEqual(frames, ['OK', 'AFTER']);
  t.is(overruns.length, 1, 'one overrun for one long frame, however many chunks it came in');
  t.false(overruns[0]![1]);
  const prefixed = framed({ framing: { kind: 'lengthPrefix', prefixBytes: 4 }, encoding: 'utf8', maxFrameBytes: 8 }, [
    Buffer.from([0, 0, 1, 0, 65]),
    Buffer.from([0, 0, 0, 1, 66]),
  ]);
  t.deepEqual(prefixed.frames, []);
  t.deepEqual(prefixed.overruns, [['a frame announced 256 bytes, more than maxFrameBytes (8)', true]]);
});
