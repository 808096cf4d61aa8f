import { spawn } from 'node:child_process';
import test from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import { eventually } from '../../helpers/eventually.ts';
import { dropped, ScriptedSatellite, surface, value } from './scripted-satellite.ts';

test('a satellite is greeted with an API it accepts, adds a Stream Deck, and gets every key drawn at the size it asked (R-SU2)', async (t) => {
  const { hub, port } = await surface(t);
  const deck = await ScriptedSatellite.connect(t, port);
  await eventually(() => deck.received('BEGIN').length === 1, 'greeted');
  const begin = deck.received('BEGIN')[0] as Record<string, string>;
  const [major, minor] = (begin['ApiVersion'] ?? '').split('.').map(Number);
  t.true(major === 1 && (minor as number) >= 7, `API ${begin['ApiVersion']}: the client refuses below 1.7.0`);

  deck.addDevice('CL15K1A00001', 15, 5, 72);
  await eventually(
    () => deck.received('KEY-STATE').length === 15,
    () => `15 keys drawn, got ${deck.received('KEY-STATE').length}`,
  );
  t.deepEqual(deck.received('ADD-DEVICE')[0], { OK: '1', DEVICEID: 'CL15K1A00001' });
  t.like(deck.received('BRIGHTNESS')[0], { DEVICEID: 'CL15K1A00001', VALUE: '100' });
  const first = deck.received('KEY-STATE')[0] as Record<string, string>;
  t.like(first, { DEVICEID: 'CL15K1A00001', KEY: '0', TYPE: 'BUTTON', COLOR: '#000000' });
  t.is(Buffer.from(first['BITMAP'] ?? '', 'base64').length, 72 * 72 * 3, 'an RGB bitmap of 72×72');
  t.is(value(hub, 'desk/CL15K1A00001/connected'), true);
  t.is(value(hub, 'desk/CL15K1A00001/key/14/pressed'), false);
  t.is(hub.graph.get('desk/CL15K1A00001/key/15/pressed'), undefined, 'keys as KEYS_TOTAL counts them');
});

test('presses are parameters (a write of one is a press); key colour, text and brightness written are sent, one message for a turn, bad values refused (R-SU2)', async (t) => {
  const { hub, base, port } = await surface(t);
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 32, 8, 0);
  await eventually(() => deck.received('KEY-STATE').length === 32, 'drawn');

  deck.press('deck', 1, 2, true);
  await eventually(() => value(hub, 'desk/deck/key/10/pressed') === true, 'row 1, column 2 is key 10');
  t.regex(hub.graph.get('desk/deck/key/10/pressed')?.lastChange?.by ?? '', /^satellite 127\.0\.0\.1:\d+ deck key 10$/);
  deck.press('deck', 1, 2, false);
  await eventually(() => value(hub, 'desk/deck/key/10/pressed') === false, 'released');
  deck.send('KEY-PRESS', 'deck', { KEY: 4, PRESSED: true });
  await eventually(() => value(hub, 'desk/deck/key/4/pressed') === true, 'KEY as an index, as older clients send it');

  const before = deck.received('KEY-STATE').length;
  hub.graph.get('desk/deck/key/5/color')?.set('#00FF00');
  hub.graph.get('desk/deck/key/5/text')?.set('CAM 2 "live"');
  await eventually(() => deck.received('KEY-STATE').length === before + 1, 'one message');
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(deck.received('KEY-STATE').length, before + 1, 'and no more');
  const state = deck.received('KEY-STATE').at(-1) as Record<string, string>;
  t.like(state, { KEY: '5', COLOR: '#00ff00', TEXTCOLOR: '#ffffff' });
  t.is(Buffer.from(state['TEXT'] ?? '', 'base64').toString(), 'CAM 2 "live"');

  t.is((await fetch(`${base}/update?parameter=desk/deck/key/5/color&value=red`)).status, 400, 'a colour is #rrggbb');
  t.is((await fetch(`${base}/update?parameter=desk/deck/brightness&value=30`)).status, 200);
  await eventually(() => deck.received('BRIGHTNESS').some((message) => message['VALUE'] === '30'), 'brightness sent');
  t.is((await fetch(`${base}/update?parameter=desk/deck/brightness&value=101`)).status, 400);
  t.is(
    (await fetch(`${base}/update?parameter=desk/deck/key/5/pressed&value=true`)).status,
    200,
    "a write of pressed presses the key (the console's press)",
  );
  t.true(value(hub, 'desk/deck/key/5/pressed'));
  t.is((await fetch(`${base}/update?parameter=desk/deck/key/5/pressed&value=false`)).status, 200, 'and lets go of it');
  t.false(value(hub, 'desk/deck/key/5/pressed'));
});

