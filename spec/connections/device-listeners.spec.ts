/**
 * The doors a hub opens to devices take `allow` (issue 44): a peer it does not list is
 * refused at once and counted, whatever it sends; one it lists is served as before. Each
 * says at start where it listens and whom it lets in.
 */
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import test from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { eventually } from '../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../helpers/hub.ts';
import { canRunLiblo, oscsend, whyNoLiblo } from '../helpers/liblo.ts';
import { freePort } from '../helpers/ports.ts';

const liblo = canRunLiblo ? test : test.skip;
const TslUmdV5 = createRequire(import.meta.url)('tsl-umd-v5') as new () => {
  sendTallyUDP(ip: string, port: number, tally: object): void;
};

/** Connects from 127.0.0.1 and writes `line`: resolves with whether the hub closed the connection within a second. */
function closedAtOnce(port: number, line: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(line));
    socket.on('error', () => {});
    socket.once('close', () => resolve(true));
    setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 1000);
  });
}

const tally = (port: number, allow: string[]) => ({
  type: 'tcp-server',
  port,
  bindIp: '127.0.0.1',
  allow,
  delimiter: '\n',
  parameters: ['cam/1,B'],
  receive: [{ match: '^CAM1 (?P<on>ON|OFF)$', set: { 'cam/1': '$on' } }],
});

test('a tcp-server closes a client allow does not list before reading it, and serves one it lists', async (t) => {
  const [closedPort, openPort] = [await freePort(), await freePort()];
  const hub = await startHub(t, { connections: { closed: tally(closedPort, ['192.0.2.0/24']), open: tally(openPort, ['127.0.0.1']) } });
  await eventually(() => hub.connection('closed')?.info.status === 'ok' && hub.connection('open')?.info.status === 'ok', 'listening');
  t.true(await closedAtOnce(closedPort, 'CAM1 ON\n'));
  t.is(hub.connection('closed')?.info.details?.['refusedPeers'], 1);
  t.not(param(hub, 'closed/cam/1').value, true);
  t.false(await closedAtOnce(openPort, 'CAM1 ON\n'));
  await eventually(() => param(hub, 'open/cam/1').value === true, 'the listed peer is read');
});

test('a satellite connection refuses a satellite allow does not list', async (t) => {
  const port = await freePort();
  const hub = await startHub(t, { connections: { deck: { type: 'satellite', port, bindIp: '127.0.0.1', allow: ['fd00::/8'] } } });
  await eventually(() => hub.connection('deck')?.info.status === 'ok', 'listening');
  t.true(await closedAtOnce(port, 'ADD-DEVICE DEVICEID=x KEYS_TOTAL=8\n'));
  t.is(hub.connection('deck')?.info.details?.['refusedPeers'], 1);
});

liblo(`an osc connection drops packets from senders allow does not list${whyNoLiblo}`, async (t) => {
  const hub = await startHub(t, {
    connections: {
      closed: {
        type: 'osc',
        port: 0,
        bindIp: '127.0.0.1',
        allow: ['10.0.0.0/8'],
        addresses: [{ id: 'fader', address: '/fader', type: 'F' }],
      },
      open: { type: 'osc', port: 0, bindIp: '127.0.0.1', allow: ['127.0.0.1'], addresses: [{ id: 'fader', address: '/fader', type: 'F' }] },
    },
  });
  const portOf = (id: string) => hub.connection(id)?.info.details?.['port'] as number;
  await oscsend(portOf('closed'), '/fader', 'f', '0.5');
  await oscsend(portOf('open'), '/fader', 'f', '0.5');
  await eventually(() => param(hub, 'open/fader').value === 0.5, 'the listed sender is heard');
  await eventually(() => hub.connection('closed')?.info.details?.['refusedPeers'] === 1, 'the other sender counted');
  t.is(param(hub, 'closed/fader').value, undefined);
});

test('an allow entry that is no address or block is a mistake with its path', (t) => {
  const result = validateFlow({ connections: { tally: tally(9999, ['10.0.0.1', '10.0.0.0/40', 'desk.local']) } }, '/virtual/flow.json5');
  t.false(result.ok);
  const issues = result.ok ? [] : (result.issues ?? []).map(formatIssue);
  t.deepEqual(issues, [
    'connections.tally.allow[1]: "10.0.0.0/40" is no address or block: expected 10.0.0.5, 10.0.0.0/24, ::1 or fd00::/8',
    'connections.tally.allow[2]: "desk.local" is no address or block: expected 10.0.0.5, 10.0.0.0/24, ::1 or fd00::/8',
  ]);
});

