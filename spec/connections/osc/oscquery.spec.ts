import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { decode } from 'node-osc';
import { DiscoveredService } from 'oscquery';
import WebSocket from 'ws';
import { eventually } from '../../helpers/eventually.ts';
import { param, startHub } from '../../helpers/hub.ts';
import { serve } from '../../helpers/http.ts';
import { canRunLiblo, oscsend, whyNoLiblo } from '../../helpers/liblo.ts';

const liblo = canRunLiblo ? test : test.skip;

const studio = {
  type: 'dummy',
  parameters: ['level,I,3', 'gain,F,0.5', 'title,S,Morning', 'onair,B,true', 'cue,T', 'note,S'],
};

/** A hub with a rest-api (for GET /parameters), a dummy, and an osc connection serving OSCQuery. */
async function oscQueryHub(t: Parameters<typeof serve>[0], oscQuery: object = {}) {
  const served = await serve(
    t,
    {},
    {
      studio,
      backstage: { type: 'dummy', parameters: ['hidden,S,secret'] },
      desk: {
        type: 'osc',
        port: 0,
        bindIp: '127.0.0.1',
        addresses: [{ id: 'meter', address: '/meter', type: 'F', access: 'read-only' }],
        oscQuery: { port: 0, expose: ['studio/#', 'desk/#'], write: ['studio/#', 'desk/#'], ...oscQuery },
      },
    },
  );
  const info = served.hub.connection('desk')?.info;
  if (info?.status !== 'ok') throw new Error(`osc did not start: ${info?.status} ${info?.reason}`);
  const details = info.details as { port: number; oscQuery: { port: number } };
  return { ...served, oscPort: details.port, queryPort: details.oscQuery.port };
}

const accessOf = { 'read-only': 1, 'write-only': 2, 'read-write': 3 } as const;
const tagOf = { S: 's', I: 'i', F: 'f', B: 'T', T: 'N' } as const;

test('the oscquery client reads a namespace whose types, values and access are those of GET /parameters, for the exposed parameters alone (R-DS2)', async (t) => {
  const { base, queryPort, oscPort, hub } = await oscQueryHub(t);
  param(hub, 'desk/meter').set(0.25);
  const service = new DiscoveredService('127.0.0.1', queryPort);
  await service.update();
  t.like(service.hostInfo, { oscPort, oscTransport: 'UDP' });
  t.true(service.hostInfo.extensions?.['LISTEN']);
  const listed = (await (await fetch(`${base}/parameters`)).json()) as {
    p: string;
    type: keyof typeof tagOf;
    access: keyof typeof accessOf;
    v?: unknown;
  }[];
  const exposed = listed.filter(({ p }) => p.startsWith('studio/') || p.startsWith('desk/'));
  t.is(exposed.length, 7);
  const methods = new Map(service.flat().map((method) => [method.full_path, method]));
  t.deepEqual([...methods.keys()].sort(), exposed.map(({ p }) => `/${p}`).sort(), 'the exposed parameters, nothing of backstage');
  for (const { p, type, access, v } of exposed) {
    const method = methods.get(`/${p}`);
    t.is(method?.access, accessOf[access], `${p} access`);
    t.is(method?.arguments?.[0]?.type as string | undefined, tagOf[type], `${p} type`);
    t.is(method?.arguments?.[0]?.value, type === 'T' ? undefined : v, `${p} value`);
  }
  // One attribute of one node, as OSCQuery asks for it.
  t.deepEqual(await (await fetch(`http://127.0.0.1:${queryPort}/studio/title?VALUE`)).json(), { VALUE: ['Morning'] });
  t.is((await fetch(`http://127.0.0.1:${queryPort}/backstage/hidden`)).status, 404);
});

