import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { param } from '../helpers/hub.ts';
import { Client, rawRequest, serve } from '../helpers/http.ts';

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

test('1,000+ malformed requests and messages each get the right answer, and the hub keeps serving', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'patchbay-robust-'));
  await writeFile(join(root, 'index.html'), 'home');
  const { hub, base, port } = await serve(
    t,
    { documentRoot: root },
    {
      vars: { type: 'dummy', parameters: ['n,I,1', 'f,F,0.5', 'b,B,true', 's,S,text', 'go,T'] },
      clock: { type: 'timer', timers: [{}] },
    },
  );
  const rand = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const junk = (length: number) => Buffer.from(Array.from({ length }, () => Math.floor(rand() * 256)));

  // [request, expected status]
  const http: [() => Promise<number>, number, string][] = [];
  const get = (path: string, expected: number) => http.push([async () => (await fetch(`${base}${path}`)).status, expected, `GET ${path}`]);
  const post = (contentType: string | undefined, body: string | Buffer, expected: number, what: string) =>
    http.push([
      async () =>
        (
          await fetch(`${base}/update`, {
            method: 'POST',
            headers: contentType ? { 'content-type': contentType } : {},
            body: new Uint8Array(body instanceof Buffer ? body : Buffer.from(body)),
          })
        ).status,
      expected,
      what,
    ]);
  const raw = (request: string, expected: number) =>
    http.push([async () => (await rawRequest(port, request)).status, expected, JSON.stringify(request.slice(0, 60))]);

  for (let i = 0; i < 60; i++) {
    get(`/update?parameter=vars/n&value=${pick(['abc', '1.2.3', '0x1F', '', 'NaN', 'Infinity', '9007199254740993', '1e999'])}`, 400);
    get(`/update?parameter=vars/b&value=${pick(['maybe', '2', 'yess', 'null', ''])}`, 400);
    get(`/update?parameter=vars/f&value=${pick(['1,5', 'one', '--1', 'NaN'])}`, 400);
    get(`/update?parameter=clock/timer/1/trigger&value=${i}`, 403);
    get(`/update?parameter=${pick(['vars/missing', 'nope/x', 'vars', '/x', 'VARS/n', 'vars/a b', '%E0%A4%A'])}&value=1`, 404);
    get(`/update?${pick(['value=1', 'parameter=vars/n', '', 'param=vars/n&value=1'])}`, 400);
    get(`/parameters/${pick(['vars/missing', 'nope/x', 'vars', 'vars/n/extra', '%ZZ', 'vars/%E0%A4%A'])}`, 404);
    get(`/parameters?filter=${encodeURIComponent(pick(['(', '[a-', '*x', '(?<n']))}`, 400);
    post(
      'application/json',
      pick([
        '{',
        '[',
        '"x"',
        '{"parameter":"vars/n"}',
        '{"value":1}',
        '{"parameter":"vars/n","value":"lots"}',
        'null',
        '[{"parameter":"vars/n","value":1}]',
      ]),
      400,
      'bad JSON body',
    );
    post('application/json', junk(50 + Math.floor(rand() * 200)), 400, 'binary junk as JSON');
    post('application/x-www-form-urlencoded', junk(50), 400, 'binary junk as a form');
    post(
      'application/x-www-form-urlencoded',
      Buffer.from('parameter=vars/s&value=\xff\xfe'.split('').map((c) => c.charCodeAt(0))),
      400,
      'invalid UTF-8',
    );
    post(
      pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x', undefined] as const),
      'parameter=vars/n&value=1',
      415,
      'unsupported type',
    );
    post('application/json', `{"parameter":"vars/s","value":"${'x'.repeat(66_000 + i)}"}`, 413, 'huge body');
    raw(
      `GET ${pick(['/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc/passwd', '/%252e%252e/etc/passwd', '/..\\..\\etc\\passwd', '/index.html%00', '/nope/../../x'])} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      404,
    );
    raw(`DELETE /parameters/vars/n HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, 405);
  }

  let checked = 0;
  // A few at a time, as a busy client would send them.
  for (let i = 0; i < http.length; i += 8) {
    const batch = http.slice(i, i + 8);
    const statuses = await Promise.all(batch.map(([run]) => run()));
    statuses.forEach((status, j) => {
      const [, expected, what] = batch[j]!;
      if (status !== expected) t.fail(`${what}: expected ${expected}, got ${status}`);
      checked++;
    });
  }

  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=none`);
  const messages: (string | Buffer)[] = [];
  for (let i = 0; i < 300; i++) {
    messages.push(
      pick([
        junk(1 + Math.floor(rand() * 100)),
        '{',
        '[1,2,3]',
        'null',
        '{"p":1,"v":2}',
        '{"p":"vars/n"}',
        JSON.stringify({ p: 'vars/n', v: pick(['x', {}, [], null, 'NaN', Number.POSITIVE_INFINITY]) }),
        JSON.stringify({ p: 'clock/timer/1/trigger', v: 1 }),
        JSON.stringify({ p: pick(['nope/x', 'vars/zzz', '', '../x']), v: 1 }),
        JSON.stringify([{ p: 'vars/b', v: 'perhaps' }]),
      ]),
    );
  }
  for (const message of messages) client.socket.send(message);
  await client.untilCount(messages.length);
  t.true(
    (client.messages as { error?: string }[]).every((m) => typeof m.error === 'string' && m.error.length > 0),
    'every bad message is answered with a reason',
  );
  t.is(client.socket.readyState, client.socket.OPEN);

  t.log(`${checked} HTTP requests and ${messages.length} WebSocket messages, all refused as expected`);
  t.true(checked + messages.length >= 1000);
  t.deepEqual(
    ['vars/n', 'vars/f', 'vars/b', 'vars/s'].map((a) => param(hub, a).value),
    [1, 0.5, true, 'text'],
    'no refused write changed a value',
  );
  // Still serving, for every kind of client.
  t.is((await fetch(`${base}/update?parameter=vars/n&value=2`)).status, 200);
  t.is(await (await fetch(`${base}/parameters/vars/n`)).text(), '2');
  t.is(await (await fetch(`${base}/`)).text(), 'home');
  const fresh = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=${encodeURIComponent('^vars/n$')}`);
  await fresh.untilCount(1);
  t.deepEqual(fresh.messages, [{ p: 'vars/n', v: '2' }]);
});
