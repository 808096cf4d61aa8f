/**
 * The `videohub` package's breadth beside Companion's module (R-DV4): routing as a panel does
 * it (a route minding its lock, the source of another destination, the previous route; a
 * destination selected and a source routed to it or queued for a take), monitoring outputs,
 * serial ports, and locks written as the module writes them (toggle, force) — each a labelled
 * parameter (R-PK6), against videohub-server (npm; it records the routes it was commanded)
 * and the router scripted in spec/helpers, which echoes what changed as a real router does.
 */
import { createRequire } from 'node:module';
import test, { type ExecutionContext } from 'ava';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { eventually } from '../helpers/eventually.ts';
import type { HubProcess } from '../helpers/hub-process.ts';
import { connectionOf, hubWithPackage, update } from '../helpers/outside-package.ts';
import { freePort } from '../helpers/ports.ts';
import { controlPanel, ScriptedVideohub } from '../helpers/videohub-device.ts';

const require = createRequire(import.meta.url);
const VideohubServer = require('videohub-server') as new () => {
  start(host: string, port: number): void;
  destroy(): void;
  on(event: 'press', listener: (client: string, destination: number, source: number) => void): void;
};

const hubWith = async (t: ExecutionContext, settings: Record<string, unknown>) => {
  const hub = await hubWithPackage(t, 'videohub', { router: { type: 'videohub', host: '127.0.0.1', ...settings } });
  await eventually(async () => (await connectionOf(hub, 'router'))?.status === 'ok', 'the router connected', 20_000);
  return hub;
};

const meta = async (hub: HubProcess, address: string) =>
  ((await (await fetch(`${hub.base}/parameters?meta=1&filter=^${address}$`)).json()) as { meta?: ParameterMeta }[])[0]?.meta;

test.serial(
  'against videohub-server: a route minding its lock or not, the source of another destination, and a selected destination routed as on a panel (R-DV4)',
  async (t) => {
    await controlPanel(t);
    const port = await freePort();
    const router = new VideohubServer();
    const pressed: [number, number][] = [];
    router.on('press', (_client, destination, source) => pressed.push([destination, source]));
    router.start('127.0.0.1', port);
    t.teardown(() => router.destroy());
    const hub = await hubWith(t, { port });
    /** Writes `value` and says which routes the router was commanded by it. */
    const write = async (address: string, value: string) => {
      const before = pressed.length;
      const answer = await update(hub, address, value);
      return { answer, pressed: pressed.slice(before) };
    };

    // The destinations by name, as the module numbers them (R-PK6).
    t.like((await meta(hub, 'router/route'))?.arguments?.['destination']?.choices?.[3], { value: 3, label: 'Output 4: no label' });
    t.like(await meta(hub, 'router/selected/output'), { label: 'Selected destination' });
    t.deepEqual((await meta(hub, 'router/selected/input'))?.choices?.[40], { value: 40, label: 'Input 41: no label' });
    t.is((await meta(hub, 'router/route'))?.arguments?.['input']?.choices?.length, 41, "the router's inputs");
    t.deepEqual(await write('router/route', JSON.stringify({ destination: 5, input: 2 })), { answer: { status: 200 }, pressed: [[5, 2]] });
    t.is(await hub.read('router/output/5/input'), '2');
    t.deepEqual((await write('router/route', JSON.stringify({ destination: 6, from: 5 }))).pressed, [[6, 2]], "output 5's source");
    for (const refused of [
      { destination: 4 },
      { destination: 4, input: 1, from: 2 },
      { destination: 99, input: 1 },
      { destination: 4, input: 41 },
    ]) {
      const { answer, pressed: sent } = await write('router/route', JSON.stringify(refused));
      t.like(answer, { status: 400, code: 'PB_CONVERSION' }, JSON.stringify(refused));
      t.deepEqual(sent, []);
    }

    // A destination locked here: a route that minds the lock is refused and not sent, one that ignores it goes.
    t.deepEqual((await write('router/output/4/lock', 'O')).answer, { status: 200 });
    const minded = await write('router/route', JSON.stringify({ destination: 4, input: 1 }));
    t.like(minded.answer, { status: 409, code: 'VIDEOHUB_LOCKED' });
    t.true(minded.answer.message?.includes('Output 5'), minded.answer.message);
    t.deepEqual(minded.pressed, []);
    t.deepEqual((await write('router/route', JSON.stringify({ destination: 4, input: 1, ignoreLock: true }))).pressed, [[4, 1]]);

    // A panel: a destination selected, then a source for it.
    t.deepEqual((await write('router/selected/output', '3')).answer, { status: 200 });
    t.is(await hub.read('router/selected/input'), await hub.read('router/output/3/input'), "the selected destination's source");
    t.deepEqual(await write('router/selected/input', '7'), { answer: { status: 200 }, pressed: [[3, 7]] });
    t.is(await hub.read('router/selected/input'), '7');
    t.is(await hub.read('router/output/3/input'), '7');
    await write('router/selected/output', '4');
    t.is(await hub.read('router/selected/input'), '1', 'the source follows the selection');
    t.like((await write('router/selected/input', '2')).answer, { status: 409, code: 'VIDEOHUB_LOCKED' });
    t.deepEqual((await write('router/selected/forceInput', '2')).pressed, [[4, 2]]);
    t.like((await write('router/selected/output', '10')).answer, { status: 400 }, 'no eleventh destination');
    t.like((await write('router/take', 'true')).answer, { status: 400 }, 'nothing queued: take is off');
  },
);

