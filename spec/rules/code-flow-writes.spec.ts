import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { RouterSimulator } from '../helpers/devices.ts';
import { Client, freePort } from '../helpers/http.ts';
import { capturedLog, param, startHub } from '../helpers/hub.ts';

/** A hub with a router on a tcp-client line protocol, a rest-api, and the code flow `panel.mjs`. */
async function routerPanel(t: ExecutionContext, flow: string, routerPort: number) {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-flow-writes-'));
  await writeFile(join(dir, 'panel.mjs'), flow);
  const { log, lines } = capturedLog('warn');
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        router: {
          type: 'tcp-client',
          host: '127.0.0.1',
          port: routerPort,
          parameters: ['dest/1,I'],
          receive: [{ match: '^ROUTE (?P<dst>\\d+) (?P<src>\\d+)$', set: { 'dest/$dst': '$src' } }],
          send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\r\n' }],
        },
      },
      flows: ['panel.mjs'],
    },
    { dir, log },
  );
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const update = (address: string, value: string) => fetch(`http://127.0.0.1:${port}/update?parameter=${address}&value=${value}`);
  return { hub, port, update, lines };
}

// A panel's route that is the router's: a write is answered with the router's answer.
const forwarding = `
export default (hub) => {
  hub.define('route/1', { type: 'I', onWrite: (value) => hub.writeConfirmed('router/dest/1', value) });
};
`;

test("a flow's parameter that forwards its writes to a device answers a client with the device's refusal, and 200 once the device took it (R-R6, R-G1)", async (t) => {
  const router = new RouterSimulator(await freePort());
  t.teardown(() => router.stop());
  const { hub, port, update } = await routerPanel(t, forwarding, router.port);
  await eventually(() => hub.connection('router')?.info.status === 'degraded', 'the router away');

  const refused = await update('panel/route/1', '5');
  t.is(refused.status, 503);
  t.is(refused.headers.get('x-patchbay-code'), 'PB_DEVICE_UNAVAILABLE');
  t.regex(await refused.text(), /link is down/);
  t.is(param(hub, 'panel/route/1').value, undefined, 'a route never taken is not shown');

  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  client.send({ p: 'panel/route/1', v: 6 });
  await client.until((m) => m.some((x) => (x as { code?: string }).code === 'PB_DEVICE_UNAVAILABLE'), 'the refusal on the socket');
  t.like(
    client.messages.find((x) => (x as { code?: string }).code),
    { p: 'panel/route/1', code: 'PB_DEVICE_UNAVAILABLE' },
  );

  await router.start();
  await eventually(() => hub.connection('router')?.info.status === 'ok', 'the router back');
  const taken = await update('panel/route/1', '5');
  t.is(taken.status, 200);
  t.true(router.heard.includes('ROUTE 1 5'), 'the router was told');
  t.is(param(hub, 'panel/route/1').value, 5, 'shown once taken');
  t.regex(param(hub, 'panel/route/1').lastChange?.by ?? '', /^http /, 'with its writer as who changed it');
});

test("a flow's write handler refuses with a code and a reason, takes a write by answering nothing, and one that answers an unknown code stops the flow (R-R6)", async (t) => {
  const router = new RouterSimulator(await freePort());
  const { hub, update, lines } = await routerPanel(
    t,
    `
export default (hub) => {
  const locked = hub.define('locked', { type: 'B', initial: false });
  hub.define('take', {
    type: 'I',
    onWrite: (value) => {
      if (value === 14) return { ok: false, error: { code: 'PB_NO_SUCH_CODE', message: 'x' } };
      return locked.value ? { ok: false, error: { code: 'PB_FORBIDDEN', message: 'the panel is locked' } } : undefined;
    },
  });
};
`,
    router.port,
  );
  t.is((await update('panel/take', '2')).status, 200);
  t.is(param(hub, 'panel/take').value, 2);

  param(hub, 'panel/locked').set(true);
  const locked = await update('panel/take', '3');
  t.is(locked.status, 403);
  t.is(locked.headers.get('x-patchbay-code'), 'PB_FORBIDDEN');
  t.regex(await locked.text(), /the panel is locked/);
  t.is(param(hub, 'panel/take').value, 2, 'a refused write changes nothing');

  const odd = await update('panel/take', '14');
  t.is(odd.status, 503);
  t.is(odd.headers.get('x-patchbay-code'), 'PB_CODE_FLOW');
  t.regex(await odd.text(), /PB_NO_SUCH_CODE/);
  t.true(
    lines().some((line) => /code flow .*panel\.mjs stopped: .*PB_NO_SUCH_CODE/.test(line.msg)),
    'a handler that answers what the hub cannot tell a client is the flow failing',
  );
  t.is(hub.graph.get('panel/take'), undefined, 'stopped, its parameters removed');
});

test('a handler that throws answers its writer PB_CODE_FLOW and stops the flow; the hub runs on (R-R6)', async (t) => {
  const router = new RouterSimulator(await freePort());
  const { hub, update, lines } = await routerPanel(
    t,
    `export default (hub) => { hub.define('take', { type: 'I', onWrite: async () => { throw new Error('unlucky'); } }); };`,
    router.port,
  );
  const failed = await update('panel/take', '13');
  t.is(failed.status, 503);
  t.is(failed.headers.get('x-patchbay-code'), 'PB_CODE_FLOW');
  t.true(lines().some((line) => /code flow .*panel\.mjs stopped: unlucky/.test(line.msg)));
  t.is(hub.graph.get('panel/take'), undefined);
  t.is((await update('panel/take', '1')).status, 404, 'the parameter went with the flow');
});
