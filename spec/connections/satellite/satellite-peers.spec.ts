import { connect } from 'node:net';
import test from 'ava';
import { QUIET_MS } from '../../../lib/connections/satellite/devices.ts';
import type { Value } from '../../../lib/core/value.ts';
import { eventually } from '../../helpers/eventually.ts';
import { dropped, ScriptedSatellite, surface, value } from './scripted-satellite.ts';

/*
 * What one satellite peer may do to the others and to the hub (issue 60, items 4 and 11):
 * the bitmaps it asks for, the device ids it claims, the keys it holds, the slots it takes.
 */

const details = (hub: Parameters<typeof value>[0]) => hub.connection('desk')?.info.details ?? {};

test('bitmaps larger than a surface has (past 512 px) and keys past maxKeys are refused with ADD-DEVICE ERROR saying why (R-G4)', async (t) => {
  const { hub, port } = await surface(t);
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('huge', 128, 16, 1024);
  await eventually(() => deck.received('ADD-DEVICE').length === 1, 'answered');
  t.like(deck.received('ADD-DEVICE')[0], { ERROR: '1', DEVICEID: 'huge' });
  t.regex(deck.received('ADD-DEVICE')[0]?.['MESSAGE'] ?? '', /BITMAPS of at most 512/);
  t.is(hub.graph.get('desk/huge/connected'), undefined, 'no device made');
  t.is(dropped(hub)['bitmaps'], 1);

  deck.addDevice('many', 2000, 16, 72);
  await eventually(() => deck.received('ADD-DEVICE').length === 2, 'answered');
  t.like(deck.received('ADD-DEVICE')[1], { ERROR: '1', DEVICEID: 'many' });
  t.regex(deck.received('ADD-DEVICE')[1]?.['MESSAGE'] ?? '', /more keys than this hub takes \(128\)/);

  // Two keys of 512 px (1 MB each to send): eight took over 120 s on a two-core machine loaded to 8 beside the suite.
  deck.addDevice('plus', 2, 2, 512);
  await eventually(() => deck.received('KEY-STATE').length === 2, 'the largest size allowed is drawn', 120_000);
  t.like(deck.received('ADD-DEVICE')[2], { OK: '1', DEVICEID: 'plus' });
  t.is(Buffer.from(deck.received('KEY-STATE')[0]?.['BITMAP'] ?? '', 'base64').length, 512 * 512 * 3);
});

test('a satellite asking for the largest bitmaps again and again and never reading holds no one up, and is drawn for only as it reads (R-G4)', async (t) => {
  const { hub, base, port } = await surface(t, {}, { studio: { type: 'dummy', parameters: ['level,I,0'] } });
  const other = await ScriptedSatellite.connect(t, port);
  await eventually(() => other.received('BEGIN').length === 1, 'greeted');

  // The flooder: a peer of its own that sends and never reads a byte.
  const flooder = connect(port, '127.0.0.1');
  t.teardown(() => flooder.destroy());
  flooder.on('error', () => {});
  await new Promise((resolve) => flooder.once('connect', resolve));
  flooder.pause();
  flooder.write('ADD-DEVICE DEVICEID="x" PRODUCT_NAME="y" KEYS_TOTAL=128 KEYS_PER_ROW=16 BITMAPS=512 \n'.repeat(30));
  other.socket.write('PING 1\n');
  const written = fetch(`${base}/update?parameter=studio/level&value=7`);

  // What a user would notice: the other surface's ping goes unanswered and the write hangs
  // while the hub draws 3,840 keys of 512×512 (it took 2.3–2.5 s for 1,280 before the change).
  const asked = performance.now();
  await eventually(() => other.lines.includes('PONG 1'), 'the other satellite answered while the flooder waits', 3000);
  t.log(`the other satellite's PONG came after ${(performance.now() - asked).toFixed(0)} ms`);
  t.is((await written).status, 200);
  t.is(value(hub, 'studio/level'), 7, 'a write delivered meanwhile');
  await eventually(() => value(hub, 'desk/x/connected') === true, 'the flooder has its device');
  other.socket.write('PING 2\n');
  await eventually(() => other.lines.includes('PONG 2'), 'and still answered');
  const sent = Number(details(hub)['sent']);
  t.true(sent < 128, `drawn only as far as the flooder read: ${sent} key states of the 3,840 asked`);
});

