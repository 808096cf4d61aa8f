import { createServer, type Socket } from 'node:net';
import test from 'ava';
import { eventually } from '../../helpers/eventually.ts';
import { freePort, serve } from '../../helpers/http.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';
import { RouterSimulator } from '../../helpers/devices.ts';

const routerFlow = (port: number, extra: object = {}) => ({
  type: 'tcp-client',
  host: '127.0.0.1',
  port,
  parameters: ['dest/1,I,7', 'dest/2,I', 'alarm,B', 'reset,T'],
  receive: [
    { match: '^ROUTE (?P<dst>\\d+) (?P<src>\\d+)$', set: { 'dest/$dst': '$src' } },
    { match: '^ALARM (?<state>ON|OFF)$', set: { alarm: '$state' } },
  ],
  send: [
    { parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\r\n' },
    { parameter: 'dest/2', frame: 'ROUTE 2 $VALUE\r\n' },
    { parameter: 'reset', frame: 'RESET\r\n' },
  ],
  poll: [{ frame: 'ROUTE?\r\n', every: 100 }],
  ...extra,
});

test('a tcp-client reads a router polled with ROUTE?, writes ROUTE frames on HTTP writes, and tells the device nothing at start (R-N1, R-N2, R-G3)', async (t) => {
  const router = new RouterSimulator(await freePort());
  await router.start();
  t.teardown(() => router.stop());
  const { hub, base } = await serve(t, {}, { router: routerFlow(router.port) });
  await eventually(() => hub.graph.get('router/dest/1')?.value === 3, 'the polled route 1 ← 3');
  t.is(param(hub, 'router/dest/2').value, 4);
  t.is(param(hub, 'router/alarm').access, 'read-only', 'a parameter no send entry names takes no writes');
  t.false(
    router.heard.some((line) => line.startsWith('ROUTE 1 ')),
    'the declared default 7 was never sent: devices are told nothing at start (R-G3)',
  );

  const written = await fetch(`${base}/update?parameter=router/dest/1&value=5`);
  t.is(written.status, 200);
  t.true(router.heard.includes('ROUTE 1 5'));
  // A poll answered before the route was taken may still be on its way with the old route: the next one says 5.
  await eventually(() => param(hub, 'router/dest/1').value === 5, 'the route the router took');
  t.is((await fetch(`${base}/update?parameter=router/reset&value=`)).status, 200);
  await eventually(() => router.heard.includes('RESET'), 'RESET sent for the trigger');

  router.say('ALARM ON\r\nHELLO THERE\r\n');
  await eventually(() => hub.graph.get('router/alarm')?.value === true, 'the alarm frame');
  await eventually(() => hub.connection('router')?.info.details?.['unmatched'] === 1, 'the unmatched frame counted');
  t.is(hub.connection('router')?.info.status, 'ok', 'an unmatched frame is no error');
});

test('a device that goes away: degraded with the reason, a write refused at once with 503, and the state read again once it is back (R-G1)', async (t) => {
  const router = new RouterSimulator(await freePort());
  await router.start();
  const { hub, base } = await serve(t, {}, { router: routerFlow(router.port) });
  await eventually(() => hub.graph.get('router/dest/1')?.value === 3, 'the polled route');
  await router.stop();
  await eventually(() => hub.connection('router')?.info.status === 'degraded', 'degraded');
  // Which the system says depends on where the stop met the link: a poll in flight reads a reset.
  t.regex(hub.connection('router')?.info.reason ?? '', /ECONNREFUSED|ECONNRESET|closed/);
  const refused = await fetch(`${base}/update?parameter=router/dest/1&value=9`);
  t.is(refused.status, 503);
  t.is(refused.headers.get('x-patchbay-code'), 'PB_DEVICE_UNAVAILABLE');

  const back = new RouterSimulator(router.port);
  back.routes.set(1, 8);
  await back.start();
  t.teardown(() => back.stop());
  await eventually(() => hub.connection('router')?.info.status === 'ok', 'ok again', 15_000);
  await eventually(() => hub.graph.get('router/dest/1')?.value === 8, 'route 1 read again from the device');
  t.false(back.heard.includes('ROUTE 1 9'), 'the refused write was not sent later');
});

test('a device that never confirms a write (it stopped reading) answers 504 within the timeout (R-G1)', async (t) => {
  const port = await freePort();
  // A peer that accepts and never reads: the hub's writes pile up in the kernel, then in the socket.
  const sockets: Socket[] = [];
  const mute = createServer((socket) => {
    socket.pause();
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => mute.listen(port, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    mute.close();
  });
  const { hub, base } = await serve(
    t,
    {},
    {
      router: routerFlow(port, {
        poll: [],
        timeout: 300,
        parameters: ['blob,S'],
        receive: [],
        send: [{ parameter: 'blob', frame: '$VALUE\r\n' }],
      }),
    },
  );
  await eventually(() => hub.connection('router')?.info.status === 'ok', 'connected');
  const big = 'x'.repeat(60_000);
  let answer = 200;
  for (let i = 0; i < 200 && answer === 200; i++) {
    answer = (
      await fetch(`${base}/update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ parameter: 'router/blob', value: big }),
      })
    ).status;
  }
  t.true(
    answer === 504 || answer === 503,
    `a write the device does not take is answered 504 (or 503 once 1 MiB waits unread), got ${answer}`,
  );
  t.is(hub.connection('router')?.info.status, 'ok', 'the hub and the link stay up');
});

test('frames past maxFrameBytes and floods past maxFramesPerSecond are dropped and counted, the connection degraded, the hub running (R-G4)', async (t) => {
  const router = new RouterSimulator(await freePort());
  await router.start();
  t.teardown(() => router.stop());
  const { log, lines } = capturedLog('warn');
  const hub = await startHub(
    t,
    { connections: { router: routerFlow(router.port, { poll: [], maxFrameBytes: 64, maxFramesPerSecond: 500 }) } },
    { log },
  );
  await eventually(() => hub.connection('router')?.info.status === 'ok', 'connected');
  // 1 MiB without a delimiter, then a good frame: the good one still counts.
  router.say('A'.repeat(1024 * 1024));
  // Told before any delimiter came: nothing is held waiting for one past the bound.
  await eventually(() => hub.connection('router')?.info.status === 'degraded', 'degraded while the frame is still open');
  router.say('\r\nALARM ON\r\n');
  await eventually(() => hub.graph.get('router/alarm')?.value === true, 'the frame after the oversized one');
  t.regex(hub.connection('router')?.info.reason ?? '', /maxFrameBytes \(64\)/);
  t.is(hub.connection('router')?.info.code, 'PB_OVER_LIMIT');
  // A flood: 20,000 frames at once.
  router.say('ALARM OFF\r\n'.repeat(20_000));
  await eventually(() => Number(hub.connection('router')?.info.details?.['dropped']) >= 19_000, 'flood frames dropped');
  t.regex(hub.connection('router')?.info.reason ?? '', /maxFramesPerSecond \(500\)/);
  t.true(
    lines().some((line) => line.msg.includes('dropped')),
    'logged',
  );
  t.is(param(hub, 'router/alarm').value, false);
});

test('receive patterns and frames are checked with their paths before anything runs (R-N2)', async (t) => {
  const { validateFlow } = await import('../../../lib/config/flow-file.ts');
  const result = validateFlow(
    {
      connections: {
        router: {
          type: 'tcp-client',
          host: 'r',
          port: 1,
          parameters: ['a,I', 'b,T'],
          length: 4,
          lengthPrefix: 2,
          receive: [
            { match: '(a', set: { a: '1' } },
            { match: '^V (?P<v>\\d+)$', set: { a: '$w', nope: '$v' } },
          ],
          send: [
            { parameter: 'zz', frame: 'x' },
            { parameter: 'b', frame: 'FIRE $VALUE' },
            { parameter: 'a', frame: 'SET $LEVEL' },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  const text = result.ok ? '' : result.error.message;
  for (const expected of [
    'connections.router.lengthPrefix: give one of delimiter, length and lengthPrefix, not length and lengthPrefix',
    'connections.router.receive[0].match: not a regular expression',
    'connections.router.receive[1].set.a: $w is not a named group of the pattern ($v)',
    'connections.router.receive[1].set.nope: no parameter "nope" in parameters',
    'connections.router.send[0].parameter: no parameter "zz" in parameters',
    'connections.router.send[1].frame: "b" is a trigger',
    'connections.router.send[2].frame: $LEVEL is not known here',
  ])
    t.true(text.includes(expected), `${expected}\n--- in ---\n${text}`);
});

test('a binary device in hex: length-prefixed frames, a pattern in capitals, values mapped to bytes; a delimiter with no hex in it is refused before it runs (R-N1)', async (t) => {
  const port = await freePort();
  const heard: Buffer[] = [];
  const sockets: Socket[] = [];
  // A device that sends two-byte-prefixed frames: B0 <input> <state>, and takes C0 <relay> <state>.
  const device = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => heard.push(chunk));
    socket.write(Buffer.from([0, 3, 0xb0, 0x01, 0x01, 0, 3, 0xb0, 0x02, 0x00]));
  });
  await new Promise<void>((resolve) => device.listen(port, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    device.close();
  });
  const { hub, base } = await serve(
    t,
    {},
    {
      box: {
        type: 'tcp-client',
        host: '127.0.0.1',
        port,
        encoding: 'hex',
        lengthPrefix: 2,
        parameters: ['in/1,B', 'in/2,B', 'relay,B'],
        receive: [{ match: '^B00(?P<n>[12])0(?P<on>[01])$', set: { 'in/$n': '$on' } }],
        send: [{ parameter: 'relay', frame: 'C0 05 $VALUE', values: { true: '01', false: '00' } }],
      },
    },
  );
  await eventually(() => hub.graph.get('box/in/1')?.value === true && hub.graph.get('box/in/2')?.value === false, 'both inputs');
  t.is((await fetch(`${base}/update?parameter=box/relay&value=on`)).status, 200);
  await eventually(() => Buffer.concat(heard).equals(Buffer.from([0, 3, 0xc0, 0x05, 0x01])), 'the prefixed frame C0 05 01');

  const { validateFlow } = await import('../../../lib/config/flow-file.ts');
  const refused = validateFlow(
    {
      connections: {
        box: {
          type: 'udp',
          host: 'h',
          sendPort: 1,
          encoding: 'hex',
          delimiter: '\r\n',
          send: [{ parameter: 'r', frame: '01', values: { true: 'ON' } }],
          parameters: ['r,B'],
        },
      },
    },
    '/virtual/flow.json5',
  );
  const text = refused.ok ? '' : refused.error.message;
  t.true(
    text.includes('connections.box.delimiter: "\\r\\n" holds no hex digits: with encoding "hex" the delimiter is written in hex'),
    text,
  );
  t.true(text.includes('connections.box.send[0].values.true: "ON" is not hex'), text);
});

test('a device whose address nothing answers at says so in words, with the system code kept: refused, and a host name not found', async (t) => {
  const port = await freePort();
  const hub = await startHub(t, {
    connections: {
      router: routerFlow(port),
      named: { ...routerFlow(port), host: 'no-such-router.invalid' },
    },
  });
  await eventually(() => /refused/.test(hub.connection('router')?.info.reason ?? ''), 'the refusal');
  t.is(
    hub.connection('router')?.info.reason,
    `127.0.0.1:${port} refused the connection (ECONNREFUSED): nothing listens there; is the device on, and is its port ${port}?`,
  );
  await eventually(() => /no machine/.test(hub.connection('named')?.info.reason ?? ''), 'the host name not found');
  t.regex(
    hub.connection('named')?.info.reason ?? '',
    /^no machine called no-such-router\.invalid is found \((ENOTFOUND|EAI_AGAIN)\): check the host name$/,
  );
});
