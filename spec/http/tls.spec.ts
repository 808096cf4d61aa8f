import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { fileURLToPath } from 'node:url';
import { validateFlow } from '../../lib/config/flow-file.ts';
import type { Hub } from '../../lib/hub/hub.ts';
import { Client } from '../helpers/http.ts';
import { capturedLog, param, startHub } from '../helpers/hub.ts';

const fixtures = fileURLToPath(new URL('../fixtures/tls', import.meta.url));
const ca = readFileSync(`${fixtures}/hub-ca.pem`);
const studio = { studio: { type: 'dummy', parameters: ['onair,B,false'] } };

/** A hub whose `api` serves TLS, its flow file standing in the fixtures folder. */
async function serveTls(t: ExecutionContext, api: object): Promise<{ hub: Hub; port: number; lines: () => { msg: string }[] }> {
  const { log, lines } = capturedLog();
  const hub = await startHub(
    t,
    { connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', cert: 'hub.pem', key: 'hub.key', ...api }, ...studio } },
    { dir: fixtures, log },
  );
  return { hub, port: hub.connection('api')?.info.details?.['port'] as number, lines };
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** An HTTPS request that verifies the hub's certificate against the spec's authority (unless `ca` is given otherwise). */
function https(port: number, path: string, options: { method?: string; headers?: Record<string, string>; ca?: Buffer[] } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {}, ca: options.ca ?? [ca] },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

test('with cert and key the rest-api serves HTTPS and WSS to clients that verify its certificate', async (t) => {
  const { hub, port, lines } = await serveTls(t, { token: 'tok-123' });
  t.true(lines().some((l) => l.msg === `listening on https://127.0.0.1:${port}`));
  const bearer = { authorization: 'Bearer tok-123' };
  const read = await https(port, '/parameters/studio/onair', { headers: bearer });
  t.is(read.status, 200);
  t.is(read.body, 'false');
  await t.throwsAsync(https(port, '/parameters/studio/onair', { headers: bearer, ca: [] }), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });

  // Browsers: the session cookie is Secure, and the hub's own origin is https://.
  const signIn = await https(port, '/?access_token=tok-123');
  t.is(signIn.status, 303);
  t.regex(String(signIn.headers['set-cookie']), /; HttpOnly; SameSite=Strict; Path=\/; Secure$/);
  const write = (origin: string) =>
    https(port, '/update?parameter=studio/onair&value=true', { headers: { ...bearer, origin, host: `127.0.0.1:${port}` } });
  t.is((await write(`http://127.0.0.1:${port}`)).status, 403, 'the plain-HTTP origin is another origin');
  t.is((await write(`https://127.0.0.1:${port}`)).status, 200);
  t.is(param(hub, 'studio/onair').value, true);

  const client = await Client.open(t, `wss://127.0.0.1:${port}/ws?access_token=tok-123`, { ca });
  await client.until(() => client.state()['studio/onair'] === 'true', 'the snapshot');
  await t.throwsAsync(Client.open(t, `wss://127.0.0.1:${port}/ws?access_token=tok-123`, { ca: [] }));
});

test('plain HTTP to the TLS port gets no answer', async (t) => {
  const { port } = await serveTls(t, {});
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/parameters/studio/onair`));
  await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws`));
  t.is((await https(port, '/parameters/studio/onair')).status, 200, 'still serving TLS');
});

test('an encrypted key opens with the passphrase from the variable passphraseEnv names', async (t) => {
  process.env['PATCHBAY_SPEC_TLS_PASSPHRASE'] = 'spec-passphrase';
  process.env['PATCHBAY_SPEC_TLS_WRONG'] = 'not it';
  const { port } = await serveTls(t, { key: 'hub-encrypted.key', passphraseEnv: 'PATCHBAY_SPEC_TLS_PASSPHRASE' });
  t.is((await https(port, '/parameters/studio/onair')).status, 200);

  const failed = async (api: object) => (await serveTls(t, api)).hub.connection('api')?.info;
  t.like(await failed({ key: 'hub-encrypted.key' }), {
    status: 'failed',
    code: 'PB_TLS',
    reason: `the key ${fixtures}/hub-encrypted.key is encrypted: name the environment variable that holds its passphrase in passphraseEnv`,
  });
  t.like(await failed({ key: 'hub-encrypted.key', passphraseEnv: 'PATCHBAY_SPEC_TLS_UNSET' }), {
    code: 'PB_TLS',
    reason: 'the environment variable PATCHBAY_SPEC_TLS_UNSET (passphraseEnv) is not set',
  });
  t.like(await failed({ key: 'hub-encrypted.key', passphraseEnv: 'PATCHBAY_SPEC_TLS_WRONG' }), {
    code: 'PB_TLS',
    reason: `the passphrase does not open the key ${fixtures}/hub-encrypted.key`,
  });
});

test('missing, unreadable or mismatched files fail the connection with the reason; the hub runs on', async (t) => {
  // The hub's own view has whole paths; over HTTP they are relative to the flow file, as every path is.
  for (const [api, reason] of [
    [{ cert: 'missing.pem' }, `cannot read the certificate ${fixtures}/missing.pem: no such file`],
    [{ key: '.' }, `cannot read the key ${fixtures}: it is a folder`],
    [{ cert: 'README.md' }, /\/fixtures\/tls\/README\.md is not a certificate in PEM: /],
    [{ key: 'README.md' }, /\/fixtures\/tls\/README\.md is not a private key in PEM: /],
    [{ cert: 'broker.pem' }, `the key ${fixtures}/hub.key is not the key of the certificate ${fixtures}/broker.pem`],
  ] as const) {
    const { hub } = await serveTls(t, api);
    const info = hub.connection('api')?.info;
    t.is(info?.status, 'failed');
    t.is(info?.code, 'PB_TLS');
    if (typeof reason === 'string') t.is(info?.reason, reason);
    else t.regex(info?.reason ?? '', reason);
    t.is(hub.connection('studio')?.info.status, 'ok');
  }
});

test('TLS settings are checked in the flow file: cert and key together, passphraseEnv a variable name beside them', (t) => {
  const paths = (api: object) => {
    const result = validateFlow({ connections: { api: { type: 'rest-api', ...api } } }, '/virtual/flow.json5');
    return result.ok ? [] : result.issues.map((issue) => issue.path.join('.'));
  };
  t.deepEqual(paths({ cert: 'hub.pem' }), ['connections.api.key']);
  t.deepEqual(paths({ key: 'hub.key' }), ['connections.api.cert']);
  t.deepEqual(paths({ passphraseEnv: 'HUB_KEY_PASS' }), ['connections.api.passphraseEnv']);
  t.deepEqual(paths({ cert: 'hub.pem', key: 'hub.key', passphraseEnv: 'not a name' }), ['connections.api.passphraseEnv']);
  t.deepEqual(paths({ cert: 'hub.pem', key: 'hub.key', passphraseEnv: 'HUB_KEY_PASS' }), []);
});
