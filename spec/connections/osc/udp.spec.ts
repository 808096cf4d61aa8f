import { createSocket } from 'node:dgram';
import test from 'ava';
import type { Hub } from '../../../lib/hub/hub.ts';
import type { SetResult } from '../../../lib/core/parameter.ts';
import { eventually } from '../../helpers/eventually.ts';
import { param, startHub } from '../../helpers/hub.ts';
import { bundle, canRunLiblo, libloMessage, oscsend, oscsendBundle, sendDatagram, startDump, whyNoLiblo } from '../../helpers/liblo.ts';
import { freePort } from '../../helpers/ports.ts';

const liblo = canRunLiblo ? test : test.skip;

const mixer = [
  { id: 'fader', address: '/ch/01/mix/fader', type: 'F' },
  { id: 'on', address: '/ch/01/mix/on', type: 'B' },
  { id: 'name', address: '/ch/01/config/name', type: 'S' },
  { id: 'scene', address: '/scene/current', type: 'I' },
  { id: 'go', address: '/cue/go', type: 'T' },
  { id: 'meter', address: '/meters/1', type: 'F', access: 'read-only' },
  { id: 'tally', address: '/tally', type: 'B', access: 'write-only' },
];

async function oscHub(t: Parameters<typeof startHub>[0], settings: object = {}) {
  const hub = await startHub(t, {
    connections: { osc: { type: 'osc', port: 0, bindIp: '127.0.0.1', addresses: mixer, ...settings } },
  });
  const info = hub.connection('osc')?.info;
  if (info?.status !== 'ok') throw new Error(`osc did not start: ${info?.status} ${info?.reason}`);
  return { hub, port: info.details?.['port'] as number };
}

/** Writes through the parameter and resolves with the answer the writer gets once the socket took it (or refused). */
function write(hub: Hub, address: string, value: unknown): Promise<SetResult> {
  return new Promise((resolve) => {
    const taken = param(hub, address).set(value, 'spec', resolve);
    if (!taken.ok) resolve(taken);
  });
}

liblo(`messages from oscsend set the listed parameters from their first argument, each as its type${whyNoLiblo}`, async (t) => {
  const { hub, port } = await oscHub(t);
  await oscsend(port, '/ch/01/mix/fader', 'f', '0.75');
  await oscsend(port, '/ch/01/mix/on', 'T');
  await oscsend(port, '/ch/01/config/name', 's', 'Vocals');
  await oscsend(port, '/scene/current', 'i', '12');
  await oscsend(port, '/meters/1', 'f', '0.1');
  await eventually(() => param(hub, 'osc/meter').value === 0.1, 'the meter');
  t.is(param(hub, 'osc/fader').value, 0.75);
  t.is(param(hub, 'osc/on').value, true);
  t.is(param(hub, 'osc/name').value, 'Vocals');
  t.is(param(hub, 'osc/scene').value, 12);
});

liblo(
  `an argument of another type is converted as any write is (R-C), and one that does not convert changes nothing${whyNoLiblo}`,
  async (t) => {
    const { hub, port } = await oscHub(t);
    await oscsend(port, '/scene/current', 'f', '3.9');
    await oscsend(port, '/ch/01/mix/fader', 's', '0.25');
    await oscsend(port, '/ch/01/mix/on', 'i', '1');
    await eventually(() => param(hub, 'osc/on').value === true, 'the switch');
    t.is(param(hub, 'osc/scene').value, 3);
    t.is(param(hub, 'osc/fader').value, 0.25);
    await oscsend(port, '/ch/01/mix/fader', 's', 'loud');
    await oscsend(port, '/ch/01/mix/fader', 'f', '0.5');
    await eventually(() => param(hub, 'osc/fader').value === 0.5, 'the next fader value');
    t.like(hub.connection('osc')?.info.details, { dropped: { unconverted: 1 } });
  },
);

liblo(`a message without an argument fires a trigger${whyNoLiblo}`, async (t) => {
  const { hub, port } = await oscHub(t);
  let fired = 0;
  const subscription = param(hub, 'osc/go').changes$.subscribe(() => fired++);
  t.teardown(() => subscription.unsubscribe());
  await oscsend(port, '/cue/go');
  await oscsend(port, '/cue/go');
  await eventually(() => fired === 2, 'two fires');
  t.pass();
});

