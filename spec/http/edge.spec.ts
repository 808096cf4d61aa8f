import test from 'ava';
import { createHash } from 'node:crypto';
import { Client, serve } from '../helpers/http.ts';

const studio = {
  studio: { type: 'dummy', parameters: ['onair,B,false', 'title,S,Morning', 'mic/1/open,B,false'] },
  secret: { type: 'dummy', parameters: ['pin,I,1234'] },
};
const own = (base: string) => base;
const update = (base: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/update?parameter=studio/onair&value=true`, { headers });
const post = (base: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ parameter: 'studio/onair', value: true }),
  });

test("a foreign page may not write or open the WebSocket; the hub's own pages and non-browser clients may (R-H10)", async (t) => {
  const { base, port } = await serve(t, {}, studio);
  const evil = { origin: 'http://evil.example:8080' };
  for (const headers of [
    evil,
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
    { origin: 'null' },
    { origin: `http://localhost:${port}` },
  ]) {
    for (const answer of [await update(base, headers), await post(base, headers)]) {
      t.is(answer.status, 403, JSON.stringify(headers));
      t.is(answer.headers.get('x-patchbay-code'), 'PB_CROSS_ORIGIN');
    }
    await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers }), { message: 'upgrade refused: 403' });
  }
  t.is((await fetch(`${base}/parameters/studio/onair`)).status, 200);
  t.is(await (await fetch(`${base}/parameters/studio/onair`, { headers: evil })).text(), 'false', 'nothing was written');
  // Reads are not state changes: answered, but without CORS headers a foreign page cannot read them.
  t.is((await fetch(`${base}/parameters/studio/title`, { headers: evil })).headers.get('access-control-allow-origin'), null);

  for (const headers of [{}, { origin: own(base) }, { origin: own(base), 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }]) {
    t.is((await update(base, headers)).status, 200, JSON.stringify(headers));
    t.is((await post(base, headers)).status, 200, JSON.stringify(headers));
    (await Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers })).socket.close();
  }
});

test('an allowed origin writes, opens the socket and gets CORS headers and preflight answers', async (t) => {
  const { base, port } = await serve(t, { allowedOrigins: ['http://dashboard.local:8000'] }, studio);
  const allowed = { origin: 'http://dashboard.local:8000', 'sec-fetch-site': 'cross-site' };
  const written = await post(base, allowed);
  t.is(written.status, 200);
  t.is(written.headers.get('access-control-allow-origin'), 'http://dashboard.local:8000');
  t.is(written.headers.get('access-control-allow-credentials'), 'true');
  t.is(written.headers.get('vary'), 'Origin');
  const failed = await fetch(`${base}/parameters/studio/nope`, { headers: allowed });
  t.is(failed.status, 404);
  t.is(failed.headers.get('access-control-allow-origin'), 'http://dashboard.local:8000', 'error answers carry them too');
  (await Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers: allowed })).socket.close();

  const preflight = await fetch(`${base}/update`, {
    method: 'OPTIONS',
    headers: { ...allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), 'http://dashboard.local:8000');
  t.regex(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);
  const foreign = await fetch(`${base}/update`, { method: 'OPTIONS', headers: { origin: 'http://evil.example' } });
  t.is(foreign.status, 403);
  t.is(foreign.headers.get('access-control-allow-origin'), null);
});

test('?access_token= on a GET signs a browser in: an HttpOnly SameSite=Strict cookie and the same URL without the token (R-H11)', async (t) => {
  const { base, port } = await serve(t, { token: 'tok-123' }, studio);
  t.is((await fetch(`${base}/parameters/studio/title?access_token=wrong`, { redirect: 'manual' })).status, 401);
  const signIn = await fetch(`${base}/parameters/studio/title?x=1&access_token=tok-123&y=2`, { redirect: 'manual' });
  t.is(signIn.status, 303);
  t.is(signIn.headers.get('location'), '/parameters/studio/title?x=1&y=2');
  const cookie = signIn.headers.get('set-cookie') ?? '';
  t.regex(cookie, new RegExp(`^patchbay-${port}=[^;]+; HttpOnly; SameSite=Strict; Path=/$`));
  const session = cookie.split(';')[0] ?? '';
  t.is(await (await fetch(`${base}/parameters/studio/title`, { headers: { cookie: session } })).text(), 'Morning');
  t.is((await post(base, { cookie: session })).status, 200);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers: { cookie: session } });
  await client.untilCount(1);
  // A forged or altered cookie grants nothing.
  for (const forged of [
    session.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    `patchbay-${port}=*.abc`,
    `patchbay-${port + 1}=${session.split('=')[1]}`,
  ]) {
    t.is((await fetch(`${base}/parameters/studio/title`, { headers: { cookie: forged } })).status, 401, forged);
  }
});