test('a LISTEN over the WebSocket gets each change as an OSC message, trigger fires too, until IGNORE (R-DS2)', async (t) => {
  const { hub, queryPort } = await oscQueryHub(t);
  const socket = new WebSocket(`ws://127.0.0.1:${queryPort}`);
  t.teardown(() => socket.terminate());
  const received: { address: string; args: { value: unknown }[] }[] = [];
  socket.on('message', (data: Buffer) => received.push(decode(data) as never));
  await new Promise((resolve) => socket.once('open', resolve));
  for (const path of ['/studio/level', '/studio/cue', '/backstage/hidden']) socket.send(JSON.stringify({ COMMAND: 'LISTEN', DATA: path }));
  await eventually(async () => {
    param(hub, 'studio/level').set(Number(param(hub, 'studio/level').value) + 1);
    return received.length > 0;
  }, 'the first change');
  param(hub, 'studio/cue').set(true);
  param(hub, 'backstage/hidden').set('still secret');
  await eventually(() => received.some((m) => m.address === '/studio/cue'), 'the fire');
  t.like(received[0], { address: '/studio/level' });
  const levels = received.filter((m) => m.address === '/studio/level');
  t.is(levels.at(-1)?.args[0]?.value, param(hub, 'studio/level').value, 'the value, as an OSC int');
  t.deepEqual(received.find((m) => m.address === '/studio/cue')?.args, [], 'a fire: a message without arguments');
  t.false(
    received.some((m) => m.address.startsWith('/backstage')),
    'nothing it does not expose',
  );
  socket.send(JSON.stringify({ COMMAND: 'IGNORE', DATA: '/studio/level' }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = received.length;
  param(hub, 'studio/level').set(100);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(received.length, before);
});

liblo(
  `an OSC message to /<address> on the connection's port writes the parameter, where oscQuery.write lets it and the parameter takes writes (R-DS2)${whyNoLiblo}`,
  async (t) => {
    const { hub, oscPort } = await oscQueryHub(t, { write: ['studio/level', 'studio/onair', 'desk/#'] });
    await oscsend(oscPort, '/studio/level', 'i', '42');
    await oscsend(oscPort, '/studio/onair', 'F');
    await eventually(() => param(hub, 'studio/onair').value === false, 'the write');
    t.is(param(hub, 'studio/level').value, 42);
    t.regex(param(hub, 'studio/level').lastChange?.by ?? '', /^osc 127\.0\.0\.1:\d+$/, 'a hub write, from the sender');
    // Not in write, read-only, not exposed: nothing changes.
    await oscsend(oscPort, '/studio/title', 's', 'Hijacked');
    await oscsend(oscPort, '/desk/meter', 'f', '0.9');
    await oscsend(oscPort, '/backstage/hidden', 's', 'Hijacked');
    await oscsend(oscPort, '/studio/level', 'i', '43');
    await eventually(() => param(hub, 'studio/level').value === 43, 'the write after them');
    t.is(param(hub, 'studio/title').value, 'Morning');
    t.is(param(hub, 'backstage/hidden').value, 'secret');
    t.not(param(hub, 'desk/meter').value, 0.9);
  },
);

test('what a parameter says of itself reaches the oscquery client as RANGE, UNIT and DESCRIPTION (R-PK6, R-DS2)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-oscquery-meta-'));
  await writeFile(
    join(dir, 'desk.js'),
    `export default ({ define }) => {
  define('level', { type: 'F', initial: -6, meta: { label: 'Programme level', description: 'The mix to air', unit: 'dB', minimum: -60, maximum: 10 } });
  define('source', { type: 'I', initial: 1, meta: { label: 'Source', choices: [{ value: 1, label: 'Camera 1' }, { value: 2, label: 'Camera 2' }] } });
};
`,
  );
  const hub = await startHub(
    t,
    {
      connections: { surface: { type: 'osc', port: 0, bindIp: '127.0.0.1', oscQuery: { port: 0, expose: ['desk/#'], write: ['desk/#'] } } },
      flows: ['desk.js'],
    },
    { dir },
  );
  const queryPort = (hub.connection('surface')?.info.details as { oscQuery: { port: number } } | undefined)?.oscQuery.port ?? 0;
  const service = new DiscoveredService('127.0.0.1', queryPort);
  await service.update();
  t.like(service.hostInfo.extensions, { RANGE: true, UNIT: true, DESCRIPTION: true });
  const methods = new Map(service.flat().map((method) => [method.full_path, method]));
  const level = methods.get('/desk/level');
  t.deepEqual(level?.arguments?.[0]?.range, { min: -60, max: 10, vals: undefined });
  t.is(level?.description, 'Programme level: The mix to air (desk/level: float)');
  t.deepEqual(methods.get('/desk/source')?.arguments?.[0]?.range, { min: undefined, max: undefined, vals: [1, 2] });
  t.deepEqual(await (await fetch(`http://127.0.0.1:${queryPort}/desk/level?UNIT`)).json(), { UNIT: ['dB'] });
});