test.serial(
  'monitoring outputs and serial ports, locks toggled and forced, the previous route, and a take: each what the router heard and told (R-DV4)',
  async (t) => {
    const router = new ScriptedVideohub(12, 8, 2, 4);
    router.monitorRoutes[1] = 9;
    const port = await router.start();
    t.teardown(() => router.stop());
    const hub = await hubWith(t, { port, take: true });
    const heard = (title: string) => router.heard.filter((block) => block.title === title).map((block) => block.lines.join(','));

    // Monitoring outputs: read, labelled by name, written; and told of by the router.
    t.is(await hub.read('router/monitor/1/input'), '9');
    t.is(await hub.read('router/monitor/0/label'), 'Loop 1');
    t.is(await hub.read('router/monitor/0/lock'), 'U');
    t.is((await meta(hub, 'router/monitor/1/input'))?.label, 'Monitor 2: Loop 2: source');
    t.deepEqual(await update(hub, 'router/monitor/0/input', '5'), { status: 200 });
    t.deepEqual(heard('VIDEO MONITORING OUTPUT ROUTING'), ['0 5']);
    t.is(router.monitorRoutes[0], 5);
    t.deepEqual(await update(hub, 'router/monitor/1/label', 'Scope'), { status: 200 });
    t.is(router.monitorLabels[1], 'Scope');
    await eventually(
      async () => (await meta(hub, 'router/route'))?.arguments?.['destination']?.choices?.[9]?.label === 'Monitor 2: Scope',
      'destination 9 named as the router renamed it',
    );
    t.deepEqual(await update(hub, 'router/route', JSON.stringify({ destination: 9, input: 3 })), { status: 200 });
    t.is(router.monitorRoutes[1], 3, 'destination 9 is the second monitoring output');
    router.say('VIDEO MONITORING OUTPUT ROUTING:\n1 11\n\n');
    await eventually(async () => (await hub.read('router/monitor/1/input')) === '11', 'a monitoring route changed at the router');

    // Serial ports: routed from each other, labelled, locked.
    t.is(await hub.read('router/serial/2/input'), '3');
    t.deepEqual((await meta(hub, 'router/serial/0/input'))?.choices?.[3], { value: 3, label: 'Serial 4: Deck 4' });
    t.deepEqual(await update(hub, 'router/serial/0/input', '3'), { status: 200 });
    t.deepEqual(await update(hub, 'router/serial/1/label', 'Replay'), { status: 200 });
    t.deepEqual(await update(hub, 'router/serial/route', JSON.stringify({ port: 2, input: 0 })), { status: 200 });
    t.deepEqual([router.serialRoutes[0], router.serialLabels[1], router.serialRoutes[2]], [3, 'Replay', 0]);
    t.like(await update(hub, 'router/serial/0/input', '4'), { status: 400 }, 'no fifth serial port');
    t.deepEqual(await update(hub, 'router/serial/3/lock', 'O'), { status: 200 });
    t.like(await update(hub, 'router/serial/route', JSON.stringify({ port: 3, input: 1 })), { status: 409, code: 'VIDEOHUB_LOCKED' });

    // Locks as the module writes them: toggle, force and lock, force and toggle.
    t.deepEqual(await update(hub, 'router/output/1/lock', 'T'), { status: 200 });
    t.is(router.locks[1], 'O');
    t.is(await hub.read('router/output/1/lock'), 'O');
    await update(hub, 'router/output/1/lock', 'T');
    t.is(router.locks[1], 'U', 'toggled back');
    t.deepEqual(await update(hub, 'router/output/2/lock', 'FO'), { status: 200 });
    t.deepEqual(heard('VIDEO OUTPUT LOCKS').slice(-2), ['2 F', '2 O'], 'forced, then locked: two commands');
    t.is(router.locks[2], 'O');
    router.say('VIDEO OUTPUT LOCKS:\n3 L\n\n');
    await eventually(async () => (await hub.read('router/output/3/lock')) === 'L', 'another panel locked output 4');
    t.like(await update(hub, 'router/route', JSON.stringify({ destination: 3, input: 1 })), { status: 409, code: 'VIDEOHUB_LOCKED' });
    t.deepEqual(await update(hub, 'router/output/3/lock', 'FT'), { status: 200 });
    t.deepEqual(heard('VIDEO OUTPUT LOCKS').at(-1), '3 F', "a toggle of another's lock, forced, unlocks it");
    t.is(await hub.read('router/output/3/lock'), 'U');
    t.deepEqual(await update(hub, 'router/monitor/0/lock', 'T'), { status: 200 });
    t.is(router.monitorLocks[0], 'O');

    // Back to the previous route, and the one before: as the router told them.
    await update(hub, 'router/output/5/input', '1');
    await update(hub, 'router/output/5/input', '2');
    await update(hub, 'router/output/5/input', '4');
    t.deepEqual(await update(hub, 'router/route', JSON.stringify({ destination: 5, previous: true })), { status: 200 });
    t.is(router.routes[5], 2);
    await eventually(async () => (await hub.read('router/output/5/input')) === '2', 'the echo');
    await update(hub, 'router/route', JSON.stringify({ destination: 5, previous: true }));
    t.is(router.routes[5], 1, 'and the one before');

    // Take: a source for the selected destination waits, shown, until taken or cleared.
    await update(hub, 'router/selected/output', '0');
    const routing = heard('VIDEO OUTPUT ROUTING').length;
    t.deepEqual(await update(hub, 'router/selected/input', '6'), { status: 200 });
    t.is(heard('VIDEO OUTPUT ROUTING').length, routing, 'queued, not sent');
    t.is(await hub.read('router/take/queued'), 'true');
    t.is(await hub.read('router/take/input'), '6');
    t.is(await hub.read('router/take/output'), '0');
    t.deepEqual(await update(hub, 'router/take', 'true'), { status: 200 });
    t.is(router.routes[0], 6);
    t.is(await hub.read('router/take/queued'), 'false');
    await eventually(async () => (await hub.read('router/selected/input')) === '6', 'the selected source is the one taken');
    await update(hub, 'router/selected/input', '7');
    t.deepEqual(await update(hub, 'router/take/clear', 'true'), { status: 200 });
    t.is(await hub.read('router/take/queued'), 'false');
    t.is(await hub.read('router/take/input'), '-1');
    t.like(await update(hub, 'router/take', 'true'), { status: 400 });
    t.is(router.routes[0], 6, 'nothing taken');
    // A take minds the lock of its destination, unless forced.
    await update(hub, 'router/selected/output', '2');
    await update(hub, 'router/selected/input', '8');
    t.like(await update(hub, 'router/take', 'true'), { status: 409, code: 'VIDEOHUB_LOCKED' });
    await update(hub, 'router/selected/input', '8');
    t.deepEqual(await update(hub, 'router/take/force', 'true'), { status: 200 });
    t.is(router.routes[2], 8);
  },
);
