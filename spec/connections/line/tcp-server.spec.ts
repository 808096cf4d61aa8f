import { connect, type Socket } from 'node:net';
import test from 'ava';
import { eventually } from '../../helpers/eventually.ts';
import { freePort, serve } from '../../helpers/http.ts';
import { param } from '../../helpers/hub.ts';

/** A tally box that dials in: plain `net`, recording what the hub sends it. */
async function dialIn(port: number): Promise<{ socket: Socket; heard: () => string; closed: () => boolean }> {
  const socket = connect(port, '127.0.0.1');
  let heard = '';
  let closed = false;
  socket.on('data', (chunk) => (heard += chunk.toString()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, heard: () => heard, closed: () => closed };
}

test('a tcp-server reads every client, sends each write to all of them, closes a client past maxClients, and refuses a write while none is connected (R-N1, R-G1)', async (t) => {
  const port = await freePort();
  const { hub, base } = await serve(
    t,
    {},
    {
      tally: {
        type: 'tcp-server',
        port,
        bindIp: '127.0.0.1',
        maxClients: 2,
        delimiter: '\n',
        parameters: ['cam/1,B', 'cam/2,B', 'program,I'],
        receive: [{ match: '^CAM(?P<n>\\d) (?P<on>ON|OFF)$', set: { 'cam/$n': '$on' } }],
        send: [{ parameter: 'program', frame: 'PGM $VALUE\n' }],
      },
    },
  );
  await eventually(() => hub.connection('tally')?.info.status === 'ok', 'listening');
  const none = await fetch(`${base}/update?parameter=tally/program&value=1`);
  t.is(none.status, 503, 'no client connected: refused');
  t.is(none.headers.get('x-patchbay-code'), 'PB_DEVICE_UNAVAILABLE');
  t.is(hub.connection('tally')?.info.details?.['sent'], 0, 'a frame sent to nobody is not counted as sent');

  const a = await dialIn(port);
  const b = await dialIn(port);
  t.teardown(() => {
    a.socket.destroy();
    b.socket.destroy();
  });
  await eventually(() => hub.connection('tally')?.info.details?.['clients'] === 2, 'two clients');
  const c = await dialIn(port);
  await eventually(() => c.closed(), 'the third client closed (maxClients 2)');

  a.socket.write('CAM1 ON\nCAM2 O');
  b.socket.write('CAM2 ON\n');
  await eventually(() => hub.graph.get('tally/cam/1')?.value === true && hub.graph.get('tally/cam/2')?.value === true, 'both clients read');
  a.socket.write('FF\n');
  await eventually(() => hub.graph.get('tally/cam/2')?.value === false, "a's frame, finished later, framed apart from b's");

  t.is((await fetch(`${base}/update?parameter=tally/program&value=2`)).status, 200);
  await eventually(() => a.heard() === 'PGM 2\n' && b.heard() === 'PGM 2\n', 'the frame sent to every client');
  t.is(param(hub, 'tally/program').value, 2);
});