test('a udp connection with acceptFrom "any" takes datagrams only from the senders allow lists', async (t) => {
  const device = createSocket('udp4');
  t.teardown(() => device.close());
  await new Promise<void>((resolve) => device.bind(0, '127.0.0.1', resolve));
  const gpio = (allow: string[]) => ({
    type: 'udp',
    port: 0,
    bindIp: '127.0.0.1',
    host: '127.0.0.1',
    sendPort: device.address().port,
    acceptFrom: 'any',
    allow,
    delimiter: '\n',
    parameters: ['gpi/1,B'],
    receive: [{ match: '^GPI1 (?P<on>ON|OFF)$', set: { 'gpi/1': '$on' } }],
  });
  const hub = await startHub(t, { connections: { closed: gpio(['10.0.0.0/8']), open: gpio(['127.0.0.1']) } });
  await eventually(() => hub.connection('closed')?.info.status === 'ok' && hub.connection('open')?.info.status === 'ok', 'bound');
  const portOf = (id: string) => hub.connection(id)?.info.details?.['port'] as number;
  device.send('GPI1 ON\n', portOf('closed'), '127.0.0.1');
  device.send('GPI1 ON\n', portOf('open'), '127.0.0.1');
  await eventually(() => param(hub, 'open/gpi/1').value === true, 'the listed sender is heard');
  await eventually(() => hub.connection('closed')?.info.details?.['refusedPeers'] === 1, 'the other sender counted');
  t.not(param(hub, 'closed/gpi/1').value, true);
});

test('a tsl-umd receiver takes displays only from the sources allow lists (tsl-umd-v5 sending)', async (t) => {
  const [closedPort, openPort] = [await freePort(), await freePort()];
  const receiver = (port: number, allow: string[]) => ({
    type: 'tsl-umd',
    version: '5.0',
    mode: 'receive',
    port,
    bindIp: '127.0.0.1',
    allow,
  });
  const hub = await startHub(t, {
    connections: { closed: receiver(closedPort, ['192.0.2.7']), open: receiver(openPort, ['127.0.0.0/8']) },
  });
  await eventually(() => hub.connection('closed')?.info.status === 'ok' && hub.connection('open')?.info.status === 'ok', 'listening');
  const source = new TslUmdV5();
  const tally = { screen: 1, index: 3, display: { rh_tally: 1, text_tally: 0, lh_tally: 0, brightness: 3, text: 'CAM 3' } };
  source.sendTallyUDP('127.0.0.1', closedPort, tally);
  source.sendTallyUDP('127.0.0.1', openPort, tally);
  await eventually(() => hub.graph.get('open/1/3/text')?.value === 'CAM 3', 'the listed source is shown');
  await eventually(() => hub.connection('closed')?.info.details?.['refusedPeers'] === 1, 'the other source counted');
  t.is(hub.graph.get('closed/1/3/text'), undefined);
});

test('every listener says at start where it listens and whom it lets in', async (t) => {
  const captured = capturedLog();
  const port = await freePort();
  const hub = await startHub(
    t,
    {
      connections: {
        tally: tally(port, ['10.1.0.0/16']),
        gpio: { type: 'udp', port: 0, bindIp: '127.0.0.1', host: '127.0.0.1', sendPort: 9, parameters: ['gpi/1,B'] },
        umd: { type: 'tsl-umd', version: '3.1', mode: 'receive', port: 0, bindIp: '', allow: ['10.0.0.9'] },
      },
    },
    { log: captured.log },
  );
  await eventually(() => ['tally', 'gpio', 'umd'].every((id) => hub.connection(id)?.info.status === 'ok'), 'all listening');
  const said = (id: string) => captured.lines().find((line) => line.connection === id && /listen|receiving/.test(line.msg))?.msg;
  t.is(said('tally'), `listening for devices on 127.0.0.1:${port}; lets in peers 10.1.0.0/16, 16 at once at most`);
  t.regex(said('gpio') ?? '', /^receiving on 127\.0\.0\.1:\d+; takes datagrams from 127\.0\.0\.1 only$/);
  t.regex(said('umd') ?? '', /^receiving TSL UMD 3\.1 over UDP on \*:\d+; takes peers 10\.0\.0\.9$/);
});

