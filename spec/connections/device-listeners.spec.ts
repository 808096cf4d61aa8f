/**
 * The doors a hub opens to devices take `allow` (issue 44): a peer it does not list is
 * refused at once and counted, whatever it sends; one it lists is served as before.
 */
import { connect } from 'node:net';
import test from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { eventually } from '../helpers/eventually.ts';
import { param, startHub } from '../helpers/hub.ts';
import { canRunLiblo, oscsend, whyNoLiblo } from '../helpers/liblo.ts';
import { freePort } from '../helpers/ports.ts';

const liblo = canRunLiblo ? test : test.skip;

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
