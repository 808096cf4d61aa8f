/**
 * The `videohub` package (packages/videohub), installed in a studio folder and run by a hub
 * process, against two routers:
 *
 * - videohub-server (npm, written for Blackmagic's control panels): its state dump on
 *   connect, its `ACK` of every block and of `PING:`, and the routes it was commanded (its
 *   `press` events). It calls every client back on TCP 9991 and drops the client when no
 *   panel answers there, so the spec answers as a panel; it neither keeps nor echoes routes.
 * - `ScriptedVideohub` (spec/helpers): route and label echoes, partial updates, `NAK`, an
 *   answer that never comes, a router of 288×288, state cut into pieces.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import WebSocket from 'ws';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { eventually } from '../helpers/eventually.ts';
import { bin, type HubProcess } from '../helpers/hub-process.ts';
import { connectionOf, hubWithPackage, studioWith, update } from '../helpers/outside-package.ts';
import { freePort } from '../helpers/ports.ts';
import { controlPanel, ScriptedVideohub } from '../helpers/videohub-device.ts';

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const VideohubServer = require('videohub-server') as new () => {
  start(host: string, port: number): void;
  destroy(): void;
  on(event: 'press', listener: (client: string, destination: number, source: number) => void): void;
  on(event: 'debug', listener: (...args: unknown[]) => void): void;
};

/** Runs a hub of one `videohub` connection `router` with `settings`, the package installed beside it. */
const hubWith = (t: ExecutionContext, settings: Record<string, unknown>) =>
  hubWithPackage(t, 'videohub', { router: { type: 'videohub', host: '127.0.0.1', ...settings } });

const connection = async (hub: HubProcess) => (await connectionOf(hub, 'router')) ?? { status: 'missing', reason: '' };

test.serial(
  'against videohub-server: its state is read, a route written is acknowledged, and the router heard it (R-PK2, R-G1)',
  async (t) => {
    await controlPanel(t);
    const port = await freePort();
    const router = new VideohubServer();
    const pressed: [number, number][] = [];
    const pings: unknown[] = [];
    router.on('press', (_client, destination, source) => pressed.push([destination, source]));
    router.on('debug', (...args) => {
      if (Array.isArray(args[1]) && args[1][0] === 'PING:') pings.push(args[1]);
    });
    router.start('127.0.0.1', port);
    t.teardown(() => router.destroy());
    const hub = await hubWith(t, { port, ping: 1000 });
    await eventually(async () => (await connection(hub)).status === 'ok', 'the router connected', 20_000);
    // videohub-server says 41 inputs and 10 outputs (its "Video inputs" line lacks its line break).
    t.is(await hub.read('router/device/model'), 'Virtual Videohub');
    t.is(await hub.read('router/output/9/input'), '40');
    t.is(await hub.read('router/input/40/label'), 'no label');
    t.is(await hub.read('router/output/0/lock'), 'U');
    t.is(await hub.read('router/output/10/input'), 'HTTP 404', 'no eleventh output');
    t.deepEqual(await update(hub, 'router/output/3/input', '7'), { status: 200 });
    t.deepEqual(pressed, [[3, 7]], 'videohub-server was commanded output 3 ← input 7');
    t.is(await hub.read('router/output/3/input'), '7', 'taken on its ACK (videohub-server echoes nothing)');
    t.like(await update(hub, 'router/output/3/input', '41'), { status: 400, code: 'PB_CONVERSION' }, 'no input 41');
    await eventually(() => pings.length > 0, 'a ping on the quiet link', 5000);
    t.is((await connection(hub)).status, 'ok', 'the ping was answered');
  },
);

