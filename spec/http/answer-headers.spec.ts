import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redacted } from '../../lib/http/redact.ts';
import { rawRequest, serve } from '../helpers/http.ts';

const studio = { studio: { type: 'dummy', parameters: ['onair,B,false', 'title,S,Morning'] } };

/** Headers no page of another site may get around: it cannot frame the hub, and no answer is sniffed into another type. */
function hasSafetyHeaders(t: import('ava').ExecutionContext, answer: Response, what: string): void {
  t.is(answer.headers.get('x-content-type-options'), 'nosniff', what);
  t.is(answer.headers.get('x-frame-options'), 'DENY', what);
}

test('every answer says nosniff and may not be framed: values, lists, errors, files, the console, sign-in, preflights', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'patchbay-headers-'));
  await writeFile(join(root, 'index.html'), '<!doctype html><title>page</title>');
  await writeFile(join(root, 'big.bin'), Buffer.alloc(300_000));
  const { base } = await serve(t, { documentRoot: root, tokens: [{ name: 'viewer', token: 'view', read: ['#'] }] }, studio);
  const view = { authorization: 'Bearer view' };
  for (const [what, answer] of [
    ['a value', await fetch(`${base}/parameters/studio/title`, { headers: view })],
    ['JSON', await fetch(`${base}/parameters`, { headers: view })],
    ['a JSON error', await fetch(`${base}/parameters/studio/nope`, { headers: { ...view, accept: 'application/json' } })],
    ['a text error', await fetch(`${base}/nothing-here`, { headers: view })],
    ['401', await fetch(`${base}/parameters`)],
    ['405', await fetch(`${base}/parameters`, { method: 'DELETE', headers: view })],
    ['HEAD', await fetch(`${base}/parameters`, { method: 'HEAD', headers: view })],
    ['a hosted page', await fetch(`${base}/`, { headers: view })],
    ['a streamed file', await fetch(`${base}/big.bin`, { headers: view })],
    ['the console', await fetch(`${base}/console/`, { headers: view })],
    ['a console script', await fetch(`${base}/console/console.js`, { headers: view })],
    ['the sign-in redirect', await fetch(`${base}/?access_token=view`, { redirect: 'manual' })],
    ['a preflight', await fetch(`${base}/update`, { method: 'OPTIONS' })],
    ['metrics refused', await fetch(`${base}/metrics`, { headers: view })],
  ] as const) {
    hasSafetyHeaders(t, answer, what);
    await answer.arrayBuffer();
  }
  const refused = await rawRequest(
    Number(new URL(base).port),
    'GET /parameters HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
  );
  t.regex(refused.head, /^X-Content-Type-Options: nosniff$/im, 'a refused host too');
});

test('console pages have a policy that loads only what the hub serves; other pages keep theirs', async (t) => {
  const { base } = await serve(t, {}, studio);
  const policy = (await fetch(`${base}/console/`)).headers.get('content-security-policy') ?? '';
  const directives = new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([k, ...v]) => [k, v]),
  );
  t.deepEqual(directives.get('default-src'), ["'self'"]);
  t.deepEqual(directives.get('object-src'), ["'none'"]);
  t.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
  t.false(policy.includes('unsafe-inline'), 'the import map is allowed by its hash, not by allowing every inline script');
  t.regex(directives.get('script-src')?.join(' ') ?? '', /^'self' 'sha256-[A-Za-z0-9+/]+=*'$/);
  t.is(
    (await fetch(`${base}/parameters`)).headers.get('content-security-policy'),
    null,
    'other answers are kept from frames by X-Frame-Options',
  );
});

test('the sign-in redirect goes only to a path of the hub', async (t) => {
  const { port } = await serve(t, { token: 'tok-123' }, studio);
  const signIn = (path: string) =>
    rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`).then(
      (answer) => /^Location: (.*)$/im.exec(answer.head)?.[1],
    );
  t.is(await signIn('//evil.example/x?access_token=tok-123'), '/evil.example/x');
  t.is(await signIn('/\\evil.example/x?access_token=tok-123'), '/evil.example/x');
  t.is(await signIn('///evil.example?access_token=tok-123&a=1'), '/evil.example?a=1');
  t.is(await signIn('/console/?access_token=tok-123'), '/console/');
});

test('secrets in GET /connections are shown masked: user info of URLs, and settings and details named like secrets', async (t) => {
  const { base } = await serve(t, {}, { broker: { type: 'mqtt', url: 'mqtt://studio:hunter2@127.0.0.1:9' } });
  const text = await (await fetch(`${base}/connections`)).text();
  t.false(text.includes('hunter2'), text);
  t.false(text.includes('studio:'), text);
  const broker = (JSON.parse(text) as { id: string; details?: { url?: string } }[]).find((c) => c.id === 'broker');
  // The mqtt connection leaves the user info out itself; masking would have caught it (the redaction spec above).
  t.is(broker?.details?.url, 'mqtt://127.0.0.1:9');
});

test('redaction masks by name and by URL, at any depth, and leaves everything else as it was', (t) => {
  t.deepEqual(
    redacted({
      id: 'desk',
      reason:
        'cannot reach mqtts://user:pw@broker:8883 (ECONNREFUSED); also http://plain.example/x?page=2&apikey=k2 and ws://token@host/, sent {"user": "a", "password": "p2"}',
      details: {
        password: 'pw',
        apiKey: 'k',
        client_secret: 's',
        accessToken: 't',
        passphraseEnv: 'HUB_KEY_PASS',
        headers: { Authorization: 'Bearer x', 'X-Trace': 'abc' },
        keys: 3,
        keyboard: 'us',
        monkey: 'not a key',
        port: 17011,
        list: [{ token: 'deep' }, 'https://a:b@c.example'],
        empty: { password: '' },
      },
    }),
    {
      id: 'desk',
      reason:
        'cannot reach mqtts://***@broker:8883 (ECONNREFUSED); also http://plain.example/x?page=2&apikey=*** and ws://***@host/, sent {"user": "a", "password": "***"}',
      details: {
        password: '***',
        apiKey: '***',
        client_secret: '***',
        accessToken: '***',
        passphraseEnv: 'HUB_KEY_PASS',
        headers: { Authorization: '***', 'X-Trace': '***' },
        keys: 3,
        keyboard: 'us',
        monkey: 'not a key',
        port: 17011,
        list: [{ token: '***' }, 'https://***@c.example'],
        empty: { password: '' },
      },
    },
  );
});
