import test from 'ava';
import { param } from '../helpers/hub.ts';
import { Client, serve, settle } from '../helpers/http.ts';

const studio = {
  studio: {
    type: 'dummy',
    parameters: ['count,I,3', 'level,F,0.5', 'title,S,Morning Show', 'note,S', 'cue,T', 'mic/1/open,B,false', 'mic/2/open,B,true'],
  },
  clock: { type: 'timer', timers: [{ duration: 100000 }] },
};

test('on connect a client gets the current value of every known parameter, then changes', async (t) => {
  const { hub, port } = await serve(t, {}, studio);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  await client.untilCount(6);
  t.deepEqual(client.messages, [
    { p: 'studio/count', v: '3' },
    { p: 'studio/level', v: '0.5' },
    { p: 'studio/title', v: 'Morning Show' },
    { p: 'studio/mic/1/open', v: 'false' },
    { p: 'studio/mic/2/open', v: 'true' },
    { p: 'clock/timer/1/left', v: '0' },
  ]);
  param(hub, 'studio/count').set(4);
  param(hub, 'studio/note').set('first value');
  param(hub, 'studio/cue').set(null);
  param(hub, 'studio/count').set(4); // no change, no message
  await client.untilCount(9);
  await settle();
  t.deepEqual(client.messages.slice(6), [
    { p: 'studio/count', v: '4' },
    { p: 'studio/note', v: 'first value' },
    { p: 'studio/cue', v: 'true' },
  ]);
});

