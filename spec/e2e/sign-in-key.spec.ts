import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import WebSocket from 'ws';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/http.ts';
import { bin, runHub, terminate } from '../helpers/hub-process.ts';

const patchbay = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

/** A flow with a token on a fixed port, so a restarted hub answers at the same address (and the cookie's name holds). */
async function project(port: number) {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-sign-in-'));
  const flow = join(dir, 'flow.json5');
  await writeFile(
    flow,
    `{ connections: { api: { type: 'rest-api', port: ${port}, bindIp: '127.0.0.1', token: 'desk-token' }, studio: { type: 'dummy', parameters: ['onair,B,true'] } } }`,
  );
  return { dir, flow };
}

/** Signs in with `?access_token=` as a browser would and returns the session cookie (`name=value`). */
async function signIn(base: string): Promise<string> {
  const answer = await fetch(`${base}/console/?access_token=desk-token`, { redirect: 'manual' });
  const cookie = answer.headers.get('set-cookie') ?? '';
  return cookie.slice(0, cookie.indexOf(';'));
}

const statusWith = async (base: string, cookie: string) => (await fetch(`${base}/parameters`, { headers: { cookie } })).status;

test('a browser signed in by token stays signed in when the hub restarts; a new sign-in key signs it out at once', async (t) => {
  const port = await freePort();
  const { dir, flow } = await project(port);
  let hub = await runHub(t, flow);
  const cookie = await signIn(hub.base);
  t.is(await statusWith(hub.base, cookie), 200);
  t.is(await terminate(hub), 0);
  hub = await runHub(t, flow);
  t.is(await statusWith(hub.base, cookie), 200, 'still signed in after the restart');
  // The key is the user's alone.
  t.is(statSync(join(dir, '.patchbay', 'sign-in.key')).mode & 0o777, 0o600);

  const rotated = patchbay('state', flow, 'rotate-sign-in-key');
  t.is(rotated.status, 0, rotated.stderr);
  t.regex(rotated.stderr, /signed out/);
  await eventually(
    // A request that fails outright (a loaded machine) is asked again, as a browser would.
    async () => (await statusWith(hub.base, cookie).catch(() => 0)) === 401,
    () => 'the running hub to take the new key',
    30_000,
  );
  const again = await signIn(hub.base);
  t.is(await statusWith(hub.base, again), 200, 'the token signs in again');
});

test('without a state folder a restart signs browsers out, as the docs say', async (t) => {
  const port = await freePort();
  const { flow } = await project(port);
  let hub = await runHub(t, flow, { args: ['--state', 'none'] });
  const cookie = await signIn(hub.base);
  t.is(await statusWith(hub.base, cookie), 200);
  await terminate(hub);
  hub = await runHub(t, flow, { args: ['--state', 'none'] });
  t.is(await statusWith(hub.base, cookie), 401);
  const rotated = patchbay('state', flow, 'rotate-sign-in-key', '--state', 'none');
  t.is(rotated.status, 2);
});

test("a new sign-in key closes the WebSockets of the browsers it signed out; a token's socket stays (issue 44 item 5)", async (t) => {
  const port = await freePort();
  const { flow } = await project(port);
  const hub = await runHub(t, flow);
  const cookie = await signIn(hub.base);
  const open = async (headers: Record<string, string>) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    t.teardown(() => socket.terminate());
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return { socket, closed };
  };
  const browser = await open({ cookie });
  const script = await open({ authorization: 'Bearer desk-token' });
  const rotated = patchbay('state', flow, 'rotate-sign-in-key');
  t.is(rotated.status, 0, rotated.stderr);
  // The hub looks at the key every second; the bound is for a hub that never closes it, not a slow one.
  const inTime = await Promise.race([browser.closed, new Promise((resolve) => setTimeout(() => resolve('still open after 30 s'), 30_000))]);
  t.deepEqual(inTime, { code: 1008, reason: 'signed out: the sign-in key changed' });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.is(script.socket.readyState, WebSocket.OPEN, "the token's socket is not the key's to close");
});