test.serial(
  'a router of 288×288 is read whole, however its state is cut; echoes and partial updates change only what they say',
  async (t) => {
    const router = new ScriptedVideohub(288, 288);
    router.pieceBytes = 7;
    router.routes[287] = 5;
    router.inputLabels[12] = 'Studio B Cam 3';
    router.outputLabels[12] = 'Transmission';
    const port = await router.start();
    t.teardown(() => router.stop());
    const hub = await hubWith(t, { port });
    await eventually(async () => (await connection(hub)).status === 'ok', 'the router connected', 20_000);
    t.is(await hub.read('router/output/287/input'), '5');
    t.is(await hub.read('router/output/0/input'), '0');
    t.is(await hub.read('router/input/12/label'), 'Studio B Cam 3', "an input's label");
    t.is(await hub.read('router/output/12/label'), 'Transmission', "an output's label, told apart");
    t.is(await hub.read('router/input/287/label'), 'Camera 288');
    t.is(await hub.read('router/device/name'), 'Spec Router');
    // The router changes two routes of its own (another panel), and says only those.
    router.say('VIDEO OUTPUT ROUTING:\n4 200\n250 17\n\n');
    await eventually(async () => (await hub.read('router/output/250/input')) === '17', 'the partial update');
    t.is(await hub.read('router/output/4/input'), '200');
    t.is(await hub.read('router/output/5/input'), '5', 'the others as they were');
    // Lines ending in CR LF, and a character of two bytes cut between two pieces of 7.
    // A route says what it is (R-PK6): its output by name, the router's inputs by name as its choices, numbered from 1.
    const meta = async (address: string) => {
      const listed = (await (await fetch(`${hub.base}/parameters?meta=1&filter=^${address}$`)).json()) as { meta?: ParameterMeta }[];
      return listed[0]?.meta;
    };
    const route = await meta('router/output/12/input');
    t.is(route?.label, 'Output 13: Transmission: source');
    t.is(route?.choices?.length, 288);
    t.deepEqual(route?.choices?.[12], { value: 12, label: 'Input 13: Studio B Cam 3' });
    router.say('INPUT LABELS:\r\n5 Kamera 2 Süd\r\n\r\n');
    await eventually(async () => (await hub.read('router/input/5/label')) === 'Kamera 2 Süd', 'the label in CR LF lines');
    await eventually(
      async () => (await meta('router/output/0/input'))?.choices?.[5]?.label === 'Input 6: Kamera 2 Süd',
      'the new name among the choices of every route',
    );
    t.like(await update(hub, 'router/output/3/input', '288'), { status: 400, code: 'PB_CONVERSION' }, 'no input 289');
    // A write: answered once the router acknowledged it, and the echo agrees.
    t.deepEqual(await update(hub, 'router/input/3/label', 'Graphics 2'), { status: 200 });
    t.is(router.inputLabels[3], 'Graphics 2');
    t.is(await hub.read('router/input/3/label'), 'Graphics 2');
    t.is(await hub.read('router/output/3/label'), 'Monitor 4', 'the output of the same number is another label');
  },
);

test.serial(
  'routes written together go to the router in blocks of many; a NAK refuses them, and an answer that never comes times out',
  async (t) => {
    const router = new ScriptedVideohub(40, 40);
    const port = await router.start();
    t.teardown(() => router.stop());
    const hub = await hubWith(t, { port, timeout: 1500, inputs: 40, outputs: 40 });
    await eventually(async () => (await connection(hub)).status === 'ok', 'the router connected', 20_000);
    // A salvo: forty routes in one WebSocket batch.
    const socket = new WebSocket(`ws://127.0.0.1:${hub.port}/ws?filter=%5E%24`);
    await once(socket, 'open');
    socket.send(JSON.stringify(Array.from({ length: 40 }, (_, n) => ({ p: `router/output/${n}/input`, v: 39 - n }))));
    await eventually(
      async () => (await hub.read('router/output/0/input')) === '39' && (await hub.read('router/output/39/input')) === '0',
      'the salvo taken',
    );
    socket.close();
    const routing = router.heard.filter((block) => block.title === 'VIDEO OUTPUT ROUTING');
    // The writes reach the connection's process as they come through its pipe: a turn's in one block.
    t.true(routing.length < 20, `the salvo in ${routing.length} blocks, not a block a route`);
    t.is(routing.flatMap((block) => block.lines).length, 40);

    router.answer = 'NAK';
    t.like(await update(hub, 'router/output/1/input', '9'), { status: 502, code: 'VIDEOHUB_NAK' });
    t.is(await hub.read('router/output/1/input'), '38', 'a refused route is not shown');
    router.answer = 'none';
    t.like(await update(hub, 'router/output/1/input', '9'), { status: 504, code: 'PB_DEVICE_TIMEOUT' });
    // Answers match commands by their order: after one that never came the link starts again.
    await eventually(async () => /no answer to a command within 1500 ms/.test((await connection(hub)).reason ?? ''), 'the link closed');
    router.answer = 'ACK';
    await eventually(async () => (await connection(hub)).status === 'ok', 'connected again', 20_000);
    router.answerDelayMs = 200;
    const started = Date.now();
    t.deepEqual(await update(hub, 'router/output/2/lock', 'O'), { status: 200 });
    t.true(Date.now() - started >= 150, 'answered when the router answered, not before');
    t.is(router.locks[2], 'O');
    t.is(await hub.read('router/output/2/lock'), 'O');
    t.like(await update(hub, 'router/output/2/lock', 'yes'), { status: 400, code: 'PB_CONVERSION' });
    t.like(await update(hub, 'router/output/2/label', 'two\nlines'), { status: 400, code: 'PB_CONVERSION' });
    t.like(await update(hub, 'router/output/2/label', 'L'.repeat(256)), { status: 400, code: 'PB_CONVERSION' }, 'a label over 255 bytes');
    // A label too long for a line, set by another panel: skipped, and the link stays up.
    router.say(`OUTPUT LABELS:\n2 ${'L'.repeat(1100)}\n3 Studio 3\n\n`);
    await eventually(async () => (await hub.read('router/output/3/label')) === 'Studio 3', 'the rest of the block read');
    t.is((await connection(hub)).status, 'ok');
  },
);