test('each press is answered as Companion answers it: KEY-PRESS OK, or KEY-PRESS ERROR saying why; a command the hub does not know is an ERROR (R-SU2)', async (t) => {
  const { hub, port } = await surface(t);
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 15, 5, 0);
  await eventually(() => deck.received('KEY-STATE').length === 15, 'drawn');

  deck.press('deck', 0, 1, true);
  await eventually(() => deck.received('KEY-PRESS').length === 1, 'the press answered');
  t.deepEqual(deck.received('KEY-PRESS')[0], { OK: '1', DEVICEID: 'deck' });
  t.is(value(hub, 'desk/deck/key/1/pressed'), true);

  deck.press('elsewhere', 0, 1, true);
  deck.send('KEY-PRESS', 'deck', { KEY: 99, PRESSED: true });
  deck.send('KEY-PRESS', 'deck', { PRESSED: true });
  deck.send('JUGGLE', 'deck', {});
  await eventually(() => deck.received('KEY-PRESS').length === 4 && deck.received('ERROR').length === 1, 'every line answered');
  t.deepEqual(deck.received('KEY-PRESS').slice(1), [
    { ERROR: '1', DEVICEID: 'elsewhere', MESSAGE: 'Device not found' },
    { ERROR: '1', DEVICEID: 'deck', MESSAGE: 'Invalid KEY' },
    { ERROR: '1', DEVICEID: 'deck', MESSAGE: 'Missing KEY' },
  ]);
  t.deepEqual(deck.received('ERROR'), [{ MESSAGE: 'Unknown command: JUGGLE' }]);
});

test('keys bound in the flow: colour follows the parameter, a press toggles it, and the look is kept while the device is away (R-SU2)', async (t) => {
  const { hub, port } = await surface(
    t,
    { keys: [{ device: 'deck', key: 0, show: 'studio/onair', on: '#e00000', off: '#202020', text: 'ON AIR', press: 'toggle' }] },
    { studio: { type: 'dummy', parameters: ['onair,B,false'] } },
  );
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 15, 5, 72);
  await eventually(() => deck.received('KEY-STATE').length === 15, 'drawn');
  const key0 = () => deck.received('KEY-STATE').filter((message) => message['KEY'] === '0');
  t.like(key0()[0], { COLOR: '#202020' });
  t.is(Buffer.from(key0()[0]?.['TEXT'] ?? '', 'base64').toString(), 'ON AIR');

  deck.press('deck', 0, 0, true);
  await eventually(() => value(hub, 'studio/onair') === true, 'the press toggled it');
  deck.press('deck', 0, 0, false);
  await eventually(() => key0().at(-1)?.['COLOR'] === '#e00000', 'the key shows it');
  t.is(value(hub, 'desk/deck/key/0/color'), '#e00000');
  // The bitmap: red around the edge, white pixels of the text inside.
  const bitmap = Buffer.from(key0().at(-1)?.['BITMAP'] ?? '', 'base64');
  const pixel = (x: number, y: number) => [...bitmap.subarray((y * 72 + x) * 3, (y * 72 + x) * 3 + 3)];
  t.deepEqual(pixel(1, 1), [0xe0, 0, 0]);
  let white = 0;
  for (let at = 0; at < bitmap.length; at += 3) if (bitmap[at] === 255 && bitmap[at + 1] === 255 && bitmap[at + 2] === 255) white++;
  t.true(white > 50, `the text drawn in white (${white} pixels)`);

  deck.send('REMOVE-DEVICE', 'deck', {});
  await eventually(() => value(hub, 'desk/deck/connected') === false, 'gone');
  t.is(hub.graph.get('desk/deck/key/0/pressed'), undefined, 'nothing to press while it is away');
  hub.graph.get('studio/onair')?.set(false);
  await eventually(() => value(hub, 'desk/deck/key/0/color') === '#202020', 'the look follows while away');
  const sent = deck.received('KEY-STATE').length;
  deck.addDevice('deck', 15, 5, 72);
  const drawnAgain = () =>
    new Set(
      deck
        .received('KEY-STATE')
        .slice(sent)
        .map((message) => message['KEY']),
    ).size;
  await eventually(
    () => drawnAgain() === 15,
    () => `drawn again: ${drawnAgain()} keys`,
  );
  t.like(
    deck
      .received('KEY-STATE')
      .filter((message) => message['KEY'] === '0')
      .at(-1),
    { COLOR: '#202020' },
  );
});

