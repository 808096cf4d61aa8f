import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { eventually } from '../helpers/eventually.ts';
import { serve } from '../helpers/http.ts';
import { capturedLog, param, startHub } from '../helpers/hub.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A real HTTP server on a free port; `handle` decides each answer, `seen` keeps each request. */
async function device(t: ExecutionContext, handle: Handler) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

test('a polled JSON status endpoint sets status, body and extracted parameters, typed (R-J1)', async (t) => {
  let level = -12.5;
  const { base, seen } = await device(t, (_req, res) => json(res, 200, { data: { level, name: 'Mic 1', on: true }, items: [{ id: 7 }] }));
  const hub = await startHub(t, {
    connections: {
      desk: {
        type: 'http-client',
        requests: [
          {
            id: 'status',
            url: `${base}/api/status`,
            every: 200,
            extract: {
              level: { pointer: '/data/level', type: 'F' },
              name: { pointer: '/data/name', type: 'S' },
              on: { pointer: '/data/on', type: 'B' },
              first: { pointer: '/items/0/id', type: 'I' },
              items: { pointer: '/items', type: 'S' },
            },
          },
        ],
      },
    },
  });
  await eventually(() => hub.graph.get('desk/status/level')?.value === -12.5, 'the extracted level');
  t.is(param(hub, 'desk/status/status').value, 200);
  t.is(param(hub, 'desk/status/name').value, 'Mic 1');
  t.is(param(hub, 'desk/status/on').value, true);
  t.is(param(hub, 'desk/status/first').value, 7);
  t.is(param(hub, 'desk/status/items').value, '[{"id":7}]', 'an object or array extracted as a string is its JSON');
  t.regex(String(param(hub, 'desk/status/body').value), /"level":-12.5/);
  t.is(param(hub, 'desk/status/level').access, 'read-only');
  level = -3;
  await eventually(() => hub.graph.get('desk/status/level')?.value === -3, 'polled again');
  t.true(seen.length >= 2);
  t.is(hub.connection('desk')?.info.status, 'ok');
});

test('placeholders are filled with parameter values (URL-encoded in the URL); a secret from the environment is sent but never shown (R-J1)', async (t) => {
  process.env['PB_SPEC_CUE_TOKEN'] = 's3cr3t-token';
  t.teardown(() => delete process.env['PB_SPEC_CUE_TOKEN']);
  const { base, seen } = await device(t, (_req, res) => json(res, 200, { ok: true }));
  const { log, lines } = capturedLog('debug');
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        panel: { type: 'dummy', parameters: ['name,S,Intro & Titles', 'level,F,0.5'] },
        player: {
          type: 'http-client',
          debug: true,
          requests: [
            {
              id: 'cue',
              method: 'POST',
              url: `${base}/cue?name={{panel/name}}&key=\${PB_SPEC_CUE_TOKEN}`,
              headers: { authorization: 'Bearer ${PB_SPEC_CUE_TOKEN}', 'content-type': 'application/json' },
              body: '{"level": {{panel/level}}}',
            },
          ],
        },
      },
    },
    { log },
  );
  const api = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port']}`;
  const answer = await fetch(`${api}/update?parameter=player/cue/send&value=`);
  t.is(answer.status, 200, 'answered once the device answered');
  t.is(seen.length, 1);
  t.is(seen[0]!.url, '/cue?name=Intro%20%26%20Titles&key=s3cr3t-token');
  t.is(seen[0]!.headers.authorization, 'Bearer s3cr3t-token');
  t.is(seen[0]!.body, '{"level": 0.5}');
  const shown = JSON.stringify(await (await fetch(`${api}/connections`)).json());
  t.false(shown.includes('s3cr3t'), shown);
  t.regex(shown, /POST http:\/\/127\.0\.0\.1:\d+\/cue/);
  t.true(
    lines().some((line) => line.msg.includes('player/cue/status')),
    'the debug log was on',
  );
  t.false(JSON.stringify(lines()).includes('s3cr3t'), 'never in the log, debug lines included');
});

