import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Authenticator } from '../../lib/http/auth.ts';
import { Client, serve } from '../helpers/http.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const vars = { vars: { type: 'dummy', parameters: ['x,I,1'] } };

async function securedHub(t: Parameters<typeof serve>[0], credentials: object) {
  const root = await mkdtemp(join(tmpdir(), 'patchbay-auth-'));
  await writeFile(join(root, 'index.html'), 'page');
  return serve(t, { documentRoot: root, ...credentials }, vars);
}

/** Every door into the hub: built-in paths, a hosted file, an unknown path. */
const doors: [string, RequestInit?][] = [
  ['/parameters'],
  ['/parameters/vars/x'],
  ['/connections'],
  ['/problems'],
  ['/update?parameter=vars/x&value=2'],
  ['/update', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'parameter=vars/x&value=3' }],
  ['/'],
  ['/index.html'],
  ['/no-such-file'],
  ['/parameters/vars/x', { method: 'DELETE' }],
];

async function walk(base: string, authorization: string | undefined) {
  const statuses: number[] = [];
  for (const [path, init = {}] of doors) {
    const headers = { ...(init.headers as Record<string, string> | undefined), ...(authorization ? { authorization } : {}) };
    statuses.push((await fetch(`${base}${path}`, { ...init, headers })).status);
  }
  return statuses;
}

const open = [200, 200, 200, 200, 200, 200, 200, 200, 404, 405];
const refused = doors.map(() => 401);

test('with Basic and Bearer configured, every door refuses strangers and admits either credential', async (t) => {
  const { base, port } = await securedHub(t, { username: 'eng', password: 's3cret', token: 'tok-123' });
  t.deepEqual(await walk(base, undefined), refused);
  t.deepEqual(await walk(base, basic('eng', 'wrong')), refused);
  t.deepEqual(await walk(base, basic('other', 's3cret')), refused);
  t.deepEqual(await walk(base, 'Bearer tok-12'), refused);
  t.deepEqual(await walk(base, 'Bearer tok-1234'), refused);
  t.deepEqual(await walk(base, 'tok-123'), refused);
  t.deepEqual(await walk(base, basic('eng', 's3cret')), open);
  t.deepEqual(await walk(base, 'Bearer tok-123'), open);
  t.deepEqual(await walk(base, 'bearer tok-123'), open, 'the scheme is case-insensitive');

  const challenge = await fetch(`${base}/parameters`);
  t.is(challenge.headers.get('www-authenticate'), 'Basic realm="patchbay", charset="UTF-8", Bearer realm="patchbay"');

  await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws`), { message: 'upgrade refused: 401' });
  await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws?access_token=nope`), { message: 'upgrade refused: 401' });
  const byHeader = await Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers: { authorization: basic('eng', 's3cret') } });
  const byBearer = await Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers: { authorization: 'Bearer tok-123' } });
  const byQuery = await Client.open(t, `ws://127.0.0.1:${port}/ws?access_token=tok-123&filter=vars`);
  for (const client of [byHeader, byBearer, byQuery]) await client.untilCount(1);
  const signIn = await fetch(`${base}/parameters?access_token=tok-123`, { redirect: 'manual' });
  t.is(signIn.status, 303, 'on any other GET the query token signs a browser in (R-H11)');
});

test('with only a token, only Bearer is offered and accepted', async (t) => {
  const { base } = await securedHub(t, { token: 'abc' });
  t.deepEqual(await walk(base, undefined), refused);
  t.deepEqual(await walk(base, basic('', 'abc')), refused);
  t.deepEqual(await walk(base, 'Bearer abc'), open);
  t.is((await fetch(`${base}/`)).headers.get('www-authenticate'), 'Bearer realm="patchbay"');
});

test('with only Basic, only Basic is offered and accepted', async (t) => {
  const { base } = await securedHub(t, { username: 'eng', password: 'pw' });
  t.deepEqual(await walk(base, 'Bearer pw'), refused);
  t.deepEqual(await walk(base, basic('eng', 'pw')), open);
  t.is((await fetch(`${base}/`)).headers.get('www-authenticate'), 'Basic realm="patchbay", charset="UTF-8"');
});

test('with no credentials configured every door is open', async (t) => {
  const { base } = await securedHub(t, {});
  t.deepEqual(await walk(base, undefined), open);
});

test('credentials are compared whole: prefixes, suffixes and other lengths fail', (t) => {
  const auth = new Authenticator({ username: 'u', password: 'p', token: 'token' });
  const accepts = (authorization: string, accessToken = '') => auth.identify({ authorization, accessToken }) !== undefined;
  t.true(accepts(basic('u', 'p')));
  t.true(accepts('Bearer token'));
  t.true(accepts('', 'token'));
  for (const attempt of [
    basic('u', 'p '),
    basic('u', ''),
    basic('', 'p'),
    'Bearer toke',
    'Bearer tokenn',
    'Bearer ',
    'Basic',
    '',
    'Basic !!!',
  ]) {
    t.false(accepts(attempt), attempt);
  }
  t.false(accepts('', ''));
});
