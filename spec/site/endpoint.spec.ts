/**
 * A vote endpoint takes signed datagrams from the group's voters alone (R-AV2): a sender id
 * that names something every object has (`constructor`, `__proto__`, `toString`) is a
 * stranger like any other, on a real UDP socket.
 */
import { createSocket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { type Dropped, VoteEndpoint } from '../../lib/site/vote/endpoint.ts';
import { encode } from '../../lib/site/vote/wire.ts';
import { eventually } from '../helpers/eventually.ts';

test('a signed ask from a sender that is not a voter is dropped as a stranger, whatever its id', async (t) => {
  const key = randomBytes(32);
  const dropped: [Dropped, string | undefined][] = [];
  const endpoint = await VoteEndpoint.open({
    id: 'witness',
    group: 'studio',
    key,
    listen: { host: '127.0.0.1', port: 0 },
    voters: { a: undefined, b: undefined, witness: undefined },
    start: Date.now(),
    dropped: (why, from) => void dropped.push([why, from]),
  });
  t.teardown(() => endpoint.close());
  const sender = createSocket('udp4');
  t.teardown(() => sender.close());
  const strangers = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'c'];
  for (const [n, from] of strangers.entries()) {
    const ask = encode(key, { k: 'ask', g: 'studio', from, to: 'witness', s: { start: 1, n }, request: { candidate: from, epoch: 1 } });
    sender.send(ask, endpoint.port, '127.0.0.1');
  }
  await eventually(
    () => dropped.length === strangers.length,
    () => `every ask dropped (so far ${JSON.stringify(dropped)})`,
  );
  t.deepEqual(
    dropped,
    strangers.map((from) => ['stranger', from]),
  );
});