test('failures degrade the connection with the reason until the next success, and a writer of send hears 502, 504 or 503 (R-J1, R-G1)', async (t) => {
  let mode: 'ok' | 'error' | 'slow' | 'reset' = 'error';
  const { base } = await device(t, (req, res) => {
    if (mode === 'ok') return json(res, 200, { v: 1 });
    if (mode === 'error') return json(res, 500, { error: 'broken' });
    if (mode === 'reset') return req.socket.destroy();
    setTimeout(() => json(res, 200, { v: 2 }), 6000);
  });
  const { log, lines } = capturedLog('warn');
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        svc: {
          type: 'http-client',
          requests: [{ id: 'get', url: `${base}/x?password=hunter2`, timeout: 1500, extract: { v: { pointer: '/v', type: 'I' } } }],
        },
      },
    },
    { log },
  );
  const api = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port']}`;
  const send = () => fetch(`${api}/update?parameter=svc/get/send&value=`);
  const refused = await send();
  t.is(refused.status, 502);
  t.is(refused.headers.get('x-patchbay-code'), 'PB_BAD_ANSWER');
  t.is(param(hub, 'svc/get/status').value, 500);
  t.is(hub.connection('svc')?.info.status, 'degraded');
  t.regex(hub.connection('svc')?.info.reason ?? '', /GET http:\/\/127\.0\.0\.1:\d+\/x: answered 500/);

  mode = 'slow';
  const slow = await send();
  t.is(slow.status, 504);
  t.is(slow.headers.get('x-patchbay-code'), 'PB_DEVICE_TIMEOUT');
  t.regex(hub.connection('svc')?.info.reason ?? '', /no answer within 1500 ms/);

  mode = 'reset';
  const reset = await send();
  t.is(reset.status, 503);
  t.is(reset.headers.get('x-patchbay-code'), 'PB_DEVICE_UNAVAILABLE');

  mode = 'ok';
  t.is((await send()).status, 200);
  t.is(hub.connection('svc')?.info.status, 'ok', 'ok again after a success');
  t.is(param(hub, 'svc/get/v').value, 1);
  t.true(
    lines().some((line) => line.msg.includes('answered 500')),
    'failures are logged',
  );
  t.false(JSON.stringify(lines()).includes('hunter2'), 'the query is never logged');
});

/** A player as in the automation guide: a JSON status and a cue; `stop` takes it away, `start` brings it back on its port. */
async function player(t: ExecutionContext) {
  const state = { cue: 200 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => (req.url?.startsWith('/api/cue') ? json(res, state.cue, {}) : json(res, 200, { current: { name: 'Intro' } })));
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  t.teardown(() => (server.listening ? stop() : undefined));
  return { base: `http://127.0.0.1:${port}`, state, stop, start: () => listen(port) };
}

test('a cue refused while the device was away does not keep the connection degraded: the next poll after it is back puts it to ok (R-J1)', async (t) => {
  const device = await player(t);
  const { log, lines } = capturedLog('warn');
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        player: {
          type: 'http-client',
          requests: [
            { id: 'status', url: `${device.base}/api/status`, every: 200, extract: { clip: { pointer: '/current/name', type: 'S' } } },
            { id: 'cue', method: 'POST', url: `${device.base}/api/cue` },
          ],
        },
      },
    },
    { log },
  );
  const api = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port']}`;
  const info = () => hub.connection('player')?.info;
  await eventually(() => hub.graph.get('player/status/clip')?.value === 'Intro', 'the first poll');
  await device.stop();
  const cue = await fetch(`${api}/update?parameter=player/cue/send&value=`);
  t.is(cue.status, 503);
  t.is(cue.headers.get('x-patchbay-code'), 'PB_DEVICE_UNAVAILABLE');
  t.is(info()?.status, 'degraded');
  // A poll may fail beside it; the reason shows the latest failure, and the cue is one of those failing.
  t.regex(info()?.reason ?? '', /: ECONNREFUSED/);
  t.like(info()?.details?.['requests'], [{ id: 'status' }, { id: 'cue', failing: true }]);

  await device.start();
  await eventually(
    () => info()?.status === 'ok',
    () => `ok once the device answers polls again, not ${JSON.stringify(info())}`,
  );
  t.falsy(info()?.reason);
  t.false(JSON.stringify(info()?.details).includes('failing'), 'no request is shown failing');

  // A device that answers the cue with an error: the writer hears it, the status says so until the device answers again.
  device.state.cue = 500;
  const refused = await fetch(`${api}/update?parameter=player/cue/send&value=`);
  t.is(refused.status, 502);
  t.true(
    lines().some((line) => /POST http:\/\/127\.0\.0\.1:\d+\/api\/cue: answered 500/.test(line.msg)),
    'the failure is reported',
  );
  await eventually(() => info()?.status === 'ok', 'ok at the next poll');
});

