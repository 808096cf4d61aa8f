import { createServer, type Socket } from 'node:net';
import test from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { eventually } from '../../helpers/eventually.ts';
import { freePort, serve } from '../../helpers/http.ts';
import { param } from '../../helpers/hub.ts';

const SIZE = 40;

/**
 * A 40×40 router speaking blocks, as Blackmagic's Videohub protocol does: a block is a header
 * line and lines of its own, ended by a blank line. On connect it sends its input labels and
 * every route; it takes a routing block, answers ACK and sends the routes that changed.
 */
async function blockRouter(t: { teardown(fn: () => void): void }) {
  const port = await freePort();
  const routes = Array.from({ length: SIZE }, (_, output) => (output * 7) % SIZE);
  const heard: string[] = [];
  const sockets: Socket[] = [];
  const block = (header: string, lines: string[]) => `${header}:\n${lines.join('\n')}\n\n`;
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.write(block('PROTOCOL PREAMBLE', ['Version: 2.3']));
    socket.write(
      block(
        'INPUT LABELS',
        routes.map((_, input) => `${input} Camera ${input + 1}`),
      ),
    );
    socket.write(
      block(
        'VIDEO OUTPUT ROUTING',
        routes.map((input, output) => `${output} ${input}`),
      ),
    );
    let held = '';
    socket.on('data', (chunk) => {
      held += chunk.toString();
      for (let end = held.indexOf('\n\n'); end >= 0; end = held.indexOf('\n\n')) {
        const text = held.slice(0, end);
        held = held.slice(end + 2);
        heard.push(text);
        const [header, ...lines] = text.split('\n');
        if (header !== 'VIDEO OUTPUT ROUTING:') {
          socket.write('NAK\n\n');
          continue;
        }
        for (const line of lines) {
          const [output, input] = line.split(' ').map(Number);
          routes[output as number] = input as number;
        }
        socket.write('ACK\n\n');
        socket.write(block('VIDEO OUTPUT ROUTING', lines));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  const say = (text: string) => {
    for (const socket of sockets) socket.write(text);
  };
  return { port, routes, heard, say };
}

const routerSettings = (port: number) => ({
  type: 'tcp-client',
  host: '127.0.0.1',
  port,
  delimiter: '\n\n',
  parameters: ['out/{0..39},I', 'label/{0..39}'],
  receive: [
    { match: '^VIDEO OUTPUT ROUTING:\n', each: '(?m)^(?P<out>\\d+) (?P<in>\\d+)$', set: { 'out/$out': '$in' } },
    { match: '^INPUT LABELS:\n', each: '(?m)^(?P<in>\\d+) (?P<label>.+)$', set: { 'label/$in': '$label' } },
  ],
  send: [{ parameter: 'out/{0..39}', frame: 'VIDEO OUTPUT ROUTING:\n$1 $VALUE\n\n' }],
});

test('a 40×40 router declared with ranges: every route read from one block, a write sends the routing block of its output (R-N2)', async (t) => {
  const router = await blockRouter(t);
  const { hub, base } = await serve(t, {}, { router: routerSettings(router.port) });
  await eventually(() => hub.graph.get('router/out/39')?.value === (39 * 7) % SIZE, 'the last route of the first block');
  for (let output = 0; output < SIZE; output++) t.is(param(hub, `router/out/${output}`).value, (output * 7) % SIZE, `out/${output}`);
  t.is(param(hub, 'router/label/12').value, 'Camera 13', 'the labels block read line by line too');
  t.is(param(hub, 'router/out/5').access, 'read-write', 'every output of the range takes writes');
  t.is(param(hub, 'router/label/5').access, 'read-only');

  for (const [output, input] of [
    [0, 39],
    [27, 12],
    [39, 0],
  ] as const) {
    const written = await fetch(`${base}/update?parameter=router/out/${output}&value=${input}`);
    t.is(written.status, 200);
    await eventually(() => router.routes[output] === input, `the router took out ${output} ← in ${input}`);
    t.true(router.heard.includes(`VIDEO OUTPUT ROUTING:\n${output} ${input}`), 'the block of that output alone');
  }
  // A change made at the router's own panel, told in a block of the outputs it changed.
  router.say('VIDEO OUTPUT ROUTING:\n3 9\n4 9\n\n');
  await eventually(() => hub.graph.get('router/out/3')?.value === 9 && hub.graph.get('router/out/4')?.value === 9, "the panel's routes");
  t.is(param(hub, 'router/out/0').value, 39);
  t.is(hub.connection('router')?.info.details?.['unmatched'], 4, 'the preamble and each ACK are frames no entry reads');
});

test('ranges and receive patterns past their bounds are flow-file mistakes with their paths, saying how to stay within them (R-G4, R-H9)', (t) => {
  const longPattern = `^VIDEO OUTPUT ROUTING:\\n${Array.from({ length: 20 }, (_, n) => `(?P<o${n}>\\d+) (?P<i${n}>\\d+)\\n`).join('')}`;
  const result = validateFlow(
    {
      connections: {
        router: {
          type: 'tcp-client',
          host: 'r',
          port: 1,
          parameters: ['out/{0..39},I'],
          receive: [
            { match: longPattern, set: { 'out/0': '$i0' } },
            { match: '^R', each: '(?P<n>\\d+)', set: { 'out/{0..39}': '$n', 'out/$n': '$m' } },
          ],
          send: [
            { parameter: 'out/{0..41}', frame: '$1 $VALUE\r\n' },
            { parameter: 'out/{0..39}', frame: 'ROUTE $2 $VALUE\r\n' },
          ],
        },
        desk: { type: 'dummy', parameters: ['fader/{1..3}{01..08},F', 'in/{0..999999}', 'x/{9..1}', 'y/{a..b}'] },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  const text = result.ok ? '' : result.error.message;
  for (const expected of [
    'connections.desk.parameters[1]: line 2: "in/{0..999999}" makes 1,000,000 names, more than the 100,000 the ranges of one connection may make in all (R-G4)',
    'connections.desk.parameters[2]: line 3: {9..1} counts down: write the lower number first ({1..9})',
    'connections.desk.parameters[3]: line 4: "y/{a..b}" holds a brace that is not a range: a range is {<first>..<last>} in digits',
    `connections.router.receive[0].match: expression of ${longPattern.length} characters, longer than the 512 the hub takes. A pattern matches one thing: name the parameter with a named group ("dest/$dst")`,
    'read a block of many lines with `each`',
    'connections.router.receive[1].set["out/{0..39}"]: a received frame names its parameter with a named group ("out/$dst"), not a range',
    'connections.router.receive[1].set["out/$n"]: $m is not a named group of the pattern ($n)',
    'connections.router.send[0].parameter: no parameter "out/40" in parameters (and 1 more)',
    'connections.router.send[1].parameter: "out/0" has a send entry already (and 39 more)',
    'connections.router.send[1].frame: $2 is no range of "out/{0..39}", which has one ($1)',
  ])
    t.true(text.includes(expected), `${expected}\n--- in ---\n${text}`);
  t.false(text.includes('line 1:'), 'two ranges in one id, the second padded, make fader/101 … fader/308');
});
