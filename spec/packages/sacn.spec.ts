/**
 * The `sacn` package (packages/sacn), installed in a studio folder and run by a hub process,
 * against the `sacn` library from npm: its `Sender` as a lighting desk the hub receives, its
 * `Receiver` as a dimmer the hub sends to. Unicast on 127.0.0.1 (the loopback interface does
 * not carry multicast).
 */
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import test from 'ava';
import WebSocket from 'ws';
import { Packet, Receiver, Sender } from 'sacn';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, terminate } from '../helpers/hub-process.ts';
import { connectionOf, hubWithPackage, update } from '../helpers/outside-package.ts';
import { freePort } from '../helpers/ports.ts';

const receiving = (universes: number[], more: Record<string, unknown> = {}) => ({
  desk: { type: 'sacn', mode: 'receive', port: 0, bindIp: '127.0.0.1', multicast: false, universes, channels: 16, ...more },
});

/** The port a receiving connection `desk` took, once it listens. */
async function portOf(hub: HubProcess): Promise<number> {
  let port = 0;
  await eventually(async () => {
    const desk = await connectionOf(hub, 'desk');
    port = desk?.status === 'ok' ? Number(desk.details?.['port'] ?? 0) : 0;
    return port > 0;
  }, 'receiving');
  return port;
}

/** A desk: the library's sender, unicast to the hub's port. */
function desk(port: number, universe: number, name: string, priority: number): Sender {
  return new Sender({
    universe,
    port,
    useUnicastDestination: '127.0.0.1',
    // A component id of its own: the library's default is one for every sender.
    defaultPacketOptions: { cid: randomBytes(16), sourceName: name, priority, useRawDmxValues: true },
  });
}

test.serial(
  "a desk's levels, name and priority are shown; a desk of higher priority takes over, equal ones merge, a silent one is gone after 2.5 s (R-PK2)",
  async (t) => {
    const hub = await hubWithPackage(t, 'sacn', receiving([1, 2]));
    const port = await portOf(hub);
    const main = desk(port, 1, 'Main desk', 100);
    t.teardown(() => main.close());
    await main.send({ payload: { 1: 255, 2: 128, 16: 7 } });
    await eventually(async () => (await hub.read('desk/1/1')) === '255', 'the levels');
    t.is(await hub.read('desk/1/2'), '128');
    t.is(await hub.read('desk/1/16'), '7');
    t.is(await hub.read('desk/1/3'), '0');
    t.is(await hub.read('desk/1/source'), 'Main desk');
    t.is(await hub.read('desk/1/priority'), '100');
    t.is(await hub.read('desk/1/active'), 'true');
    t.is(await hub.read('desk/2/active'), 'false', 'universe 2 has no source');

    // A backup desk of the same priority: highest takes precedence, channel by channel.
    const backup = desk(port, 1, 'Backup desk', 100);
    t.teardown(() => backup.close());
    await backup.send({ payload: { 1: 10, 2: 200, 3: 50 } });
    await eventually(async () => (await hub.read('desk/1/2')) === '200', 'merged');
    t.is(await hub.read('desk/1/1'), '255');
    t.is(await hub.read('desk/1/3'), '50');
    t.is(await hub.read('desk/1/source'), 'Main desk, Backup desk');
    // An operator's override of higher priority wins alone.
    const override = desk(port, 1, 'Override', 150);
    t.teardown(() => override.close());
    await override.send({ payload: { 1: 1 } });
    await eventually(async () => (await hub.read('desk/1/source')) === 'Override', 'the override');
    t.is(await hub.read('desk/1/1'), '1');
    t.is(await hub.read('desk/1/2'), '0');
    // The override falls silent; the two desks go on sending.
    const keepSending = setInterval(() => {
      void main.send({ payload: { 1: 255, 2: 128, 16: 7 } });
      void backup.send({ payload: { 1: 10, 2: 200, 3: 50 } });
    }, 200);
    t.teardown(() => clearInterval(keepSending));
    await eventually(async () => (await hub.read('desk/1/source')) === 'Main desk, Backup desk', 'back to the desks', 6000);
    t.is(await hub.read('desk/1/1'), '255');
    clearInterval(keepSending);
    // The backup falls silent first, so that the main desk is the last one heard whatever
    // the timing (two desks falling silent together may time out in either order).
    const mainAlone = setInterval(() => void main.send({ payload: { 1: 255, 2: 128, 16: 7 } }), 200);
    t.teardown(() => clearInterval(mainAlone));
    await eventually(async () => (await hub.read('desk/1/source')) === 'Main desk', 'the main desk alone', 6000);
    clearInterval(mainAlone);
    await eventually(async () => (await hub.read('desk/1/active')) === 'false', 'no source left', 6000);
    t.is(await hub.read('desk/1/1'), '255', 'the last levels held');
    t.is(await terminate(hub), 0);
  },
);