test('a key designed in the flow: its text shows values live, it lights on a value of a parameter, and a press sets its target to a value (R-ST4)', async (t) => {
  const { hub, port } = await surface(
    t,
    {
      keys: [
        {
          device: 'deck',
          key: 2,
          text: 'OUT 1\n$(router/output/1)',
          show: 'router/output/1',
          is: 3,
          on: '#00a000',
          off: '#202020',
          press: 'set',
          target: 'router/output/1',
          value: 3,
        },
      ],
    },
    { router: { type: 'dummy', parameters: ['output/1,I,1'] } },
  );
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 15, 5, 72);
  const key2 = () => deck.received('KEY-STATE').filter((message) => message['KEY'] === '2');
  const text = () => Buffer.from(key2().at(-1)?.['TEXT'] ?? '', 'base64').toString();
  await eventually(
    () => text() === 'OUT 1\n1',
    () => `the value in the text: ${JSON.stringify(text())}`,
  );
  t.like(key2().at(-1), { COLOR: '#202020' });

  deck.press('deck', 0, 2, true);
  deck.press('deck', 0, 2, false);
  await eventually(() => value(hub, 'router/output/1') === 3, 'the press set the output to input 3');
  await eventually(() => key2().at(-1)?.['COLOR'] === '#00a000' && text() === 'OUT 1\n3', 'lit, and the text follows');
  hub.graph.get('router/output/1')?.set(4);
  await eventually(() => key2().at(-1)?.['COLOR'] === '#202020' && text() === 'OUT 1\n4', 'off again on another input');
});

test('pings are answered and sent; a silent satellite is dropped after timeout and its devices go (R-SU2)', async (t) => {
  // Pings go every second: a timeout of 2.5 s sees one or two sent before the silent satellite is dropped, however late a tick runs.
  const { hub, port } = await surface(t, { timeout: 2500 });
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 6, 3, 0);
  deck.socket.write('PING 12345\n');
  await eventually(() => deck.lines.includes('PONG 12345'), 'answered');
  await eventually(() => deck.received('PING').length > 0, 'pinged by the hub', 5000);
  const closed = new Promise((resolve) => deck.socket.once('close', resolve));
  await closed;
  await eventually(() => value(hub, 'desk/deck/connected') === false, 'its device gone');
  t.is(hub.connection('desk')?.info.details?.['silent'], 1);
});