test('validate warns of an OSCQuery server on every interface, which has no credentials; its default address, this machine, is closed', (t) => {
  let ports = 8000;
  const query = (oscQuery: object) => ({
    type: 'osc',
    port: ++ports,
    bindIp: '127.0.0.1',
    oscQuery: { port: ++ports, expose: ['desk/#'], ...oscQuery },
  });
  const warnings = (connections: object) => {
    const result = validateFlow({ connections }, '/virtual/flow.json5');
    if (!result.ok) throw result.error ?? new Error(JSON.stringify(result.issues));
    return result.flow.warnings.map(formatIssue);
  };
  t.deepEqual(warnings({ reads: query({ bindIp: '' }), writes: query({ bindIp: '', write: ['desk/fader'] }), local: query({}) }), [
    'connections.reads.oscQuery.bindIp: every machine that reaches this one may read what oscQuery.expose matches (OSCQuery has no credentials): set oscQuery.bindIp (such as 127.0.0.1)',
    'connections.writes.oscQuery.bindIp: every machine that reaches this one may read what oscQuery.expose matches, and change what oscQuery.write matches (OSCQuery has no credentials): set oscQuery.bindIp (such as 127.0.0.1)',
  ]);
});

test('allow where it cannot apply is a mistake: a udp connection taking its host only, a tsl-umd sender', (t) => {
  const result = validateFlow(
    {
      connections: {
        gpio: { type: 'udp', host: '10.0.0.5', sendPort: 9, allow: ['10.0.0.0/24'], parameters: ['gpi/1,B'] },
        lamps: { type: 'tsl-umd', version: '5.0', mode: 'send', host: '10.0.0.6', port: 8900, displays: ['1/1'], allow: ['10.0.0.0/24'] },
      },
    },
    '/virtual/flow.json5',
  );
  t.deepEqual(result.ok ? [] : (result.issues ?? []).map(formatIssue), [
    'connections.gpio.allow: allow lists the senders of acceptFrom: "any"; with "host" only the device\'s address is taken',
    'connections.lamps.allow: allow lists the senders a receiver takes; a sender listens to no one',
  ]);
});

test('validate warns of each listener on every interface whose peers may change parameters; bindIp or allow closes it', (t) => {
  const listeners = {
    tally: { type: 'tcp-server', port: 7000, parameters: ['cam/1,B'], receive: [{ match: '^ON$', set: { 'cam/1': 'true' } }] },
    gpio: {
      type: 'udp',
      host: '10.0.0.5',
      sendPort: 9,
      acceptFrom: 'any',
      parameters: ['gpi/1,B'],
      receive: [{ match: '^ON$', set: { 'gpi/1': 'true' } }],
    },
    fader: { type: 'osc', port: 8000, addresses: [{ id: 'fader', address: '/fader', type: 'F' }] },
    deck: { type: 'satellite' },
    umd: { type: 'tsl-umd', version: '5.0', mode: 'receive', port: 8900 },
  };
  const warnings = (connections: object) => {
    const result = validateFlow({ connections }, '/virtual/flow.json5');
    if (!result.ok) throw result.error ?? new Error(JSON.stringify(result.issues));
    return result.flow.warnings.map(formatIssue);
  };
  t.deepEqual(warnings(listeners), [
    'connections.tally.bindIp: peers on every machine that reaches this one may set the parameters its receive lines make: set bindIp (such as 127.0.0.1) or allow',
    'connections.gpio.bindIp: peers on every machine that reaches this one may set the parameters its receive lines make (acceptFrom: "any"): set bindIp (such as 127.0.0.1) or allow',
    'connections.fader.bindIp: peers on every machine that reaches this one may set its addresses: set bindIp (such as 127.0.0.1) or allow',
    'connections.deck.bindIp: peers on every machine that reaches this one may press the keys, writing to their targets: set bindIp (such as 127.0.0.1) or allow',
    'connections.umd.bindIp: peers on every machine that reaches this one may set tally and text: set bindIp (such as 127.0.0.1) or allow',
  ]);
  const closed = (extra: object) => Object.fromEntries(Object.entries(listeners).map(([id, settings]) => [id, { ...settings, ...extra }]));
  t.deepEqual(warnings(closed({ bindIp: '127.0.0.1' })), []);
  t.deepEqual(warnings(closed({ allow: ['10.0.0.0/24'] })), []);
  // Taking the device's address only (udp's default, a tsl-umd receiver's host) is closed too,
  // and a tcp-server without receive lines lets its clients set nothing.
  t.deepEqual(
    warnings({
      gpio: { ...listeners.gpio, acceptFrom: 'host' },
      umd: { ...listeners.umd, host: '10.0.0.9' },
      tally: { ...listeners.tally, receive: [] },
    }),
    [],
  );
});