test.serial(
  'a router that goes, lies or floods: writes refused while it is away, the link cut on a runaway block, and back by itself',
  async (t) => {
    const router = new ScriptedVideohub(8, 8);
    const port = await router.start();
    const hub = await hubWith(t, { port, inputs: 8, outputs: 8 });
    await eventually(async () => (await connection(hub)).status === 'ok', 'the router connected', 20_000);
    await router.stop();
    await eventually(async () => (await connection(hub)).status === 'degraded', 'the router gone');
    t.like(await update(hub, 'router/output/1/input', '2'), { status: 503, code: 'PB_DEVICE_UNAVAILABLE' });
    t.is(await hub.read('router/output/1/input'), '1', 'the last routes known stay readable');

    // Back on the same port: something that is not a Videohub, then one that never ends a block.
    const impostor = new ScriptedVideohub(8, 8);
    impostor.greeting = 'HELLO FROM A PRINTER\n';
    await impostor.start(port);
    await eventually(async () => /sent no state/.test((await connection(hub)).reason ?? ''), 'not a Videohub', 20_000);
    await impostor.stop();
    const flood = new ScriptedVideohub(8, 8);
    flood.greeting = `INPUT LABELS:\n0 ${'x'.repeat(300_000)}`;
    await flood.start(port);
    await eventually(async () => /without ending a block/.test((await connection(hub)).reason ?? ''), 'the runaway block cut', 20_000);
    await flood.stop();

    const back = new ScriptedVideohub(8, 8);
    back.routes[1] = 6;
    await back.start(port);
    t.teardown(() => back.stop());
    await eventually(async () => (await connection(hub)).status === 'ok', 'back', 20_000);
    t.is(await hub.read('router/output/1/input'), '6', 'its state read again on the new connect');
    t.deepEqual(await update(hub, 'router/output/1/input', '2'), { status: 200 });
  },
);

test('patchbay reference prints the reference page of a package type from its schema, for its README (R-PK3)', async (t) => {
  const studio = await studioWith('videohub');
  await writeFile(join(studio, 'flow.json5'), JSON.stringify({ plugins: ['patchbay-videohub'], connections: {} }));
  const { stdout } = await run(process.execPath, [bin, 'reference', 'flow.json5'], { cwd: studio });
  t.true(stdout.startsWith('# `videohub` — A Blackmagic Videohub router'), stdout);
  t.true(
    stdout.includes(
      'From the package `patchbay-videohub` 1.0.0, not built in: install it beside the hub (`npm install` its packed `.tgz`, its folder, or `patchbay-videohub` where it is published)',
    ),
  );
  t.true(stdout.includes('| `ping` | integer | `10000` | 0–3600000 | Milliseconds between pings of a quiet link;'), stdout);
  t.true(stdout.includes('| `host` | string | required | not empty |'));
  t.true(stdout.includes("Settings (`type: 'videohub'`), besides the common ones of every connection"), stdout);
  // Its parameters and its own codes (R-PK6, R-PK8), from what the type declares.
  t.true(
    stdout.includes('| `output/<n>/input` | I | read-write | the input routed to output n, from 0 (choices: the inputs by name) |'),
    stdout,
  );
  t.true(stdout.includes('| `VIDEOHUB_NAK` | 502 |'), stdout);
  await writeFile(join(studio, 'none.json5'), JSON.stringify({ connections: {} }));
  const refused = await run(process.execPath, [bin, 'reference', 'none.json5'], { cwd: studio }).catch(
    (error: { code: number; stderr: string }) => error,
  );
  t.like(refused, {
    code: 2,
    stderr:
      'none.json5: its plugins bring no connection types, and none of its connections knows settings of its own here (a Companion module connection does once it ran with this state folder)\n',
  });
});