test('a satellite that speaks is not pinged: its every line is answered, so none waits on an acknowledgement the hub delays (R-SU2)', async (t) => {
  const { port } = await surface(t, {});
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 6, 3, 0);
  // As Companion Satellite does: a PING every 100 ms, answered with a PONG.
  for (let n = 0; n < 30; n++) {
    deck.socket.write(`PING ${n}\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.true(deck.lines.includes('PONG 29'), 'its pings answered');
  t.deepEqual(deck.received('PING'), [], 'three seconds heard from every 100 ms: no ping of the hub, whose PONG nothing would answer');
});

test('hostile satellites: a 10 MB line and 10,000 devices are refused past their bounds; the hub answers throughout (R-G4)', async (t) => {
  const { hub, base, port } = await surface(t, { maxDevices: 4 });
  const healthz = async () => {
    const started = performance.now();
    t.is((await fetch(`${base}/healthz`)).status, 200);
    return performance.now() - started;
  };
  const quiet: number[] = [];
  for (let i = 0; i < 10; i++) quiet.push(await healthz());

  // The flooding satellite is a process of its own, so that only the hub shares this event loop.
  const flooder = spawn(
    process.execPath,
    [
      '-e',
      `const socket = require('node:net').connect(${port}, '127.0.0.1');
       let text = '', ok = 0, refused = 0, told = false;
       socket.on('connect', () => socket.write(Array.from({ length: 10000 }, (_, i) => 'ADD-DEVICE DEVICEID="d' + i + '" KEYS_TOTAL=32 KEYS_PER_ROW=8 BITMAPS=0 \\n').join('')));
       socket.setEncoding('utf8');
       socket.on('data', (chunk) => {
         text += chunk;
         const lines = text.split('\\n'); text = lines.pop();
         for (const line of lines) { if (line.startsWith('ADD-DEVICE OK')) ok++; else if (line.startsWith('ADD-DEVICE ERROR')) refused++; }
         // Once: the hub's pings may come after the last answer.
         if (ok + refused === 10000 && !told) { told = true; console.log(JSON.stringify({ ok, refused })); socket.end(); }
       });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  t.teardown(() => flooder.kill());
  let answers = '';
  flooder.stdout.on('data', (chunk: Buffer) => (answers += chunk.toString()));
  const ended = new Promise((resolve) => flooder.once('exit', resolve));
  let running = true;
  void ended.then(() => (running = false));
  const during: number[] = [];
  while (running) {
    during.push(await healthz());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  t.deepEqual(JSON.parse(answers), { ok: 4, refused: 9996 }, 'maxDevices taken, the rest refused');
  t.truthy(hub.graph.get('desk/d3/connected'), 'the first four made');
  t.is(hub.graph.get('desk/d4/connected'), undefined, 'no more');
  t.is(dropped(hub)['devices'], 9996);
  t.regex(hub.connection('desk')?.info.reason ?? '', /more than maxDevices \(4\)/);

  const long = await ScriptedSatellite.connect(t, port);
  const closed = new Promise((resolve) => long.socket.once('close', resolve));
  long.socket.write(Buffer.alloc(10 * 1024 * 1024, 0x41));
  await closed;
  t.is(dropped(hub)['lines'], 1);
  const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
  t.log(`/healthz median while 10,000 devices were refused ${median(during).toFixed(1)} ms, before ${median(quiet).toFixed(1)} ms`);
  await healthz();
});

test("a key's text may be an expression, as Companion's: it shows the expression's value live, over raw values (R-RS2)", async (t) => {
  const { hub, port } = await surface(
    t,
    {
      keys: [
        {
          device: 'deck',
          key: 2,
          text: "$(router/output/1) == 3 ? 'LIVE' : 'CAM ' + $(router/output/1) + ' · ' + round($(mixer/level) * 100) + '%'",
          textExpression: true,
        },
        { device: 'deck', key: 3, text: "'1/' + round(1 / $(mixer/level))", textExpression: true },
      ],
    },
    { router: { type: 'dummy', parameters: ['output/1,I,1'] }, mixer: { type: 'dummy', parameters: ['level,F'] } },
  );
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 15, 5, 72);
  const text = () =>
    Buffer.from(
      deck
        .received('KEY-STATE')
        .filter((message) => message['KEY'] === '2')
        .at(-1)?.['TEXT'] ?? '',
      'base64',
    ).toString();
  await eventually(
    () => text() === '–',
    () => `unknown while a value it reads is: ${JSON.stringify(text())}`,
  );
  hub.graph.get('mixer/level')?.set(0.456);
  await eventually(
    () => text() === 'CAM 1 · 46%',
    () => `its value: ${JSON.stringify(text())}`,
  );
  hub.graph.get('router/output/1')?.set(3);
  await eventually(
    () => text() === 'LIVE',
    () => `live: ${JSON.stringify(text())}`,
  );
  // A value it cannot make a text of (a division by zero) shows `!`, and is a problem of the key until it can again.
  const key3 = () =>
    Buffer.from(
      deck
        .received('KEY-STATE')
        .filter((message) => message['KEY'] === '3')
        .at(-1)?.['TEXT'] ?? '',
      'base64',
    ).toString();
  await eventually(
    () => key3() === '1/2',
    () => `1/0.456: ${JSON.stringify(key3())}`,
  );
  hub.graph.get('mixer/level')?.set(0);
  await eventually(
    () => key3() === '!',
    () => `failed: ${JSON.stringify(key3())}`,
  );
  t.like(
    hub.problems().find((problem) => problem.part === 'key text deck/3'),
    { source: 'connection', id: 'desk', code: 'PB_CONVERSION' },
  );
  hub.graph.get('mixer/level')?.set(0.5);
  await eventually(
    () => key3() === '1/2',
    () => `again: ${JSON.stringify(key3())}`,
  );
  t.is(
    hub.problems().find((problem) => problem.part === 'key text deck/3'),
    undefined,
  );
});

test('satellite settings are checked with their paths', (t) => {
  const result = validateFlow(
    {
      connections: {
        desk: {
          type: 'satellite',
          keys: [
            { device: 'd', key: 0, press: 'toggle' },
            { device: 'd', key: 1, show: 'onair', on: 'red' },
            { device: 'd', key: 1, text: 'again' },
            { device: 'd', key: 2, press: 'set', target: 'router/output/1' },
            { device: 'd', key: 3, text: "$(router/output/1) == 3 ? 'LIVE' :", textExpression: true },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  t.deepEqual(result.ok ? [] : result.issues.map(formatIssue), [
    'connections.desk.keys[1].on: expected a colour as #rrggbb, as #e00000 for red',
    'connections.desk.keys[0].press: a press needs a parameter: `target`, or `show`',
    'connections.desk.keys[1].show: expected a parameter address, <connection>/<parameter>',
    'connections.desk.keys[2].key: key 1 of d is bound twice',
    'connections.desk.keys[3].value: a press that sets its target needs the value it sets',
    'connections.desk.keys[4].text: not an expression: column 35: Expected expression',
  ]);
});