test('a device id a live satellite holds is refused to any other, from its own address too, until it goes; the desk back on a new link once the old fell quiet has it (R-SU2)', async (t) => {
  const { hub, port } = await surface(t);
  const desk = await ScriptedSatellite.connect(t, port);
  desk.keepAlive();
  desk.addDevice('CL15K1A00001', 15, 5, 0);
  await eventually(() => desk.received('KEY-STATE').length === 15, 'the desk drawn');
  const by = hub.graph.get('desk/CL15K1A00001/connected')?.lastChange?.by;

  const intruder = await ScriptedSatellite.connect(t, port, '127.0.0.2');
  intruder.addDevice('CL15K1A00001', 15, 5, 0);
  await eventually(() => intruder.received('ADD-DEVICE').length === 1, 'answered');
  t.like(intruder.received('ADD-DEVICE')[0], { ERROR: '1', DEVICEID: 'CL15K1A00001' });
  t.regex(intruder.received('ADD-DEVICE')[0]?.['MESSAGE'] ?? '', /another satellite has this DEVICEID/);
  intruder.press('CL15K1A00001', 0, 1, true);
  desk.press('CL15K1A00001', 0, 2, true);
  await eventually(() => value(hub, 'desk/CL15K1A00001/key/2/pressed') === true, "the desk's press");
  t.is(value(hub, 'desk/CL15K1A00001/key/1/pressed'), false, "the intruder's press is not the desk's");
  t.is(hub.graph.get('desk/CL15K1A00001/connected')?.lastChange?.by, by, 'still the desk');
  t.is(intruder.received('KEY-STATE').length, 0, 'and it is shown nothing');
  t.is(dropped(hub)['taken'], 1);

  // From the desk's own machine while the desk answers: refused all the same.
  const neighbour = await ScriptedSatellite.connect(t, port);
  neighbour.addDevice('CL15K1A00001', 15, 5, 0);
  await eventually(() => neighbour.received('ADD-DEVICE').length === 1, 'answered');
  t.like(neighbour.received('ADD-DEVICE')[0], { ERROR: '1', DEVICEID: 'CL15K1A00001' });
  t.is(neighbour.received('KEY-STATE').length, 0, 'shown nothing');
  t.is(dropped(hub)['taken'], 2);
  neighbour.socket.destroy();

  // The desk's satellite lost its link (it answers no more) and comes back on a new one, from
  // its own address, before the hub has dropped the old one for silence: it has its device again.
  desk.keepAlive(false);
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS + 500));
  const back = await ScriptedSatellite.connect(t, port);
  back.addDevice('CL15K1A00001', 15, 5, 0);
  await eventually(() => back.received('KEY-STATE').length === 15, 'the desk back, drawn');
  t.like(back.received('ADD-DEVICE')[0], { OK: '1', DEVICEID: 'CL15K1A00001' });
  t.is(value(hub, 'desk/CL15K1A00001/key/2/pressed'), false, 'what the old link held let go');
  desk.socket.destroy();
  await eventually(() => Number(details(hub)['satellites']) === 2, 'the old link gone');
  t.is(value(hub, 'desk/CL15K1A00001/connected'), true, 'the new link keeps the device');

  back.socket.destroy();
  await eventually(() => value(hub, 'desk/CL15K1A00001/connected') === false, 'the desk gone');
  intruder.addDevice('CL15K1A00001', 15, 5, 0);
  await eventually(() => intruder.received('ADD-DEVICE').length === 2, 'answered');
  t.like(intruder.received('ADD-DEVICE')[1], { OK: '1', DEVICEID: 'CL15K1A00001' }, 'free once its satellite went');
});

test('links that add no device cannot hold every slot: the real desk gets in past maxClients idle ones, and keeps its slot (R-G4)', async (t) => {
  const { hub, port } = await surface(t, { maxClients: 8, maxClientsPerAddress: 2 });
  // Eight links from eight addresses that only answer pings.
  const idle = await Promise.all(
    Array.from({ length: 8 }, async (_, n) => {
      const link = await ScriptedSatellite.connect(t, port, `127.0.1.${n + 1}`);
      link.keepAlive();
      return link;
    }),
  );
  await eventually(() => idle.every((link) => link.received('BEGIN').length === 1), 'all eight greeted');

  const desk = await ScriptedSatellite.connect(t, port, '127.0.2.1');
  desk.keepAlive();
  desk.addDevice('deck', 6, 3, 0);
  await eventually(() => value(hub, 'desk/deck/connected') === true, 'the desk added its device');
  await eventually(() => idle.filter((link) => link.socket.closed).length === 1, 'the longest idle link gave up its slot');
  t.true(idle[0]?.socket.closed, 'the first to come');
  t.is(hub.connection('desk')?.info.details?.['yieldedClients'], 1);

  // More idle links come: each takes an idle one's slot, never the desk's.
  for (let n = 0; n < 10; n++) {
    const late = await ScriptedSatellite.connect(t, port, `127.0.3.${n + 1}`);
    late.keepAlive();
  }
  await eventually(() => Number(hub.connection('desk')?.info.details?.['yieldedClients']) === 11, 'eleven slots given up');
  t.false(desk.socket.closed, 'the desk keeps its slot');
  t.is(value(hub, 'desk/deck/connected'), true);
});

