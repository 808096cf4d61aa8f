import { connect, createServer, type Socket } from 'node:net';
import test from 'ava';
import { slipFrame } from '../../../lib/connections/osc/slip.ts';
import { eventually } from '../../helpers/eventually.ts';
import { serve } from '../../helpers/http.ts';
import { param } from '../../helpers/hub.ts';
import { bundle, canRunLiblo, libloMessage, startDump, whyNoLiblo } from '../../helpers/liblo.ts';
import { freePort } from '../../helpers/ports.ts';

const liblo = canRunLiblo ? test : test.skip;

const addresses = [
  { id: 'fader', address: '/ch/01/mix/fader', type: 'F' },
  { id: 'scene', address: '/scene/current', type: 'I' },
  { id: 'name', address: '/name', type: 'S' },
];

/**
 * An oscdump listening for TCP on `port`, which reads SLIP frames; probed by a client of the
 * spec's own. The probe stays connected until the spec ends: liblo (0.31) stops reading a
 * connection accepted while another was open once that other closes, so a probe closed just
 * after the hub reconnected would make oscdump deaf to the hub.
 */
function tcpDump(t: Parameters<typeof startDump>[0], port: number) {
  return startDump(t, `osc.tcp://:${port}`, async () => {
    const probe = connect(port, '127.0.0.1');
    probe.on('error', () => {});
    t.teardown(() => probe.destroy());
    await new Promise<void>((resolve) => probe.once('connect', resolve).once('error', () => resolve()));
    probe.write(slipFrame(libloMessage('/patchbay/probe')));
  });
}

liblo(
  `writes reach oscdump over TCP as SLIP frames; while it is down a write is refused at once with 503, and the link comes back when it does${whyNoLiblo}`,
  async (t) => {
    const port = await freePort();
    let dump = await tcpDump(t, port);
    const { hub, base } = await serve(t, {}, { desk: { type: 'osc', transport: 'tcp', host: '127.0.0.1', port, addresses } });
    const info = () => hub.connection('desk')?.info;
    await eventually(() => info()?.status === 'ok', 'the link');
    const update = (address: string, value: string) => fetch(`${base}/update?parameter=${address}&value=${encodeURIComponent(value)}`);

    t.is((await update('desk/fader', '0.5')).status, 200);
    // 192 is SLIP's END byte: sent escaped, read back by liblo.
    t.is((await update('desk/scene', '192')).status, 200);
    await dump.until((line) => line.startsWith('/scene/current'), 'the scene');
    t.true(dump.lines.includes('/ch/01/mix/fader f 0.500000'));
    t.true(dump.lines.includes('/scene/current i 192'));

    await dump.kill();
    await eventually(() => info()?.status === 'degraded', 'the connection to notice the device went');
    t.is(info()?.code, 'PB_DEVICE_UNAVAILABLE');
    const refused = await update('desk/scene', '7');
    t.is(refused.status, 503);
    t.is(refused.headers.get('x-patchbay-code'), 'PB_DEVICE_UNAVAILABLE');
    t.regex(await refused.text(), /the link is down/);
    t.is(param(hub, 'desk/scene').value, 192);

    dump = await tcpDump(t, port);
    await eventually(() => info()?.status === 'ok', 'the link to come back');
    t.is((await update('desk/name', 'after the restart')).status, 200);
    await dump.until((line) => line.startsWith('/name'), 'the name after the restart');
    t.true(dump.lines.includes('/name s "after the restart"'));
    t.false(dump.lines.includes('/scene/current i 7'), 'the refused write is not replayed (R-G3)');
  },
);

/** A TCP device of the spec's own: it sends what the spec gives it to the hub that connects. */
async function device(t: Parameters<typeof startDump>[0]) {
  const peers: Socket[] = [];
  const server = createServer((socket) => {
    socket.on('error', () => {});
    peers.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const peer of peers) peer.destroy();
    server.close();
  });
  return {
    port: (server.address() as { port: number }).port,
    peers,
    send: (bytes: Buffer) => peers.at(-1)?.write(bytes),
  };
}

liblo(`SLIP frames of liblo's messages and bundles set parameters, escaped bytes and split chunks included${whyNoLiblo}`, async (t) => {
  const desk = await device(t);
  const { hub } = await serve(t, {}, { desk: { type: 'osc', transport: 'tcp', host: '127.0.0.1', port: desk.port, addresses } });
  await eventually(() => desk.peers.length === 1, 'the hub to connect');
  const seen: unknown[] = [];
  const subscription = param(hub, 'desk/scene').changes$.subscribe((value) => seen.push(value));
  t.teardown(() => subscription.unsubscribe());
  // 192 and 219 are SLIP's END and ESC bytes: sent escaped.
  const frames = Buffer.concat([
    slipFrame(libloMessage('/scene/current', 'i', '192')),
    slipFrame(bundle(libloMessage('/scene/current', 'i', '219'), libloMessage('/ch/01/mix/fader', 'f', '0.5'))),
    slipFrame(libloMessage('/scene/current', 'i', '3')),
  ]);
  desk.send(frames.subarray(0, 7));
  await new Promise((resolve) => setTimeout(resolve, 20));
  desk.send(frames.subarray(7));
  await eventually(() => seen.length === 3, 'three scenes');
  t.deepEqual(seen, [192, 219, 3]);
  t.is(param(hub, 'desk/fader').value, 0.5);
});

liblo(`a SLIP frame over maxPacketBytes is dropped up to its end, and the stream reads on${whyNoLiblo}`, async (t) => {
  const desk = await device(t);
  const { hub } = await serve(
    t,
    {},
    {
      desk: { type: 'osc', transport: 'tcp', host: '127.0.0.1', port: desk.port, addresses, maxPacketBytes: 64 },
    },
  );
  await eventually(() => desk.peers.length === 1, 'the hub to connect');
  desk.send(Buffer.concat([slipFrame(libloMessage('/name', 's', 'x'.repeat(200))), slipFrame(libloMessage('/name', 's', 'short'))]));
  await eventually(() => param(hub, 'desk/name').value === 'short', 'the short name');
  const info = hub.connection('desk')?.info;
  t.is(info?.status, 'degraded');
  t.regex(info?.reason ?? '', /over maxPacketBytes \(64\)/);
  t.like(info?.details, { dropped: { size: 1 } });
});

liblo(`a device that closes the connection is connected to again, and what it sends then applies${whyNoLiblo}`, async (t) => {
  const desk = await device(t);
  const { hub } = await serve(t, {}, { desk: { type: 'osc', transport: 'tcp', host: '127.0.0.1', port: desk.port, addresses } });
  await eventually(() => desk.peers.length === 1, 'the hub to connect');
  desk.peers[0]?.destroy();
  await eventually(() => desk.peers.length === 2, 'the hub to connect again');
  desk.send(slipFrame(libloMessage('/scene/current', 'i', '9')));
  await eventually(() => param(hub, 'desk/scene').value === 9, 'the scene over the new connection');
  t.is(hub.connection('desk')?.info.status, 'ok');
});
