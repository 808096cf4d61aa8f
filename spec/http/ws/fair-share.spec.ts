import test from 'ava';
import { FairShare } from '../../../lib/http/ws/fair-share.ts';
import { Client, serve } from '../../helpers/http.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));
const message = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const text = (buffer: ArrayBuffer) => new TextDecoder().decode(buffer);

/** A share whose every applied message takes 1 ms of a fake clock. */
function share(maxWaitingBytes = 4096) {
  let clock = 0;
  const applied: string[] = [];
  const refused: string[] = [];
  const fair = new FairShare<string>({
    msPerTurn: 2,
    maxWaitingBytes,
    now: () => clock,
    apply: (client, m) => {
      clock += 1;
      applied.push(`${client}:${text(m)}`);
    },
    overflow: (client) => refused.push(client),
  });
  return { fair, applied, refused };
}

test('a client gets its share of each turn; the rest waits in order while others are applied at once', async (t) => {
  const { fair, applied } = share();
  for (let i = 1; i <= 6; i++) fair.offer('flood', message(String(i)));
  fair.offer('desk', message('a'));
  t.deepEqual(applied, ['flood:1', 'flood:2', 'desk:a']);
  await turn();
  t.deepEqual(applied.slice(3), ['flood:3', 'flood:4']);
  fair.offer('flood', message('7'));
  fair.offer('desk', message('b'));
  t.deepEqual(applied.slice(5), ['desk:b'], "a waiting client's new message queues behind its earlier ones");
  await turn();
  await turn();
  t.deepEqual(
    applied.filter((a) => a.startsWith('flood')),
    ['flood:1', 'flood:2', 'flood:3', 'flood:4', 'flood:5', 'flood:6', 'flood:7'],
  );
  t.is(fair.waitingBytes, 0);
});

test('a waiting message counts with what keeping it costs: one-byte messages fill 4 MiB after about 16,000, not 4 million', (t) => {
  const { fair, refused } = share(4 * 1024 * 1024);
  let offered = 0;
  for (; offered < 100_000 && refused.length === 0; offered++) fair.offer('flood', message('x'));
  t.deepEqual(refused, ['flood']);
  t.true(offered > 16_000 && offered < 16_400, `refused at message ${offered}`);
});

test('a client beyond its waiting room is refused and its waiting messages dropped', async (t) => {
  const { fair, applied, refused } = share(10);
  for (let i = 0; i < 20 && refused.length === 0; i++) fair.offer('flood', message('xxxx'));
  t.deepEqual(refused, ['flood']);
  t.is(fair.waitingBytes, 0);
  await turn();
  t.is(applied.length, 2, 'what waited was dropped');
});

test('a WebSocket client that writes far faster than the hub applies is closed with 1008; others are served', async (t) => {
  const { port, base } = await serve(t, {}, { studio: { type: 'dummy', parameters: ['x,I,0'] } });
  const flood = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const closed = new Promise<number>((resolve) => flood.socket.once('close', (code) => resolve(code)));
  const bad = `[${Array.from({ length: 300 }, () => '{"p":"nowhere/x","v":1}').join(',')}]`;
  for (let i = 0; i < 1000 && flood.socket.readyState === flood.socket.OPEN; i++) flood.send(bad);
  t.is(await closed, 1008);
  t.is((await fetch(`${base}/parameters/studio/x`)).status, 200);
});

test('a client that leaves with messages waiting has them applied in its turns, as gone', async (t) => {
  const gone: boolean[] = [];
  let clock = 0;
  const applied: string[] = [];
  const fair = new FairShare<string>({
    msPerTurn: 2,
    maxWaitingBytes: 1024,
    now: () => clock,
    apply: (client, m, left) => {
      clock += 1;
      applied.push(`${client}:${text(m)}`);
      gone.push(left);
    },
    overflow: () => {},
  });
  for (let i = 1; i <= 5; i++) fair.offer('script', message(String(i)));
  fair.leave('script');
  await turn();
  await turn();
  t.deepEqual(applied, ['script:1', 'script:2', 'script:3', 'script:4', 'script:5']);
  t.deepEqual(gone, [false, false, true, true, true]);
  t.is(fair.waitingBytes, 0);
});

test('a WebSocket client that writes and disconnects at once loses none of its writes', async (t) => {
  const { port, base } = await serve(t, {}, { studio: { type: 'dummy', parameters: ['x,I,0'] } });
  const script = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=%5E%24`);
  const batches = 200;
  for (let b = 0; b < batches; b++)
    script.send(JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ p: 'studio/x', v: b * 100 + i + 1 }))));
  script.socket.close();
  const last = String(batches * 100);
  const deadline = Date.now() + 10_000;
  let value = '';
  while (Date.now() < deadline && (value = await (await fetch(`${base}/parameters/studio/x`)).text()) !== last)
    await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(value, last);
});
