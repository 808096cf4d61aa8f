import test from 'ava';
import { request } from 'node:http';
import { hostname } from 'node:os';
import { HostAllowList, parseHost } from '../../lib/http/hosts.ts';
import { Client, serve } from '../helpers/http.ts';
import { param } from '../helpers/hub.ts';

const studio = { studio: { type: 'dummy', parameters: ['onair,B,false'] } };

/** A request with a `Host` header of the spec's choosing (fetch always sends the URL's). */
function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; code: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, headers: { accept: 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          code: String(res.headers['x-patchbay-code'] ?? ''),
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

test('a request under a name that is not the hub’s is refused with PB_BAD_HOST, on HTTP and the upgrade (DNS rebinding)', async (t) => {
  const { hub, port } = await serve(t, {}, studio);
  for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `localhost.evil.example`, 'x']) {
    const answer = await get(port, '/parameters/studio/onair', { host });
    t.is(answer.status, 403, host);
    t.is(answer.code, 'PB_BAD_HOST', host);
    t.like(JSON.parse(answer.body), { ok: false, code: 'PB_BAD_HOST' });
    await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers: { host } }), { message: 'upgrade refused: 403' }, host);
  }
  // The page a rebinding attack runs is, to the browser, of the attacker's origin and host alike.
  const rebound = { host: `evil.example:${port}`, origin: `http://evil.example:${port}`, 'sec-fetch-site': 'same-origin' };
  t.is((await get(port, '/update?parameter=studio/onair&value=true', rebound)).status, 403);
  t.is(param(hub, 'studio/onair').value, false, 'nothing was written');
});

test('IP literals, localhost, the machine’s own names and the names in `hostnames` are answered', async (t) => {
  const { port } = await serve(t, { hostnames: ['studio-hub.example'] }, studio);
  const name = hostname();
  for (const host of [
    `127.0.0.1:${port}`,
    '127.0.0.1',
    `localhost:${port}`,
    'LOCALHOST',
    `[::1]:${port}`,
    '[::1]',
    `192.168.1.20:${port}`,
    name,
    `${name}:${port}`,
    `${name}.local:${port}`,
    `studio-hub.example:${port}`,
    'Studio-Hub.Example',
  ]) {
    t.is((await get(port, '/parameters/studio/onair', { host })).status, 200, host);
  }
  (await Client.open(t, `ws://127.0.0.1:${port}/ws`, { headers: { host: `studio-hub.example:${port}` } })).socket.close();
});

test('a page served under a configured name is the hub’s own origin and may write', async (t) => {
  const { hub, port } = await serve(t, { hostnames: ['studio-hub.example'] }, studio);
  const own = { host: `studio-hub.example:${port}`, origin: `http://studio-hub.example:${port}` };
  t.is((await get(port, '/update?parameter=studio/onair&value=true', own)).status, 200);
  t.is(param(hub, 'studio/onair').value, true);
  const other = { host: `studio-hub.example:${port}`, origin: `http://studio-hub.example:${port + 1}` };
  t.is((await get(port, '/update?parameter=studio/onair&value=false', other)).code, 'PB_CROSS_ORIGIN', 'another port is another origin');
});

test('hostnames are checked in the flow file', async (t) => {
  const { validateFlow } = await import('../../lib/config/flow-file.ts');
  const result = validateFlow(
    { connections: { api: { type: 'rest-api', hostnames: ['studio.example', 'studio.example:8080', 'http://x', ''] } } },
    '/virtual/flow.json5',
  );
  t.deepEqual(result.ok ? [] : result.issues.map((issue) => issue.path.join('.')), [
    'connections.api.hostnames.1',
    'connections.api.hostnames.2',
    'connections.api.hostnames.3',
  ]);
});

test('a Host header is read as name and port; anything else is no host', (t) => {
  t.deepEqual(parseHost('Studio-Hub.Example.:8080'), { name: 'studio-hub.example', port: '8080', ip: false });
  t.deepEqual(parseHost('[::1]:17011'), { name: '::1', port: '17011', ip: true });
  t.deepEqual(parseHost('10.0.0.5'), { name: '10.0.0.5', port: '', ip: true });
  for (const bad of ['', '::1', '[::1', '[evil.example]:80', '[::1]x', 'a:b', 'host:123456', 'a b', 'evil.example/x', 'user@host'])
    t.is(parseHost(bad), undefined, bad);
  const list = new HostAllowList(['desk.example'], 'Studio-PC');
  t.deepEqual(
    ['studio-pc', 'studio-pc.local:80', 'desk.example', 'localhost.', '10.1.2.3:1', 'desk.example.evil', 'other'].map((h) =>
      list.allows(h),
    ),
    [true, true, true, true, true, false, false],
  );
});