liblo(`writes reach oscdump as one message typed by the parameter, and the written value is the parameter's${whyNoLiblo}`, async (t) => {
  const dumpPort = await freePort();
  const dump = await startDump(t, String(dumpPort));
  const { hub } = await oscHub(t, { host: '127.0.0.1', sendPort: dumpPort });
  t.deepEqual(await write(hub, 'osc/fader', '0.5'), { ok: true, value: true });
  await write(hub, 'osc/on', false);
  await write(hub, 'osc/name', 'Lead vocal');
  await write(hub, 'osc/scene', 7.9);
  await write(hub, 'osc/go', true);
  await write(hub, 'osc/tally', 'on');
  await dump.until((line) => line.startsWith('/tally'), 'the tally');
  t.deepEqual(
    dump.lines.filter((line) => !line.startsWith('/patchbay/probe')),
    [
      '/ch/01/mix/fader f 0.500000',
      '/ch/01/mix/on F #F',
      '/ch/01/config/name s "Lead vocal"',
      '/scene/current i 7',
      '/cue/go ',
      '/tally T #T',
    ],
  );
  t.is(param(hub, 'osc/fader').value, 0.5);
  t.is(param(hub, 'osc/tally').value, true);
});

liblo(`a read-only address refuses writes, and a write-only one ignores what comes in${whyNoLiblo}`, async (t) => {
  const { hub, port } = await oscHub(t);
  const refused = param(hub, 'osc/meter').set(0.5, 'spec');
  t.is(refused.ok ? '' : refused.error.code, 'PB_READ_ONLY');
  await oscsend(port, '/tally', 'T');
  await oscsend(port, '/ch/01/mix/on', 'T');
  await eventually(() => param(hub, 'osc/on').value === true, 'the next message');
  t.is(param(hub, 'osc/tally').value, undefined);
});

liblo(`a value OSC cannot carry is refused with its reason, and nothing is sent${whyNoLiblo}`, async (t) => {
  const { hub } = await oscHub(t, { host: '127.0.0.1', sendPort: await freePort() });
  const answer = await write(hub, 'osc/scene', 2 ** 40);
  t.false(answer.ok);
  t.regex(answer.ok ? '' : answer.error.message, /32-bit/);
  t.is(param(hub, 'osc/scene').value, undefined);
  t.is(hub.connection('osc')?.info.details?.['sent'], 0);
});

liblo(`without a host, writes go back to where the latest message came from${whyNoLiblo}`, async (t) => {
  const { hub, port } = await oscHub(t);
  const before = await write(hub, 'osc/fader', 0.5);
  t.is(before.ok ? '' : before.error.code, 'PB_DEVICE_UNAVAILABLE', 'nobody was heard yet');
  // A surface that listens on the port it sends from, as mixers' remote apps do.
  const surface = createSocket('udp4');
  t.teardown(() => surface.close());
  const heard: Buffer[] = [];
  surface.on('message', (message) => heard.push(message));
  await new Promise<void>((resolve) => surface.bind(0, '127.0.0.1', resolve));
  surface.send(libloMessage('/ch/01/mix/on', 'T'), port, '127.0.0.1');
  await eventually(() => param(hub, 'osc/on').value === true, 'the message');
  await write(hub, 'osc/fader', 0.25);
  await eventually(() => heard.length === 1, 'the write at the surface');
  t.deepEqual(heard[0], libloMessage('/ch/01/mix/fader', 'f', '0.25'));
});

liblo(`a bundle from oscsendfile applies its messages in order${whyNoLiblo}`, async (t) => {
  const { hub, port } = await oscHub(t);
  const seen: unknown[] = [];
  const subscription = param(hub, 'osc/scene').changes$.subscribe((value) => seen.push(value));
  t.teardown(() => subscription.unsubscribe());
  await oscsendBundle(port, ['/scene/current i 1', '/ch/01/mix/fader f 0.5', '/scene/current i 2', '/scene/current i 3']);
  await eventually(() => seen.length === 3, 'three scenes');
  t.deepEqual(seen, [1, 2, 3]);
  t.is(param(hub, 'osc/fader').value, 0.5);
});

liblo(`nested bundles of liblo's messages apply depth-first, in order${whyNoLiblo}`, async (t) => {
  const { hub, port } = await oscHub(t);
  const seen: unknown[] = [];
  const subscription = param(hub, 'osc/scene').changes$.subscribe((value) => seen.push(value));
  t.teardown(() => subscription.unsubscribe());
  const inner = bundle(libloMessage('/scene/current', 'i', '2'), libloMessage('/scene/current', 'i', '3'));
  const outer = bundle(libloMessage('/scene/current', 'i', '1'), inner, libloMessage('/scene/current', 'i', '4'));
  await sendDatagram(port, outer);
  await eventually(() => seen.length === 4, 'four scenes');
  t.deepEqual(seen, [1, 2, 3, 4]);
});
