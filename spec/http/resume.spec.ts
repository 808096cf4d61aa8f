import test from 'ava';
import { param } from '../helpers/hub.ts';
import { Client, rawRequest, serve, settle } from '../helpers/http.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const studio = { studio: { type: 'dummy', parameters: ['level,I,0', 'title,S,Morning', 'cue,T'] } };

interface Item {
  readonly p?: string;
  readonly v?: string;
  readonly seq?: number;
  readonly resume?: string;
  readonly event?: string;
}

/** The items of a client's messages, a batch's array flattened. */
const itemsOf = (messages: readonly unknown[]): Item[] => messages.flatMap((m) => (Array.isArray(m) ? m : [m]) as Item[]);

/** What a client keeps to come back with: the `seq` of the last item that carried one, its greeting aside. */
const lastSeq = (messages: readonly unknown[]): number | undefined =>
  itemsOf(messages).findLast((item) => item.seq !== undefined && item.resume === undefined)?.seq;

const withoutSeq = ({ seq: _, ...item }: Item) => item;

/** Changes `studio/level` 25 times and fires `studio/cue`, 20 times 100 ms apart: 500 changes and 20 fires in 2 s. */
async function twoSecondsOfChanges(hub: Parameters<typeof param>[0]): Promise<void> {
  const [level, cue] = [param(hub, 'studio/level'), param(hub, 'studio/cue')];
  for (let round = 0; round < 20; round++) {
    for (let i = 1; i <= 25; i++) level.set(round * 25 + i);
    cue.set(true);
    await settle(100);
  }
}