test('a polled request that fails every time keeps the connection degraded with its reason, however often another succeeds (R-J1)', async (t) => {
  const { base, seen } = await device(t, (req, res) => (req.url === '/broken' ? json(res, 500, {}) : json(res, 200, { v: 1 })));
  const hub = await startHub(t, {
    connections: {
      svc: {
        type: 'http-client',
        requests: [
          { id: 'broken', url: `${base}/broken`, every: 100 },
          { id: 'fine', url: `${base}/fine`, every: 100 },
          { id: 'once', url: `${base}/once` },
        ],
      },
    },
  });
  const info = () => hub.connection('svc')?.info;
  await eventually(() => info()?.status === 'degraded', 'degraded by the broken poll');
  const statuses = new Set<string>();
  const answered = (path: string) => seen.filter((request) => request.url === path).length;
  const enough = answered('/fine') + 5;
  await eventually(() => {
    statuses.add(`${info()?.status}: ${info()?.reason}`);
    return answered('/fine') >= enough;
  }, 'five more answers of the fine poll');
  // A success of another request is no news about this one: the status stays, and does not flap with every answer.
  t.deepEqual([...statuses], [`degraded: GET ${base}/broken: answered 500`]);
  const once = await new Promise<{ ok: boolean }>((resolve) => param(hub, 'svc/once/send').set(null, 'spec', resolve));
  t.true(once.ok);
  t.is(info()?.status, 'degraded', 'nor does a successful send clear it');
});

test('a 50 MiB answer is cut off at maxBodyBytes, a non-JSON answer cannot be extracted from, redirects are followed, and maxInFlight bounds the requests waiting (R-J1, R-G4)', async (t) => {
  const { base } = await device(t, (req, res) => {
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(1024 * 1024, 65);
      let sent = 0;
      const more = () => {
        while (sent < 50) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => {});
      return more();
    }
    if (req.url === '/text') return void res.end('<html>not json</html>');
    if (req.url === '/moved') return void res.writeHead(302, { location: '/final' }).end();
    if (req.url === '/final') return json(res, 200, { where: 'final' });
    if (req.url === '/slow') return void setTimeout(() => json(res, 200, {}), 1000);
  });
  const { hub, base: api } = await serve(
    t,
    {},
    {
      svc: {
        type: 'http-client',
        maxInFlight: 2,
        requests: [
          { id: 'huge', url: `${base}/huge` },
          { id: 'text', url: `${base}/text`, extract: { v: { pointer: '/v', type: 'I' } } },
          { id: 'moved', url: `${base}/moved`, followRedirects: true, extract: { where: { pointer: '/where', type: 'S' } } },
          { id: 'slow/1', url: `${base}/slow` },
          { id: 'slow/2', url: `${base}/slow` },
          { id: 'slow/3', url: `${base}/slow` },
        ],
      },
    },
  );
  const send = (id: string) => fetch(`${api}/update?parameter=svc/${id}/send&value=`);
  const huge = await send('huge');
  t.is(huge.status, 503);
  t.regex(hub.connection('svc')?.info.reason ?? '', /more than maxBodyBytes \(1048576\)/);
  t.is(param(hub, 'svc/huge/body').value, undefined, 'no part of it kept');

  const text = await send('text');
  t.is(text.status, 502);
  t.is(text.headers.get('x-patchbay-code'), 'PB_BAD_ANSWER');
  t.regex(hub.connection('svc')?.info.reason ?? '', /not JSON/);

  t.is((await send('moved')).status, 200);
  t.is(param(hub, 'svc/moved/where').value, 'final');
  t.is(param(hub, 'svc/moved/status').value, 200);

  const waiting = [send('slow/1'), send('slow/2')];
  await eventually(() => hub.connection('svc')?.info.details?.['inFlight'] === 2, 'two waiting');
  const third = await send('slow/3');
  t.is(third.status, 503);
  t.is(third.headers.get('x-patchbay-code'), 'PB_OVER_LIMIT');
  t.deepEqual(
    (await Promise.all(waiting)).map((r) => r.status),
    [200, 200],
  );
});