test.serial('what is not a data packet of a listed universe is counted and dropped, and the connection stays ok', async (t) => {
  const hub = await hubWithPackage(t, 'sacn', receiving([1]));
  const port = await portOf(hub);
  const socket = createSocket('udp4');
  t.teardown(() => socket.close());
  const sendRaw = (bytes: Buffer) => new Promise((resolve) => socket.send(bytes, port, '127.0.0.1', resolve));
  await sendRaw(Buffer.from('not sACN at all'));
  const valid = new Packet({ universe: 1, payload: { 1: 99 }, sequence: 1, sourceName: 'x', priority: 100, useRawDmxValues: true }).buffer;
  const truncated = valid.subarray(0, 120);
  const otherUniverse = new Packet({ universe: 7, payload: { 1: 5 }, sequence: 1, sourceName: 'x', useRawDmxValues: true }).buffer;
  const badPriority = Buffer.from(valid);
  badPriority.writeUInt8(201, 108);
  for (const bytes of [truncated, otherUniverse, badPriority]) await sendRaw(bytes);
  await sendRaw(valid);
  await eventually(async () => (await hub.read('desk/1/1')) === '99', 'the valid packet');
  // The details of a connection in a process of its own follow a moment later.
  const counted = async () => (await connectionOf(hub, 'desk'))?.details ?? {};
  await eventually(async () => (await counted())['received'] === 1, 'counted');
  t.like(await counted(), { malformed: 3, ignored: 1, received: 1 });
  // Preview data (a desk's visualiser) is not live output: not taken.
  const preview = new Packet({ universe: 1, payload: { 1: 77 }, sequence: 2, sourceName: 'x', priority: 100, useRawDmxValues: true })
    .buffer;
  valid.copy(preview, 22, 22, 38);
  preview.writeUInt8(0x80, 112);
  await sendRaw(preview);
  await eventually(async () => (await counted())['ignored'] === 2, 'preview counted');
  t.is(await hub.read('desk/1/1'), '99');
  // The same packet again is out of order (E1.31 6.7.2): not taken.
  const older = new Packet({ universe: 1, payload: { 1: 12 }, sequence: 0, sourceName: 'x', priority: 100, useRawDmxValues: true }).buffer;
  valid.copy(older, 22, 22, 38);
  await sendRaw(older);
  await eventually(async () => (await connectionOf(hub, 'desk'))?.details?.['outOfOrder'] === 1, 'counted out of order');
  t.is(await hub.read('desk/1/1'), '99');
  t.is((await connectionOf(hub, 'desk'))?.status, 'ok');
});

test.serial('levels written go to a receiver at once, again every refresh, and a stopping hub says it stopped (R-PK2)', async (t) => {
  const port = await freePort();
  const receiver = new Receiver({ universes: [1, 2], port, iface: '127.0.0.1' });
  t.teardown(() => receiver.close());
  const packets: Packet[] = [];
  receiver.on('packet', (packet) => packets.push(packet));
  const hub = await hubWithPackage(t, 'sacn', {
    lights: {
      type: 'sacn',
      mode: 'send',
      host: '127.0.0.1',
      port,
      universes: [1, 2],
      channels: 16,
      refresh: 500,
      sourceName: 'Studio hub',
      priority: 120,
    },
  });
  await eventually(async () => (await connectionOf(hub, 'lights'))?.status === 'ok', 'sending');
  t.deepEqual(await update(hub, 'lights/1/3', '200'), { status: 200 });
  await eventually(() => packets.some((packet) => packet.universe === 1 && packet.payloadAsBuffer?.[2] === 200), 'the level at the dimmer');
  const packet = packets.find((p) => p.universe === 1 && p.payloadAsBuffer?.[2] === 200) as Packet;
  t.is(packet.sourceName, 'Studio hub');
  t.is(packet.priority, 120);
  t.is(packet.payloadAsBuffer?.length, 16);
  t.like(await update(hub, 'lights/1/3', '256'), { status: 400, code: 'PB_CONVERSION' });
  t.like(await update(hub, 'lights/1/3', 'full'), { status: 400, code: 'PB_CONVERSION' });
  // The connection's process killed: the one that replaces it sends the levels of before, not a blackout.
  const lights = await connectionOf(hub, 'lights');
  const pid = (lights?.details?.['process'] as { pid?: number } | undefined)?.pid ?? 0;
  t.true(pid > 0, 'the process of the connection');
  if (pid > 0) process.kill(pid, 'SIGKILL');
  await eventually(async () => (await connectionOf(hub, 'lights'))?.status === 'failed', 'the process gone');
  packets.length = 0;
  await eventually(async () => (await connectionOf(hub, 'lights'))?.status === 'ok', 'a new process', 15_000);
  await eventually(() => packets.some((p) => p.universe === 1), 'sending again');
  t.is(packets.find((p) => p.universe === 1)?.payloadAsBuffer?.[2], 200, 'the level kept');
  // Nothing changes: universe 2 is sent again every 500 ms all the same.
  const before = packets.filter((p) => p.universe === 2).length;
  await eventually(() => packets.filter((p) => p.universe === 2).length >= before + 3, 'refreshed', 5000);
  // Many writes at once make few packets (at most 44 a second).
  const sentBefore = packets.filter((p) => p.universe === 1).length;
  // Fifty writes in one WebSocket batch, in order: channel 2's last is 49.
  const socket = new WebSocket(`ws://127.0.0.1:${hub.port}/ws?filter=%5E%24`);
  await once(socket, 'open');
  socket.send(JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ p: `lights/1/${(i % 16) + 1}`, v: i }))));
  await eventually(() => packets.some((p) => p.universe === 1 && p.payloadAsBuffer?.[1] === 49), 'the last write out');
  socket.close();
  t.true(packets.filter((p) => p.universe === 1).length - sentBefore < 50, 'fewer packets than writes');
  packets.length = 0;
  t.is(await terminate(hub), 0);
  await eventually(() => packets.filter((p) => (p.options & 0x40) !== 0).length >= 3, 'Stream_Terminated, three times a universe', 3000);
});