test('a ?batch=1&resume=1 client cut off for 2 s comes back to exactly the 500 changes and 20 fires it missed, in order, and no snapshot (R-W3)', async (t) => {
  const { hub, port } = await serve(t, {}, studio);
  const proxy = await TcpProxy.start(t, port);
  const witness = await Client.open(t, `ws://127.0.0.1:${port}/ws?batch=1`);
  const tablet = await Client.open(t, `ws://127.0.0.1:${proxy.port}/ws?batch=1&resume=1`);
  await tablet.untilCount(3);
  const greeting = tablet.messages[0] as { resume: string; seq: number };
  t.regex(greeting.resume, /^[\w-]+\.[\w-]+$/);
  t.deepEqual(tablet.messages.slice(1), [
    [
      { p: 'studio/level', v: '0' },
      { p: 'studio/title', v: 'Morning' },
    ],
    { seq: greeting.seq },
  ]);
  param(hub, 'studio/title').set('Live');
  await tablet.until((m) => itemsOf(m).some((item) => item.v === 'Live'), 'a change');
  await witness.until((m) => itemsOf(m).some((item) => item.v === 'Live'), 'a change');
  const received = lastSeq(tablet.messages) as number;
  t.true(received > greeting.seq);

  proxy.blackhole();
  const from = witness.messages.length;
  await twoSecondsOfChanges(hub);
  proxy.cut();
  await witness.until((m) => itemsOf(m.slice(from)).length >= 520, 'the 520');
  const missed = itemsOf(witness.messages.slice(from));
  t.is(missed.length, 520);
  // Whatever the hub sent while the tablet slept was lost on the way.
  t.is(lastSeq(tablet.messages), received);

  const metric = async (series: string) => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return Number(text.match(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm'))?.[1]);
  };
  t.true((await metric('patchbay_websocket_resume_buffered{kept="messages"}')) >= 520, 'what it keeps shows in /metrics');

  const back = await Client.open(t, `ws://127.0.0.1:${proxy.port}/ws?batch=1&resume=${greeting.resume}&seq=${received}`);
  await back.until((m) => itemsOf(m).length >= 521, 'the replay');
  await settle(200);
  t.deepEqual(back.messages[0], { resume: greeting.resume, seq: received });
  t.is(await metric('patchbay_websocket_comebacks_total{result="resumed"}'), 1);
  const replayed = itemsOf(back.messages.slice(1));
  t.deepEqual(replayed.map(withoutSeq), missed);
  const seqs = replayed.map((item) => item.seq as number);
  t.true(
    seqs.every((seq, i) => seq > (i === 0 ? received : (seqs[i - 1] as number))),
    'every item carries a seq, growing',
  );
  // And it is on the stream again.
  param(hub, 'studio/title').set('Back');
  await back.until((m) => itemsOf(m).at(-1)?.v === 'Back', 'the next change');
  t.is(itemsOf(back.messages).at(-1)?.seq, (seqs.at(-1) as number) + 1);
});

test('a client that comes back after resumeWindow, or further behind than resumeChanges, gets {"event":"resync"} and a snapshot equal to GET /parameters (R-W3)', async (t) => {
  for (const [settings, wait] of [
    [{ resumeWindow: 300 }, 600],
    [{ resumeChanges: 100 }, 0],
  ] as const) {
    const { hub, port, base } = await serve(t, settings, studio);
    const tablet = await Client.open(t, `ws://127.0.0.1:${port}/ws?resume=1`);
    await tablet.untilCount(4);
    const { resume } = tablet.messages[0] as { resume: string };
    const received = lastSeq(tablet.messages) as number;
    tablet.socket.terminate();
    await twoSecondsOfChanges(hub);
    await settle(wait);
    const back = await Client.open(t, `ws://127.0.0.1:${port}/ws?resume=${resume}&seq=${received}`);
    await back.untilCount(5);
    await settle(100);
    const listed = (await (await fetch(`${base}/parameters`)).json()) as { p: string; v?: unknown }[];
    // The socket sends every value in wire form, a string.
    const now = listed.filter((row) => row.v !== undefined).map(({ p, v }) => ({ p, v: String(v) }));
    t.deepEqual(back.messages[0], { event: 'resync' }, JSON.stringify(settings));
    const { seq } = back.messages[1] as { seq: number };
    t.deepEqual(back.messages[1], { resume, seq });
    t.deepEqual(back.messages.slice(2), [...now, { seq }]);
  }
});

test('a resume token is refused to another login and to other filters or options, and a token of another hub gets a snapshot (R-W3)', async (t) => {
  const tokens = [
    { name: 'desk', token: 'desk-secret-1', read: ['studio/#'] },
    { name: 'wall', token: 'wall-secret-2', read: ['studio/#'] },
  ];
  const { hub, port } = await serve(t, { tokens }, studio);
  const url = (query: string, token: string) => `ws://127.0.0.1:${port}/ws?${query}&access_token=${token}`;
  const desk = await Client.open(t, url('filter=level&resume=1', 'desk-secret-1'));
  await desk.untilCount(3);
  const { resume } = desk.messages[0] as { resume: string };
  const received = lastSeq(desk.messages) as number;
  desk.socket.terminate();
  param(hub, 'studio/level').set(7);
  for (const [query, token] of [
    [`filter=level&resume=${resume}&seq=${received}`, 'wall-secret-2'],
    [`filter=title&resume=${resume}&seq=${received}`, 'desk-secret-1'],
    [`filter=level&batch=1&resume=${resume}&seq=${received}`, 'desk-secret-1'],
  ] as const)
    await t.throwsAsync(Client.open(t, url(query, token)), { message: 'upgrade refused: 409' }, query);
  const refused = await rawRequest(
    port,
    `GET /ws?filter=level&resume=${resume}&seq=${received}&access_token=wall-secret-2 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAccept: application/json\r\n\r\n`,
  );
  t.is(refused.status, 409);
  t.like(JSON.parse(refused.body), { code: 'PB_RESUME_REFUSED' });
  // The same login and filters: it resumes.
  const back = await Client.open(t, url(`filter=level&resume=${resume}&seq=${received}`, 'desk-secret-1'));
  await back.untilCount(2);
  t.deepEqual(itemsOf(back.messages.slice(1)).map(withoutSeq), [{ p: 'studio/level', v: '7' }]);
  // Another hub (or this one started again) did not give it: what was missed is gone, a snapshot follows.
  const other = await serve(t, { tokens }, studio);
  const elsewhere = await Client.open(
    t,
    `ws://127.0.0.1:${other.port}/ws?filter=level&resume=${resume}&seq=${received}&access_token=desk-secret-1`,
  );
  await elsewhere.untilCount(4);
  t.deepEqual(elsewhere.messages[0], { event: 'resync' });
});

test('a ?maxHz client resumes to the latest value of each parameter, conflated, in the order they last changed (R-W2, R-W3)', async (t) => {
  const { hub, port } = await serve(t, {}, studio);
  const tablet = await Client.open(t, `ws://127.0.0.1:${port}/ws?maxHz=10&resume=1&filter=level|title`);
  await tablet.untilCount(4);
  const { resume } = tablet.messages[0] as { resume: string };
  const received = lastSeq(tablet.messages) as number;
  tablet.socket.terminate();
  const [level, title] = [param(hub, 'studio/level'), param(hub, 'studio/title')];
  for (let i = 1; i <= 100; i++) {
    level.set(i);
    if (i % 40 === 0) title.set(`take ${i}`);
  }
  const back = await Client.open(t, `ws://127.0.0.1:${port}/ws?maxHz=10&resume=${resume}&seq=${received}&filter=level|title`);
  await back.untilCount(3);
  await settle(300);
  t.deepEqual(
    back.messages.slice(1).map((m) => withoutSeq(m as Item)),
    [
      { p: 'studio/title', v: 'take 80' },
      { p: 'studio/level', v: '100' },
    ],
  );
});

test('a resume query that says two things is refused with 400 before anything is looked up', async (t) => {
  const { port } = await serve(t, {}, studio);
  for (const query of ['resume=1&seq=4', 'seq=4', 'resume=1&resume=1', 'resume=abc.def&seq=1&seq=2'])
    await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws?${query}`), { message: 'upgrade refused: 400' }, query);
});

test('a malformed or corrupted token, or a seq that is none, is a token the hub does not know: a resync and a snapshot, as after a restart (R-W3)', async (t) => {
  const { port } = await serve(t, {}, studio);
  for (const query of [
    'resume=yes',
    'resume=a.b/c',
    `resume=${'x'.repeat(300)}`,
    'resume=abc.def&seq=-1',
    'resume=abc.def&seq=1e3',
    'resume=abc.def',
  ]) {
    const client = await Client.open(t, `ws://127.0.0.1:${port}/ws?${query}`);
    await client.untilCount(3);
    t.deepEqual(client.messages[0], { event: 'resync' }, query);
    t.regex(String((client.messages[1] as { resume?: string }).resume), /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, `${query}: a new token`);
    client.socket.terminate();
  }
});
