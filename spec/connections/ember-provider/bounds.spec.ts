/**
 * A consumer cannot pin the hub (issue 44 item 3): a million Subscribes for paths that name
 * nothing keep nothing, and a consumer past its bound on requests is cut off with a log line
 * while `/healthz` and other consumers carry on.
 */
import { connect } from 'node:net';
import test from 'ava';
import { berEncode, EmberClient, Model, S101Codec, Types } from 'emberplus-connection';
import { eventually } from '../../helpers/eventually.ts';
import { param } from '../../helpers/hub.ts';
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
  const client = new EmberClient('127.0.0.1', port, 3000);
  t.teardown(() => client.discard());
  client.on('error', () => {});
  await client.connect();
  await client.expand(client.tree as never);
  const level = await client.getElementByPath('studio.level');
  await (await client.setValue(level as never, 8)).response;
  t.is(param(hub, 'studio/level').value, 8);
});