test('wsFilters choose what the stream carries; ?filter= narrows it per client', async (t) => {
  const { hub, port } = await serve(t, { wsFilters: ['^studio/mic/', '/count$'] }, studio);
  const all = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const mic1 = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=${encodeURIComponent('/1/')}`);
  const twoFilters = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=count&filter=${encodeURIComponent('2/open$')}`);
  const outside = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=title`);
  await all.untilCount(3);
  await mic1.untilCount(1);
  await twoFilters.untilCount(2);
  for (const [address, value] of [
    ['studio/mic/1/open', true],
    ['studio/title', 'News'],
    ['studio/level', 0.9],
    ['studio/count', 10],
    ['studio/mic/2/open', false],
  ] as const)
    param(hub, address).set(value);
  await all.untilCount(6);
  await settle();
  const addresses = (c: Client) => c.messages.map((m) => (m as { p: string }).p);
  t.deepEqual(addresses(all), [
    'studio/count',
    'studio/mic/1/open',
    'studio/mic/2/open',
    'studio/mic/1/open',
    'studio/count',
    'studio/mic/2/open',
  ]);
  t.deepEqual(addresses(mic1), ['studio/mic/1/open', 'studio/mic/1/open']);
  t.deepEqual(addresses(twoFilters), ['studio/count', 'studio/mic/2/open', 'studio/count', 'studio/mic/2/open']);
  t.deepEqual(addresses(outside), [], 'a client filter cannot widen the server filters');
});

test('a parameter defined while clients are connected streams its value', async (t) => {
  const { hub, port } = await serve(t, { wsFilters: ['^late/'] });
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const late = hub.graph.define('late', 'x', { type: 'S', access: 'read-write', initial: 'hello' });
  t.true(late.ok);
  await client.untilCount(1);
  t.deepEqual(client.messages, [{ p: 'late/x', v: 'hello' }]);
});

test('a client writes with {p, v} and with batches; everyone sees the change', async (t) => {
  const { hub, port } = await serve(t, { wsFilters: ['^studio/(count|title)$'] }, studio);
  const writer = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const watcher = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  await watcher.untilCount(2);
  writer.send({ p: 'studio/count', v: '7.9' });
  writer.send([
    { p: 'studio/title', v: 'Evening' },
    { p: 'studio/count', v: 8 },
    { p: 'studio/cue', v: null },
  ]);
  await watcher.untilCount(5);
  t.deepEqual(watcher.messages.slice(2), [
    { p: 'studio/count', v: '7' },
    { p: 'studio/title', v: 'Evening' },
    { p: 'studio/count', v: '8' },
  ]);
  t.is(param(hub, 'studio/count').value, 8);
});

test('bad messages are answered with {p, error, code} on the same socket, which stays open', async (t) => {
  const shape = 'expected {"p":"<address>","v":<value>} or an array of them';
  const { hub, port } = await serve(t, { wsFilters: ['^none$'] }, studio);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const bad: [unknown, object][] = [
    ['not json', { p: null, error: 'the message is not UTF-8 JSON', code: 'PB_BAD_REQUEST' }],
    [42, { p: null, error: shape, code: 'PB_BAD_REQUEST' }],
    [{ v: 1 }, { p: null, error: shape, code: 'PB_BAD_REQUEST' }],
    [{ p: 'studio/count' }, { p: 'studio/count', error: shape, code: 'PB_BAD_REQUEST' }],
    [
      { p: 'studio/nope', v: 1 },
      { p: 'studio/nope', error: 'studio/nope: connection "studio" has no parameter "nope"', code: 'PB_UNKNOWN_PARAMETER' },
    ],
    [
      { p: 'clock/timer/1/trigger', v: 1 },
      { p: 'clock/timer/1/trigger', error: 'clock/timer/1/trigger is read-only', code: 'PB_READ_ONLY' },
    ],
    [
      { p: 'studio/count', v: 'many' },
      { p: 'studio/count', error: 'studio/count: cannot convert "many" to integer: not a decimal number', code: 'PB_CONVERSION' },
    ],
    [
      { p: 'studio/count', v: { n: 1 } },
      { p: 'studio/count', error: 'studio/count: cannot convert an object to integer', code: 'PB_CONVERSION' },
    ],
  ];
  for (const [message] of bad) client.send(typeof message === 'string' ? message : JSON.stringify(message));
  client.socket.send(Buffer.from([0xff, 0xfe, 0x7b]));
  await client.untilCount(bad.length + 1);
  t.deepEqual(client.messages, [
    ...bad.map(([, answer]) => answer),
    { p: null, error: 'the message is not UTF-8 JSON', code: 'PB_BAD_REQUEST' },
  ]);
  client.send([
    { p: 'studio/count', v: 5 },
    { p: 'studio/nope', v: 1 },
    { p: 'studio/level', v: 0.25 },
  ]);
  await client.untilCount(bad.length + 2);
  t.deepEqual(client.messages.at(-1), {
    p: 'studio/nope',
    error: 'studio/nope: connection "studio" has no parameter "nope"',
    code: 'PB_UNKNOWN_PARAMETER',
  });
  t.is(client.socket.readyState, client.socket.OPEN);
  t.is(param(hub, 'studio/count').value, 5, 'the good items of a batch are written');
  t.is(param(hub, 'studio/level').value, 0.25);
});

test('a bad ?filter= refuses the upgrade with 400', async (t) => {
  const { port } = await serve(t);
  await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws?filter=(`), { message: 'upgrade refused: 400' });
});