test('scoped tokens read and write only their patterns, on every path (R-A1, R-A2)', async (t) => {
  const hashed = `sha256:${createHash('sha256').update('viewer-secret').digest('hex')}`;
  const { base, port } = await serve(
    t,
    {
      token: 'admin',
      tokens: [
        { name: 'desk', token: 'desk-secret', read: ['studio/#'], write: ['studio/mic/+/open'] },
        { name: 'viewer', token: hashed, read: ['+/title'] },
      ],
    },
    studio,
  );
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const desk = as('desk-secret');
  const listed = (await (await fetch(`${base}/parameters`, { headers: desk })).json()) as { p: string }[];
  t.deepEqual(
    listed.map((p) => p.p),
    ['studio/onair', 'studio/title', 'studio/mic/1/open'],
  );
  t.is((await fetch(`${base}/parameters/studio/title`, { headers: desk })).status, 200);
  const hidden = await fetch(`${base}/parameters/secret/pin`, { headers: { ...desk, accept: 'application/json' } });
  t.is(hidden.status, 404);
  t.deepEqual(await hidden.json(), { ok: false, code: 'PB_UNKNOWN_CONNECTION', error: 'secret/pin: there is no connection "secret"' });
  t.is((await fetch(`${base}/update?parameter=secret/pin&value=0`, { headers: desk })).status, 404, 'a write it cannot read is 404');
  const forbidden = await fetch(`${base}/update?parameter=studio/onair&value=true`, { headers: desk });
  t.is(forbidden.status, 403);
  t.is(forbidden.headers.get('x-patchbay-code'), 'PB_FORBIDDEN');
  t.is((await fetch(`${base}/update?parameter=studio/mic/1/open&value=true`, { headers: desk })).status, 200);
  const connections = (await (await fetch(`${base}/connections`, { headers: desk })).json()) as { id: string }[];
  t.deepEqual(
    connections.map((c) => c.id),
    ['studio'],
  );

  const viewer = as('viewer-secret');
  t.deepEqual(
    ((await (await fetch(`${base}/parameters`, { headers: viewer })).json()) as { p: string }[]).map((p) => p.p),
    ['studio/title'],
  );
  t.is((await fetch(`${base}/update?parameter=studio/title&value=x`, { headers: viewer })).status, 403);
  t.is((await fetch(`${base}/parameters`, { headers: as(hashed) })).status, 401, 'the stored hash is not itself a token');

  // The WebSocket: snapshot and stream hold only readable parameters; writes are checked per item.
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws?access_token=desk-secret`);
  await client.untilCount(3);
  client.send([
    { p: 'studio/onair', v: true },
    { p: 'secret/pin', v: 0 },
    { p: 'studio/mic/1/open', v: false },
  ]);
  await fetch(`${base}/update?parameter=secret/pin&value=99`, { headers: as('admin') });
  await fetch(`${base}/update?parameter=studio/title&value=Evening`, { headers: as('admin') });
  await client.until((m) => m.some((x) => (x as { v?: string }).v === 'Evening'), 'the title change');
  const seen = client.messages as { p: string; code?: string }[];
  t.false(
    seen.some((m) => m.p === 'secret/pin' && m.code === undefined),
    'no value of secret/pin was sent',
  );
  t.deepEqual(
    seen.filter((m) => m.code).map((m) => [m.p, m.code]),
    [
      ['studio/onair', 'PB_FORBIDDEN'],
      ['secret/pin', 'PB_UNKNOWN_CONNECTION'],
    ],
  );
  t.is(await (await fetch(`${base}/parameters/studio/mic/1/open`, { headers: as('admin') })).text(), 'false');
});

test('GET /parameters says read-only to a scoped token that may not write a parameter (R-A2)', async (t) => {
  const { base } = await serve(
    t,
    { token: 'admin', tokens: [{ name: 'desk', token: 'desk-secret', read: ['studio/#'], write: ['studio/mic/+/open'] }] },
    studio,
  );
  const accessOf = async (token: string) =>
    Object.fromEntries(
      (
        (await (await fetch(`${base}/parameters?filter=^studio/`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          p: string;
          access: string;
        }[]
      ).map((p) => [p.p, p.access]),
    );
  t.deepEqual(await accessOf('desk-secret'), {
    'studio/onair': 'read-only',
    'studio/title': 'read-only',
    'studio/mic/1/open': 'read-write',
  });
  t.deepEqual(await accessOf('admin'), {
    'studio/onair': 'read-write',
    'studio/title': 'read-write',
    'studio/mic/1/open': 'read-write',
  });
});

test('token settings are checked with their paths', async (t) => {
  const { validateFlow } = await import('../../lib/config/flow-file.ts');
  const origins = validateFlow(
    { connections: { api: { type: 'rest-api', allowedOrigins: ['http://ok.local:8000', 'not an origin'] } } },
    '/virtual/flow.json5',
  );
  t.deepEqual(origins.ok ? [] : origins.issues.map((issue) => issue.path.join('.')), ['connections.api.allowedOrigins.1']);
  const result = validateFlow(
    {
      connections: {
        api: {
          type: 'rest-api',
          tokens: [
            { name: 'a', token: 'x', read: ['studio/#/more'] },
            { name: 'a', token: 'sha256:abc', read: ['#'], write: ['st+udio'] },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (!result.ok) {
    const paths = result.issues.map((issue) => issue.path.join('.'));
    t.deepEqual(
      paths.sort(),
      [
        'connections.api.tokens.0.read',
        'connections.api.tokens.1.name',
        'connections.api.tokens.1.token',
        'connections.api.tokens.1.write',
      ].sort(),
    );
  }
});