test('keys held when their satellite goes are released before its device goes: pressed false, a momentary target let go, for a close and a silence (R-SU2)', async (t) => {
  const { hub, port } = await surface(
    t,
    { timeout: 1000, keys: [{ device: 'deck', key: 3, target: 'studio/talk', press: 'momentary' }] },
    { studio: { type: 'dummy', parameters: ['talk,B,false'] } },
  );
  for (const leaves of ['closes', 'falls silent'] as const) {
    const deck = await ScriptedSatellite.connect(t, port);
    deck.addDevice('deck', 6, 3, 0);
    await eventually(() => value(hub, 'desk/deck/connected') === true, 'added');
    const seen: (Value | undefined)[] = [];
    const watching = hub.graph.watch('desk/deck/key/3/pressed').subscribe((each) => seen.push(each));
    deck.send('KEY-PRESS', 'deck', { KEY: 3, PRESSED: true });
    deck.send('KEY-PRESS', 'deck', { KEY: 4, PRESSED: true });
    await eventually(() => value(hub, 'studio/talk') === true, 'talking');
    if (leaves === 'closes') deck.socket.destroy();
    await eventually(() => value(hub, 'desk/deck/connected') === false, `the satellite ${leaves}`, 5000);
    watching.unsubscribe();
    t.is(value(hub, 'studio/talk'), false, `the momentary target let go when the satellite ${leaves}`);
    t.deepEqual(seen.slice(-2), [false, undefined], `key 3 released, then removed, when the satellite ${leaves}`);
    deck.socket.destroy();
  }
});

test('a flooding address fills neither every client slot nor, once it leaves, the device table: the real desk connects beside it and after it (R-G4)', async (t) => {
  const { hub, port } = await surface(t, { maxClients: 4, maxClientsPerAddress: 2, maxDevices: 8, maxDevicesPerClient: 2 });
  // Round after round the flooder comes with new device ids, and goes.
  const made: string[][] = [];
  for (let round = 0; round < 3; round++) {
    const peers = await Promise.all([0, 1, 2, 3].map(() => ScriptedSatellite.connect(t, port)));
    const closed = peers.map((peer) => new Promise((resolve) => peer.socket.once('close', resolve)));
    for (const [index, peer] of peers.entries())
      for (let device = 0; device < 4; device++) peer.addDevice(`f${round}-${index}-${device}`, 4, 2, 0);
    await eventually(
      () => peers.every((peer) => peer.socket.destroyed || peer.received('ADD-DEVICE').length === 4),
      'the flooders answered or closed',
    );
    const held = peers.filter((peer) => peer.received('ADD-DEVICE').some((answer) => answer['OK'] === '1'));
    t.true(held.length > 0 && held.length <= 2, `at most two satellites of one address (${held.length})`);
    for (const peer of held)
      t.is(peer.received('ADD-DEVICE').filter((answer) => answer['OK'] === '1').length, 2, 'two devices a satellite');
    made.push(
      held.flatMap((peer) => peer.received('ADD-DEVICE').flatMap((answer) => (answer['OK'] === '1' ? [answer['DEVICEID'] as string] : []))),
    );
    if (round < 2) {
      for (const peer of peers) peer.socket.destroy();
      await Promise.all(closed);
      await eventually(() => Number(details(hub)['satellites']) === 0, 'the flooders gone');
    }
  }
  // Each came before any added a device: the third and fourth took the slots of two that had added nothing yet, or were refused.
  t.true(
    Number(details(hub)['refusedClients']) + Number(details(hub)['yieldedClients']) >= 2,
    'the third and fourth satellite of the address refused, or given idle ones’ slots',
  );

  // The flooder still holds two satellites and four devices; the real desk comes from elsewhere.
  const desk = await ScriptedSatellite.connect(t, port, '127.0.0.2');
  desk.addDevice('CL15K1A00001', 15, 5, 0);
  await eventually(() => desk.received('ADD-DEVICE').length === 1, 'the desk answered');
  t.like(desk.received('ADD-DEVICE')[0], { OK: '1', DEVICEID: 'CL15K1A00001' }, 'the desk has its device');
  t.is(value(hub, 'desk/CL15K1A00001/connected'), true);
  const first = made[0] as string[];
  t.is(first.length, 4);
  for (const id of first) {
    t.is(hub.graph.get(`desk/${id}/connected`), undefined, `${id}, whose satellite went first, forgotten to make room`);
    t.is(hub.graph.get(`desk/${id}/key/0/color`), undefined, `${id}'s keys too`);
  }
  t.true((details(hub)['surfaces'] as unknown[]).length <= 8, 'the table within maxDevices');
});