test('no change is lost or reordered between the snapshot and the live stream', async (t) => {
  const lines = Array.from({ length: 5000 }, (_, i) => `bulk/${i},I,${i}`);
  const { hub, port } = await serve(t, {}, { studio: { type: 'dummy', parameters: ['counter,I,0', ...lines] } });
  const counter = param(hub, 'studio/counter');
  // Writes arrive every turn of the event loop while clients connect, so some land while
  // a client's snapshot is being prepared and sent.
  let running = true;
  let n = 0;
  const writer = (async () => {
    while (running) {
      counter.set(++n);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const clients = await Promise.all(Array.from({ length: 20 }, () => Client.open(t, `ws://127.0.0.1:${port}/ws`)));
  await settle(200);
  running = false;
  await writer;
  for (const client of clients) {
    // The snapshot goes in definition order (bulk/4999 last), so both mean it is complete.
    await client.until(
      () => client.state()['studio/counter'] === String(n) && client.state()['studio/bulk/4999'] !== undefined,
      'the final count after the snapshot',
    );
    const seen = (client.messages as { p: string; v: string }[]).filter((m) => m.p === 'studio/counter').map((m) => Number(m.v));
    t.true(
      seen.every((v, i) => i === 0 || v === seen[i - 1]! + 1),
      'after its snapshot value, every count arrives, in order',
    );
    t.is(seen.at(-1), n);
    t.is(Object.keys(client.state()).length, 5001, 'the snapshot held every known parameter');
  }
});

test('a client that stops reading keeps bounded memory and ends with every final value', async (t) => {
  const count = 100;
  const lines = Array.from({ length: count }, (_, i) => `p${i},S`);
  const { hub, port } = await serve(t, {}, { big: { type: 'dummy', parameters: lines } });
  const slow = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=${encodeURIComponent('^big/')}`);
  const fast = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=${encodeURIComponent('^big/')}`);
  slow.socket.pause();
  const padding = 'x'.repeat(1000);
  let largest = 0;
  // 10,000 changes of ~1 KB (10 MB in all), a batch per 5 ms, as a busy studio would send.
  for (let batch = 0; batch < 100; batch++) {
    for (let i = 0; i < 100; i++) param(hub, `big/p${(batch * 100 + i) % count}`).set(`${batch * 100 + i} ${padding}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stats = hub.connection('api')!.info.details!['webSockets'] as { largestSendBuffer: number };
    largest = Math.max(largest, stats.largestSendBuffer);
  }
  await settle(200);
  const stats = hub.connection('api')!.info.details!['webSockets'] as { lagging: number };
  t.is(stats.lagging, 1, 'the stalled client is taken off the stream');
  t.log(`largest server-side send buffer while stalled: ${(largest / 1024).toFixed(0)} KiB of 10 MB sent`);
  t.true(largest < 3 * 1024 * 1024, `send buffer reached ${largest} bytes`);

  await fast.until((m) => m.length >= 10_000, 'every change on the fast client');
  slow.socket.resume();
  const finalValues = Object.fromEntries(hub.graph.byPrefix('big/').map((p) => [p.address, p.value]));
  await slow.until(() => JSON.stringify(slow.state()) === JSON.stringify(finalValues), 'the final values on the slow client');
  t.deepEqual(slow.state(), finalValues);
  t.deepEqual(fast.state(), finalValues);
  await settle(200);
  t.is((hub.connection('api')!.info.details!['webSockets'] as { lagging: number }).lagging, 0, 'it is back on the stream');
  param(hub, 'big/p0').set('after');
  await slow.until(() => slow.state()['big/p0'] === 'after', 'live changes again');
  t.pass();
});

test('a client that caught up is resent only what changed while it was off the stream', async (t) => {
  const lines = Array.from({ length: 1000 }, (_, i) => `p${i},S,initial`);
  const { hub, port } = await serve(t, {}, { big: { type: 'dummy', parameters: lines } });
  const slow = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=${encodeURIComponent('^big/')}`);
  await slow.untilCount(1000);
  slow.socket.pause();
  const padding = 'x'.repeat(1000);
  for (let batch = 0; batch < 100; batch++) {
    for (let i = 0; i < 100; i++) param(hub, `big/p${i % 10}`).set(`${batch * 100 + i} ${padding}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await settle(200);
  t.is((hub.connection('api')!.info.details!['webSockets'] as { lagging: number }).lagging, 1);
  slow.socket.resume();
  await slow.until(() => slow.state()['big/p9'] === `9999 ${padding}`, 'the final values');
  await settle(200);
  const afterSnapshot = (slow.messages.slice(1000) as { p: string }[]).map((m) => m.p);
  t.true(
    afterSnapshot.every((p) => /^big\/p\d$/.test(p)),
    'unchanged parameters are not sent again',
  );
});

test('stopping the hub closes WebSockets with 1001 and frees the port', async (t) => {
  const { hub, port } = await serve(t);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const closed = new Promise<number>((resolve) => client.socket.on('close', (code) => resolve(code)));
  await hub.stop();
  t.is(await closed, 1001);
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/parameters`));
});
