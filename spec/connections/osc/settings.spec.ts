import test from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import { connectionTypeOf } from '../../../lib/connections/connection.ts';
import { oscType } from '../../../lib/connections/osc/osc.ts';
import { oscAddressProblem, shortestFloat32 } from '../../../lib/connections/osc/packets.ts';

function mistakes(document: unknown): string[] {
  const result = validateFlow(document, '/virtual/flow.json5');
  return result.ok ? [] : result.issues.map(formatIssue);
}

const osc = (settings: object) => ({ connections: { desk: { type: 'osc', port: 9000, ...settings } } });

test('validate names each address that is not an OSC address a device can be sent, with its JSON path', (t) => {
  t.deepEqual(
    mistakes(
      osc({
        addresses: [
          { id: 'ok', address: '/ch/01/mix/fader', type: 'F' },
          { id: 'slashless', address: 'ch/01', type: 'F' },
          { id: 'pattern', address: '/ch/*/mix/fader', type: 'F' },
          { id: 'spaced', address: '/ch 1', type: 'F' },
          { id: 'empty-part', address: '/ch//fader', type: 'F' },
          { id: 'again', address: '/ch/01/mix/fader', type: 'F' },
          { id: 'ok', address: '/other', type: 'F' },
          { id: '_hub', address: '/hub', type: 'F' },
        ],
      }),
    ),
    [
      'connections.desk.addresses[1].address: "ch/01" is not an OSC address: it must start with "/"',
      'connections.desk.addresses[2].address: "/ch/*/mix/fader" is not an OSC address: "*" is a pattern character (the hub answers to exact addresses)',
      'connections.desk.addresses[3].address: "/ch 1" is not an OSC address: use parts of printable ASCII joined by "/", none empty',
      'connections.desk.addresses[4].address: "/ch//fader" is not an OSC address: use parts of printable ASCII joined by "/", none empty',
      'connections.desk.addresses[5].address: "/ch/01/mix/fader" is listed twice',
      'connections.desk.addresses[6].id: "ok" is listed twice',
      'connections.desk.addresses[7].id: "_hub" begins with "_", which is reserved for the hub',
    ],
  );
});

test('validate wants a host for tcp, and a sendPort for a udp host', (t) => {
  t.deepEqual(mistakes(osc({ transport: 'tcp' })), [
    'connections.desk.host: expected the device to connect to: tcp connects to `host`:`port`',
  ]);
  t.deepEqual(mistakes(osc({ host: 'desk.local' })), ['connections.desk.sendPort: expected the port of desk.local that writes go to']);
  t.deepEqual(mistakes(osc({ transport: 'tcp', host: 'desk.local' })), []);
});

test('two udp osc connections cannot receive on one port', (t) => {
  const result = mistakes({ connections: { a: { type: 'osc', port: 9000 }, b: { type: 'osc', port: 9000 } } });
  t.is(result.length, 1);
  t.regex(result[0] ?? '', /UDP port 9000/);
});

test('an osc connection that learns says it discovers parameters, so rules may name addresses not heard yet (R-G2)', (t) => {
  const rule = { source: 'desk/fader/1', destinations: ['desk/fader/2'] };
  t.deepEqual(mistakes({ ...osc({ learn: true }), rules: [rule] }), []);
  const plan = (learn: boolean) => connectionTypeOf(oscType).prepare({ port: 9000, learn }, { id: 'desk', baseDir: '/virtual' });
  const learning = plan(true);
  const listing = plan(false);
  t.true(learning.ok && learning.value.discovers.parameters);
  t.false(listing.ok && listing.value.discovers.parameters);
});

test('an OSC address is a slash and parts of printable ASCII, without pattern characters', (t) => {
  t.is(oscAddressProblem('/a/b.c/1-2_x'), undefined);
  for (const bad of ['', '/', '/a/', '/a b', '/a#', '/a,b', '/a?', '/[ab]', '/{a,b}', '/ü']) t.not(oscAddressProblem(bad), undefined, bad);
});

test('a float32 reads as the shortest decimal that is the same float32', (t) => {
  t.is(shortestFloat32(Math.fround(0.1)), 0.1);
  t.is(shortestFloat32(Math.fround(0.75)), 0.75);
  t.is(shortestFloat32(Math.fround(1 / 3)), 0.33333334);
  t.is(shortestFloat32(Math.fround(-123456.789)), -123456.79);
});
