import { spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { connect, type Server } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import type { Hub } from '../../../lib/hub/hub.ts';
import { eventually } from '../../helpers/eventually.ts';
import { freePort, serve } from '../../helpers/http.ts';
import { startHub } from '../../helpers/hub.ts';

// The peers: tsl-umd (a v3.1 receiver) and tsl-umd-v5 (v5.0 both ways), from npm.
const require = createRequire(import.meta.url);
const TslUmdV31Receiver = require('tsl-umd') as new (port: number) => import('node:events').EventEmitter & { server: Socket };
interface V5Tally {
  screen: number;
  index: number;
  display: { rh_tally: number; text_tally: number; lh_tally: number; brightness: number; text: string };
}
const TslUmdV5 = require('tsl-umd-v5') as new () => import('node:events').EventEmitter & {
  listenUDP(port: number): void;
  listenTCP(port: number): void;
  sendTallyUDP(ip: string, port: number, tally: object): void;
  sendTallyTCP(ip: string, port: number, tally: object): void;
};

/**
 * Runs `open` and returns what it made with `owner[name]`: tsl-umd-v5 keeps no handle on
 * the socket or server it listens with, and the spec must close it.
 */
function made<T>(owner: Record<string, unknown>, name: string, open: () => void): T {
  const original = owner[name] as (...args: unknown[]) => T;
  let handle: T | undefined;
  owner[name] = (...args: unknown[]) => (handle = original.apply(owner, args));
  try {
    open();
  } finally {
    owner[name] = original;
  }
  return handle as T;
}

interface V31Heard {
  address: number;
  brightness: number;
  tally1: number;
  tally2: number;
  tally3: number;
  tally4: number;
  label: string;
}

/** A v3.1 receiver of the tsl-umd package on a free port: what it heard, in order. */
async function v31Receiver(t: ExecutionContext): Promise<{ port: number; heard: V31Heard[] }> {
  const port = await freePort();
  // The package logs "server listening" on the console: quieted for the spec's output.
  const log = console.log;
  console.log = () => {};
  const receiver = new TslUmdV31Receiver(port);
  await new Promise((resolve) => receiver.server.once('listening', resolve));
  console.log = log;
  t.teardown(() => receiver.server.close());
  const heard: V31Heard[] = [];
  receiver.on('message', (message: V31Heard) => heard.push(message));
  return { port, heard };
}

async function write(base: string, address: string, value: string): Promise<number> {
  return (await fetch(`${base}/update?parameter=${address}&value=${encodeURIComponent(value)}`)).status;
}

const value = (hub: Hub, address: string) => hub.graph.get(address)?.value;

test('send v3.1: the tsl-umd receiver gets each listed display with its address, tally bits, brightness and text; one message for the changes of a turn (R-SU1)', async (t) => {
  const { port, heard } = await v31Receiver(t);
  const { hub, base } = await serve(
    t,
    {},
    { umd: { type: 'tsl-umd', version: '3.1', mode: 'send', host: '127.0.0.1', port, displays: [3, 126] } },
  );
  await eventually(() => heard.length === 2, 'each display once as the link comes up');
  t.deepEqual(
    heard.map((message) => [message.address, message.brightness, message.tally1, message.label]),
    [
      [3, 3, 0, ' '.repeat(16)],
      [126, 3, 0, ' '.repeat(16)],
    ],
    'at start, what the hub knows: tally off, full brightness, no text',
  );

  t.is(await write(base, 'umd/3/text', 'Camera 3'), 200);
  await eventually(() => heard.length === 3, 'a message for the text');
  t.like(heard[2], { address: 3, label: 'Camera 3        ', tally1: 0 });

  // Three changes in one turn: one message with all three.
  hub.graph.get('umd/126/tally/1')?.set(true);
  hub.graph.get('umd/126/tally/4')?.set(true);
  hub.graph.get('umd/126/brightness')?.set(1);
  await eventually(() => heard.length === 4, 'one message for the turn');
  t.like(heard[3], { address: 126, tally1: 1, tally2: 0, tally3: 0, tally4: 1, brightness: 1 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(heard.length, 4, 'no message more for the same turn');

  t.is(await write(base, 'umd/3/text', 'Kamera drei ünd more than 16'), 200);
  await eventually(() => heard.length === 5, 'the long text');
  t.is(heard[4]?.label, 'Kamera drei ?nd ', 'sixteen printable ASCII characters; others as "?"');
  t.is(await write(base, 'umd/3/brightness', '4'), 400, 'brightness is 0–3');
  t.is(value(hub, 'umd/3/brightness'), 3);
  t.is(value(hub, 'umd/3/text'), 'Kamera drei ünd more than 16', 'the parameter holds what was written');
});

test('receive v3.1: each display heard is shown read-only; malformed datagrams are counted, never an error (R-SU1, R-G4)', async (t) => {
  const port = await freePort();
  const { hub, base } = await serve(
    t,
    {},
    { tally: { type: 'tsl-umd', version: '3.1', mode: 'receive', port, bindIp: '127.0.0.1', displays: [0] } },
  );
  await eventually(() => hub.connection('tally')?.info.status === 'ok', 'listening');
  t.is(value(hub, 'tally/0/text'), '', 'a listed display is there before it is heard');
  const sender = createSocket('udp4');
  t.teardown(() => sender.close());
  // Address 5, tally 1 and 3, brightness 2, as the published format has it.
  const message = Buffer.alloc(18, 0x20);
  message[0] = 0x80 + 5;
  message[1] = 0b0010_0101;
  message.write('CAM 5', 2, 'latin1');
  sender.send(message, port, '127.0.0.1');
  await eventually(() => value(hub, 'tally/5/tally/1') === true, 'display 5');
  t.deepEqual(
    ['text', 'brightness', 'tally/1', 'tally/2', 'tally/3', 'tally/4'].map((field) => value(hub, `tally/5/${field}`)),
    ['CAM 5', 2, true, false, true, false],
  );
  t.regex(hub.graph.get('tally/5/text')?.lastChange?.by ?? '', /^tsl 127\.0\.0\.1:\d+$/, 'who changed it is the sender (R-O2)');
  t.is(await write(base, 'tally/5/tally/1', 'false'), 403, 'what is received is read-only');

  sender.send(Buffer.from([0x85, 0xff]), port, '127.0.0.1');
  sender.send(Buffer.concat([Buffer.from([0x05, 0x01]), Buffer.alloc(16, 0x41)]), port, '127.0.0.1');
  await eventually(() => hub.connection('tally')?.info.details?.['malformed'] === 2, 'both malformed datagrams counted');
  t.is(hub.connection('tally')?.info.status, 'ok');
  t.is(value(hub, 'tally/5/text'), 'CAM 5');
});

test('v5.0 over UDP with tsl-umd-v5, both ways: screen, index, the three tallies, brightness and text (R-SU1)', async (t) => {
  const [listenPort, peerPort] = [await freePort(), await freePort()];
  const peer = new TslUmdV5();
  const heard: V5Tally[] = [];
  peer.on('message', (message: V5Tally) => heard.push(message));
  const listening = made<Socket>(require('node:dgram'), 'createSocket', () => peer.listenUDP(peerPort));
  t.teardown(() => listening.close());
  const { hub } = await serve(
    t,
    {},
    {
      mixer: { type: 'tsl-umd', version: '5.0', mode: 'receive', port: listenPort, bindIp: '127.0.0.1' },
      lamps: { type: 'tsl-umd', version: '5.0', mode: 'send', host: '127.0.0.1', port: peerPort, displays: ['1/7'] },
    },
  );
  await eventually(() => hub.connection('mixer')?.info.status === 'ok', 'listening');

  peer.sendTallyUDP('127.0.0.1', listenPort, {
    screen: 2,
    index: 9,
    display: { rh_tally: 1, text_tally: 2, lh_tally: 3, brightness: 2, text: 'PGM' },
  });
  await eventually(() => value(hub, 'mixer/2/9/text') === 'PGM', 'the display the library sent');
  t.deepEqual(
    ['tally/rh', 'tally/text', 'tally/lh', 'brightness'].map((field) => value(hub, `mixer/2/9/${field}`)),
    [1, 2, 3, 2],
  );

  await eventually(() => heard.length >= 1, 'the listed display as the link comes up');
  hub.graph.get('lamps/1/7/tally/rh')?.set(1);
  hub.graph.get('lamps/1/7/tally/lh')?.set(2);
  hub.graph.get('lamps/1/7/text')?.set('CAM 7');
  await eventually(() => heard.some((message) => message.display.text === 'CAM 7'), 'the changes, in one message');
  const last = heard.at(-1) as V5Tally;
  t.is(last.screen, 1);
  t.is(last.index, 7);
  t.like(last.display, { rh_tally: 1, text_tally: 0, lh_tally: 2, brightness: 3, text: 'CAM 7' });
});

test('v5.0 over TCP with tsl-umd-v5, both ways: DLE/STX framing, packets split and joined, a DLE in the data doubled (R-SU1)', async (t) => {
  const [listenPort, peerPort] = [await freePort(), await freePort()];
  const peer = new TslUmdV5();
  const heard: V5Tally[] = [];
  peer.on('message', (message: V5Tally) => heard.push(message));
  const listening = made<Server>(require('node:net'), 'createServer', () => peer.listenTCP(peerPort));
  t.teardown(() => listening.close());
  const { hub } = await serve(
    t,
    {},
    {
      mixer: { type: 'tsl-umd', version: '5.0', mode: 'receive', transport: 'tcp', port: listenPort, bindIp: '127.0.0.1' },
      lamps: { type: 'tsl-umd', version: '5.0', mode: 'send', transport: 'tcp', host: '127.0.0.1', port: peerPort, displays: ['4/3'] },
    },
  );
  await eventually(() => hub.connection('lamps')?.info.status === 'ok' && hub.connection('mixer')?.info.status === 'ok', 'both up');
  await eventually(() => heard.length >= 1, 'the display as the link comes up');
  t.like(heard[0], { screen: 4, index: 3 });

  peer.sendTallyTCP('127.0.0.1', listenPort, {
    screen: 0,
    index: 254,
    display: { rh_tally: 2, text_tally: 0, lh_tally: 0, brightness: 1, text: 'ISO' },
  });
  await eventually(() => value(hub, 'mixer/0/254/text') === 'ISO', 'the display the library sent over TCP');
  t.is(value(hub, 'mixer/0/254/tally/rh'), 2);
  t.is(value(hub, 'mixer/0/254/brightness'), 1);

  // Two packets in one write, and one split across writes: read by their byte count.
  const raw = connect(listenPort, '127.0.0.1');
  t.teardown(() => raw.destroy());
  await new Promise((resolve) => raw.once('connect', resolve));
  const packet = (index: number, text: string) => {
    const body = Buffer.from(text, 'latin1');
    const bytes = Buffer.alloc(12 + body.length);
    bytes.writeUInt16LE(10 + body.length, 0);
    bytes.writeUInt16LE(0, 4);
    bytes.writeUInt16LE(index, 6);
    bytes.writeUInt16LE(0b01, 8);
    bytes.writeUInt16LE(body.length, 10);
    body.copy(bytes, 12);
    return Buffer.concat([Buffer.from([0xfe, 0x02]), bytes]);
  };
  // Index 254 is 0x00FE, a DLE inside the packet: sent twice. (tsl-umd-v5 1.0.7 takes both
  // away when it reads, so it is not the peer for this.)
  const stuffed = Buffer.concat([Buffer.from([0xfe, 0x02]), packet(254, 'DLE').subarray(2)]);
  const doubled = Buffer.from([...stuffed].flatMap((byte, at) => (at >= 2 && byte === 0xfe ? [0xfe, 0xfe] : [byte])));
  const both = Buffer.concat([packet(1, 'ONE'), packet(2, 'TWO'), doubled, packet(3, 'THREE')]);
  raw.write(both.subarray(0, 30));
  await new Promise((resolve) => setTimeout(resolve, 50));
  raw.write(both.subarray(30));
  await eventually(() => value(hub, 'mixer/0/3/text') === 'THREE', 'the third, split across writes');
  t.deepEqual([value(hub, 'mixer/0/1/text'), value(hub, 'mixer/0/2/text'), value(hub, 'mixer/0/254/text')], ['ONE', 'TWO', 'DLE']);
  t.is(hub.connection('mixer')?.info.details?.['malformed'], 0);
});

test('receive v5.0: UTF-16LE text when flagged, 0xFFFF index reaches the displays of its screen, control messages are skipped (R-SU1)', async (t) => {
  const port = await freePort();
  const { hub } = await serve(
    t,
    {},
    { umd: { type: 'tsl-umd', version: '5.0', mode: 'receive', port, bindIp: '127.0.0.1', displays: ['1/1', '1/2', '2/1'] } },
  );
  await eventually(() => hub.connection('umd')?.info.status === 'ok', 'listening');
  const sender = createSocket('udp4');
  t.teardown(() => sender.close());
  const packet = (flags: number, screen: number, index: number, control: number, text: Buffer) => {
    const bytes = Buffer.alloc(12 + text.length);
    bytes.writeUInt16LE(10 + text.length, 0);
    bytes[3] = flags;
    bytes.writeUInt16LE(screen, 4);
    bytes.writeUInt16LE(index, 6);
    bytes.writeUInt16LE(control, 8);
    bytes.writeUInt16LE(text.length, 10);
    text.copy(bytes, 12);
    return bytes;
  };
  sender.send(packet(1, 1, 1, 0, Buffer.from('Kamera 1 – Süd', 'utf16le')), port, '127.0.0.1');
  await eventually(() => value(hub, 'umd/1/1/text') === 'Kamera 1 – Süd', 'UTF-16 text');
  sender.send(packet(0, 1, 0xffff, 0b11, Buffer.from('ALL')), port, '127.0.0.1');
  await eventually(() => value(hub, 'umd/1/2/text') === 'ALL', 'every index of screen 1');
  t.is(value(hub, 'umd/1/1/tally/rh'), 3);
  t.is(value(hub, 'umd/2/1/text'), '', 'not screen 2');
  sender.send(packet(0, 2, 1, 0x8000, Buffer.from('CTRL')), port, '127.0.0.1');
  sender.send(packet(0, 2, 1, 0b10, Buffer.from('after')), port, '127.0.0.1');
  await eventually(() => value(hub, 'umd/2/1/text') === 'after', 'the display message after a control message');
});

test('settings are checked with their paths: display forms per version, tcp only for v5.0, what send needs', (t) => {
  const mistakes = (settings: object) => {
    const result = validateFlow({ connections: { umd: { type: 'tsl-umd', ...settings } } }, '/virtual/flow.json5');
    return result.ok ? [] : result.issues.map(formatIssue);
  };
  t.deepEqual(mistakes({ version: '3.1', mode: 'send', host: '10.0.0.5', port: 4000, displays: [0, 126] }), []);
  t.deepEqual(mistakes({ version: '3.1', mode: 'send', host: '', port: 0, displays: [127, '1/2'], transport: 'tcp', repeat: 10 }), [
    'connections.umd.displays[0]: expected a v3.1 display address, 0–126',
    'connections.umd.displays[1]: expected a v3.1 display address, 0–126',
    'connections.umd.transport: v3.1 travels over UDP only; tcp needs version "5.0"',
    'connections.umd.host: expected the device to send to',
    "connections.umd.port: expected the device's port",
    'connections.umd.repeat: at least 50 ms, or 0 for no repeats',
  ]);
  t.deepEqual(mistakes({ version: '5.0', mode: 'receive', port: 8900, host: 'mixer.local', displays: ['1/1', '01/1', '65535/0', 3] }), [
    'connections.umd.displays[2]: expected a v5.0 display as "<screen>/<index>", each 0–65534',
    'connections.umd.displays[3]: expected a v5.0 display as "<screen>/<index>", each 0–65534',
    'connections.umd.displays: each display once',
    'connections.umd.host: expected the IP address of the only sender taken, or "" for every sender',
  ]);
});

test('a flood of 100,000 datagrams of random bytes: the hub answers throughout, and each connection counts what it dropped (R-G4)', async (t) => {
  const [v31Port, v5Port] = [await freePort(), await freePort()];
  const { hub, base } = await serve(
    t,
    {},
    {
      v31: { type: 'tsl-umd', version: '3.1', mode: 'receive', port: v31Port, bindIp: '127.0.0.1', maxDisplays: 10 },
      v5: { type: 'tsl-umd', version: '5.0', mode: 'receive', port: v5Port, bindIp: '127.0.0.1' },
    },
  );
  await eventually(() => hub.connection('v31')?.info.status === 'ok' && hub.connection('v5')?.info.status === 'ok', 'listening');
  const healthz = async () => {
    const started = performance.now();
    t.is((await fetch(`${base}/healthz`)).status, 200);
    return performance.now() - started;
  };
  const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
  const quiet: number[] = [];
  for (let i = 0; i < 20; i++) quiet.push(await healthz());

  // The sender is a process of its own, so that it does not share the hub's event loop; 25 a
  // millisecond (some 20,000 a second) floods the connection without starving the specs beside it.
  const sender = spawn(
    process.execPath,
    [
      '-e',
      `const s = require('node:dgram').createSocket('udp4'); const { randomBytes } = require('node:crypto');
       let left = 100000;
       const burst = () => { for (let i = 0; i < 25 && left > 0; i++, left--) {
         const v31 = left % 2 === 0; const bytes = randomBytes(v31 ? 18 : 1 + (left % 64));
         s.send(bytes, v31 ? ${v31Port} : ${v5Port}, '127.0.0.1'); }
         if (left > 0) setTimeout(burst, 1); else setTimeout(() => s.close(), 100); };
       burst();`,
    ],
    { stdio: 'inherit' },
  );
  t.teardown(() => sender.kill());
  const flooded: number[] = [];
  const ended = new Promise((resolve) => sender.once('exit', resolve));
  let running = true;
  void ended.then(() => (running = false));
  // A request every few milliseconds: enough to see a stall, without loading the machine itself.
  while (running) {
    flooded.push(await healthz());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  t.log(
    `/healthz median during the flood ${median(flooded).toFixed(1)} ms, before it ${median(quiet).toFixed(1)} ms (${flooded.length} requests)`,
  );

  const details = (id: string) => hub.connection(id)?.info.details ?? {};
  await eventually(
    () => Number(details('v5')['malformed']) > 10_000,
    () => `v5 malformed counted: ${JSON.stringify(details('v5'))}`,
  );
  t.true(Number(details('v31')['malformed']) > 10_000, 'most random 18-byte datagrams are not v3.1 messages');
  t.is(details('v31')['displays'], 10, 'at most maxDisplays displays made');
  t.true(((details('v31')['dropped'] as Record<string, number>)['displays'] ?? 0) > 0, 'the displays past the bound counted');
  t.is(hub.connection('v31')?.info.status, 'degraded');
  // Some 10,000 datagrams a second each: past the 5,000 taken, the rest dropped and said.
  t.regex(hub.connection('v31')?.info.reason ?? '', /more than maxDisplays \(10\)|more than 5000 datagrams a second/);
  const dropped = (id: string) => (details(id)['dropped'] as Record<string, number>)['datagrams'] ?? 0;
  t.true(dropped('v31') > 0 && dropped('v5') > 0, 'datagrams past the rate dropped and counted');
  const v5 = hub.connection('v5')?.info;
  t.true(
    v5?.status === 'ok' || /more than 5000 datagrams a second/.test(v5?.reason ?? ''),
    'malformed packets are counted, never an error',
  );
});

test('receive: displays a flooder made give their place, once not heard for forgetAfter, to the mixer heard after; listed displays stay (R-SU1, R-G4)', async (t) => {
  const port = await freePort();
  const { hub } = await serve(
    t,
    {},
    {
      tally: {
        type: 'tsl-umd',
        version: '3.1',
        mode: 'receive',
        port,
        bindIp: '127.0.0.1',
        displays: [0],
        maxDisplays: 4,
        forgetAfter: 1000,
      },
    },
  );
  await eventually(() => hub.connection('tally')?.info.status === 'ok', 'listening');
  const sender = createSocket('udp4');
  t.teardown(() => sender.close());
  const v31 = (address: number, text: string) => {
    const message = Buffer.alloc(18, 0x20);
    message[0] = 0x80 + address;
    message[1] = 0b0011_0001;
    message.write(text, 2, 'latin1');
    return message;
  };
  // The flooder: ten displays the mixer does not have, once each; three find room.
  for (let address = 100; address < 110; address++) sender.send(v31(address, `X${address}`), port, '127.0.0.1');
  await eventually(() => value(hub, 'tally/102/text') === 'X102', 'the flood shown as far as maxDisplays');
  t.is(hub.graph.get('tally/103/text'), undefined, 'no more');

  // The mixer says what display 5 shows, again and again as tally sources do.
  const repeating = setInterval(() => sender.send(v31(5, 'CAM 5'), port, '127.0.0.1'), 100);
  t.teardown(() => clearInterval(repeating));
  await eventually(() => value(hub, 'tally/5/text') === 'CAM 5', "the mixer's display, once the flooder's were quiet for forgetAfter");
  clearInterval(repeating);
  t.is(hub.graph.get('tally/100/text'), undefined, 'the display heard longest ago gave its place');
  t.is(value(hub, 'tally/0/text'), '', 'a listed display is never given away');
  t.true(Number(hub.connection('tally')?.info.details?.['displays']) <= 4, 'within maxDisplays');
});

test('receive: a sender naming thousands of displays again and again cannot keep another source out; each gets its share of maxDisplays (R-SU1, R-G4)', async (t) => {
  const port = await freePort();
  const { hub } = await serve(
    t,
    {},
    { tally: { type: 'tsl-umd', version: '3.1', mode: 'receive', port, bindIp: '127.0.0.1', maxDisplays: 20 } },
  );
  await eventually(() => hub.connection('tally')?.info.status === 'ok', 'listening');
  const from = async (address: string) => {
    const socket = createSocket('udp4');
    t.teardown(() => socket.close());
    await new Promise<void>((resolve) => socket.bind(0, address, resolve));
    return socket;
  };
  const [flooder, mixer] = [await from('127.0.0.2'), await from('127.0.0.3')];
  const v31 = (address: number, text: string) => {
    const message = Buffer.alloc(18, 0x20);
    message[0] = 0x80 + address;
    message.write(text, 2, 'latin1');
    return message;
  };
  // The flooder names every address it can, over and over: the table is full of displays it keeps fresh.
  const flood = setInterval(() => {
    for (let address = 0; address < 100; address++) flooder.send(v31(address, `X${address}`), port, '127.0.0.1');
  }, 20);
  t.teardown(() => clearInterval(flood));
  await eventually(() => Number(hub.connection('tally')?.info.details?.['displays']) === 20, 'the table full');
  // The mixer names its five cameras.
  const cameras = setInterval(() => {
    for (let camera = 101; camera <= 105; camera++) mixer.send(v31(camera, `CAM ${camera - 100}`), port, '127.0.0.1');
  }, 50);
  t.teardown(() => clearInterval(cameras));
  await eventually(
    () => [101, 102, 103, 104, 105].every((camera) => value(hub, `tally/${camera}/text`) === `CAM ${camera - 100}`),
    "every camera of the mixer's shown beside the flood",
    10_000,
  );
  t.true(Number(hub.connection('tally')?.info.details?.['displays']) <= 20, 'within maxDisplays');
});

test('receive v5.0 over TCP: senders that send half a packet and wait cannot hold every slot; the tally source gets in (R-G4)', async (t) => {
  const port = await freePort();
  const { hub } = await serve(
    t,
    {},
    { tally: { type: 'tsl-umd', version: '5.0', mode: 'receive', transport: 'tcp', port, bindIp: '127.0.0.1', maxClients: 4 } },
  );
  await eventually(() => hub.connection('tally')?.info.status === 'ok', 'listening');
  const idle = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const socket = connect(port, '127.0.0.1');
      t.teardown(() => socket.destroy());
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(Buffer.from([0x10, 0x02, 0x20, 0x00])); // DLE/STX and a packet's first bytes, never the rest
      return socket;
    }),
  );
  await eventually(() => Number(hub.connection('tally')?.info.details?.['clients']) === 4, 'every slot held');

  const source = new TslUmdV5();
  source.sendTallyTCP('127.0.0.1', port, {
    screen: 1,
    index: 3,
    display: { rh_tally: 1, text_tally: 0, lh_tally: 0, brightness: 3, text: 'CAM 3' },
  });
  await eventually(
    () => value(hub, 'tally/1/3/text') === 'CAM 3',
    () => `the tally source shown (${JSON.stringify(hub.connection('tally')?.info)})`,
  );
  t.true(
    idle.some((socket) => socket.destroyed || socket.closed),
    'a half-packet sender gave up its slot',
  );
  t.true(Number(hub.connection('tally')?.info.details?.['yieldedClients']) >= 1);
});

test('send: a lamp a rule lights and puts out in one turn ends out, on the display as in the hub (the last value of a turn is sent, not a passing one)', async (t) => {
  const peerPort = await freePort();
  const peer = new TslUmdV5();
  const heard: V5Tally[] = [];
  peer.on('message', (message: V5Tally) => heard.push(message));
  const listening = made<Socket>(require('node:dgram'), 'createSocket', () => peer.listenUDP(peerPort));
  t.teardown(() => listening.close());
  const hub = await startHub(t, {
    connections: {
      mixer: { type: 'dummy', parameters: ['preview,B,false', 'program,B,false'] },
      lamps: { type: 'tsl-umd', version: '5.0', mode: 'send', host: '127.0.0.1', port: peerPort, displays: ['0/1'] },
    },
    rules: [{ source: 'mixer/preview', destinations: ['lamps/0/1/tally/rh'], pipe: [{ map: { true: 2, false: 0 } }] }],
  });
  await eventually(() => heard.length >= 1, 'the display as the link comes up');
  // A cut as a mixer may tell it: the camera shown on preview for a moment, then on air, in one turn.
  hub.graph.get('mixer/preview')?.set(true);
  hub.graph.get('mixer/program')?.set(true);
  hub.graph.get('mixer/preview')?.set(false);
  // A later turn's message, to know the display has heard all there is.
  await new Promise((resolve) => setImmediate(resolve));
  hub.graph.get('lamps/0/1/text')?.set('CAM 1');
  await eventually(() => heard.at(-1)?.display.text === 'CAM 1', 'the next message');
  // Before, the 0 was taken for an echo of the 0 the lamp held while the 2 was on its way, and the lamp stayed green.
  t.is(value(hub, 'lamps/0/1/tally/rh'), 0);
  t.is(heard.at(-1)?.display.rh_tally, 0);
});