test('validate names bad URLs, placeholders and pointers with their paths (R-J1)', (t) => {
  const result = validateFlow(
    {
      connections: {
        svc: {
          type: 'http-client',
          requests: [
            { id: 'a', url: 'ftp://x/y' },
            { id: 'b', url: 'http://x/{{nope}}', extract: { v: { pointer: 'v', type: 'I' }, status: { pointer: '', type: 'S' } } },
            { id: 'a', url: 'not a url' },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  const text = result.ok ? '' : result.error.message;
  for (const expected of [
    'connections.svc.requests[0].url: ftp: is not http: or https:',
    'connections.svc.requests[1].url: {{nope}}:',
    'connections.svc.requests[1].extract.v.pointer: "v" is not a JSON Pointer',
    'connections.svc.requests[1].extract.status: "status" is one of the request\'s own parameters',
    'connections.svc.requests[2].id: "a" names an earlier request too',
    'connections.svc.requests[2].url: "not a url" is not a URL',
  ])
    t.true(text.includes(expected), `${expected}\n--- in ---\n${text}`);
});

test('redirects: not followed unless asked, then on the same origin with the headers, to another only when listed and without them (R-J1)', async (t) => {
  const elsewhere = await device(t, (_req, res) => json(res, 200, { ok: true }));
  const first = await device(t, (req, res) => {
    if (req.url === '/start') return void res.writeHead(302, { location: `${elsewhere.base}/landing` }).end();
    if (req.url === '/here') return void res.writeHead(307, { location: '/there' }).end();
    json(res, 200, { where: req.url });
  });
  const secret = { authorization: 'Bearer s3cr3t', 'x-api-key': 'k3y' };
  const request = (id: string, path: string, more: Record<string, unknown> = {}) => ({
    id,
    url: `${first.base}${path}`,
    headers: secret,
    ...more,
  });
  const hub = await startHub(t, {
    connections: {
      svc: {
        type: 'http-client',
        requests: [
          request('off', '/start'),
          request('same', '/here', { followRedirects: true }),
          request('unlisted', '/start', { followRedirects: true }),
          request('listed', '/start', { followRedirects: true, redirectOrigins: [elsewhere.base] }),
        ],
      },
    },
  });
  const send = (id: string) =>
    new Promise<{ ok: boolean; error?: { code: string; message: string } }>((resolve) =>
      param(hub, `svc/${id}/send`).set(null, 'spec', resolve as never),
    );

  const off = await send('off');
  t.like(off, { ok: false, error: { code: 'PB_BAD_ANSWER' } });
  t.regex(off.error?.message ?? '', /answered 302, a redirect to http:\/\/127\.0\.0\.1:\d+\/landing, and followRedirects is off/);
  const unlisted = await send('unlisted');
  t.regex(unlisted.error?.message ?? '', /another origin, not followed: list it in redirectOrigins/);
  t.is(elsewhere.seen.length, 0, 'nothing reached the other origin');

  t.like(await send('same'), { ok: true });
  t.is(param(hub, 'svc/same/body').value, JSON.stringify({ where: '/there' }));
  t.is(first.seen.find((r) => r.url === '/there')?.headers['x-api-key'], 'k3y', 'the same origin gets the headers');

  t.like(await send('listed'), { ok: true });
  t.is(elsewhere.seen[0]?.url, '/landing');
  t.is(elsewhere.seen[0]?.headers.authorization, undefined, 'no Authorization to the other origin');
  t.is(elsewhere.seen[0]?.headers['x-api-key'], undefined, "none of the flow's headers either");
});

test('a value cannot steer a request: placeholders in the scheme, host or port are refused by validate; a path value of . or .. is refused and nothing sent (R-J1)', async (t) => {
  const result = validateFlow(
    {
      connections: {
        svc: {
          type: 'http-client',
          requests: [
            { id: 'a', url: 'http://{{panel/x}}/a' },
            { id: 'b', url: 'http://device{{panel/x}}/a' },
            { id: 'c', url: 'http://{{panel/x}}.example/a' },
            { id: 'd', url: 'http://device:{{panel/port}}/a' },
            { id: 'e', url: '{{panel/url}}' },
            { id: 'f', url: 'http://device/api/{{panel/clip}}?q={{panel/q}}' },
            { id: 'g', url: 'http://device/a', followRedirects: true, redirectOrigins: ['not an origin', 'https://cdn.example.com/path'] },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  const text = result.ok ? '' : result.error.message;
  for (const index of [0, 1, 2, 3, 4])
    t.true(text.includes(`connections.svc.requests[${index}].url: a {{placeholder}} in the scheme, host or port`), `${index}\n${text}`);
  t.false(text.includes('requests[5]'), text);
  t.true(text.includes('connections.svc.requests[6].redirectOrigins[0]: "not an origin" is not an origin'), text);
  t.true(text.includes('connections.svc.requests[6].redirectOrigins[1]'), text);

  const { base, seen } = await device(t, (req, res) => json(res, 200, { url: req.url }));
  const hub = await startHub(t, {
    connections: {
      panel: { type: 'dummy', parameters: ['clip,S,intro'] },
      svc: { type: 'http-client', requests: [{ id: 'play', method: 'POST', url: `${base}/api/clips/{{panel/clip}}/play` }] },
    },
  });
  const send = () =>
    new Promise<{ ok: boolean; error?: { code: string; message: string } }>((resolve) =>
      param(hub, 'svc/play/send').set(null, 'spec', resolve as never),
    );
  t.like(await send(), { ok: true });
  t.is(seen.at(-1)?.url, '/api/clips/intro/play');
  for (const climb of ['..', '.', 'a/../..', '%2e%2e']) {
    param(hub, 'panel/clip').set(climb, 'spec');
    const answer = await send();
    if (climb === 'a/../..' || climb === '%2e%2e') {
      // A slash or a percent is encoded: the value stays one segment, of its own text.
      t.like(answer, { ok: true });
      t.is(seen.at(-1)?.url, `/api/clips/${encodeURIComponent(climb)}/play`);
    } else {
      t.like(answer, { ok: false, error: { code: 'PB_CONVERSION' } }, climb);
      t.regex(answer.error?.message ?? '', /cannot be \. or \.\./);
    }
  }
  t.false(
    seen.some((r) => r.url === '/api/play' || r.url === '/api/clips/play'),
    'the path never climbed',
  );
});

test('a URL is never shown with its query, even where the failure quotes it whole; a URL with a user and password is refused by validate (R-J1)', async (t) => {
  process.env['PB_SPEC_QUERY_KEY'] = 'k3y-in-query';
  t.teardown(() => delete process.env['PB_SPEC_QUERY_KEY']);
  const { log, lines } = capturedLog('warn');
  const hub = await startHub(
    t,
    {
      connections: {
        panel: { type: 'dummy', parameters: ['which,S,a b'] },
        svc: { type: 'http-client', requests: [{ id: 'go', url: 'http://127.0.0.1:9/x?key=${PB_SPEC_QUERY_KEY}&which={{panel/which}}' }] },
      },
    },
    { log },
  );
  const answer = await new Promise<{ ok: boolean; error?: { message: string } }>((resolve) =>
    param(hub, 'svc/go/send').set(null, 'spec', resolve),
  );
  t.false(answer.ok);
  const shown = JSON.stringify([answer, hub.connection('svc')?.info, hub.problems(), lines()]);
  t.regex(shown, /GET http:\/\/127\.0\.0\.1:9\/x: /, 'the failure names the request as written, without its query');
  t.false(shown.includes('k3y-in-query'), shown);

  const refused = validateFlow(
    { connections: { svc: { type: 'http-client', requests: [{ id: 'a', url: 'http://admin:pw@device.lan/x' }] } } },
    '/virtual/flow.json5',
  );
  t.regex(refused.ok ? '' : refused.error.message, /connections\.svc\.requests\[0\]\.url: a URL cannot carry a user and password/);
});
