import { spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import test from 'ava';
import { eventually } from '../../helpers/eventually.ts';
import { freePort, serve } from '../../helpers/http.ts';

const socat = spawnSync('socat', ['-V']).status === 0;
const withSocat = socat ? test : test.skip;

withSocat(
  'a udp connection takes datagrams from its host (socat as the sender), sends frames to it, and ignores strangers (R-N1)',
  async (t) => {
    const [hubPort, devicePort] = [await freePort(), await freePort()];
    // The device's receiving end: what the hub sends arrives here.
    const device = createSocket('udp4');
    const heard: string[] = [];
    device.on('message', (datagram) => heard.push(datagram.toString()));
    await new Promise<void>((resolve) => device.bind(devicePort, '127.0.0.1', resolve));
    t.teardown(() => device.close());
    const { hub, base } = await serve(
      t,
      {},
      {
        box: {
          type: 'udp',
          port: hubPort,
          bindIp: '127.0.0.1',
          host: '127.0.0.1',
          sendPort: devicePort,
          parameters: ['level,F', 'mute,B'],
          receive: [
            { match: '^LEVEL (?P<db>-?[0-9.]+)$', set: { level: '$db' } },
            { match: '^MUTE (?P<m>[01])$', set: { mute: '$m' } },
          ],
          send: [{ parameter: 'mute', frame: 'MUTE $VALUE\r\n', values: { true: '1', false: '0' } }],
        },
      },
    );
    await eventually(() => hub.connection('box')?.info.status === 'ok', 'bound');
    // Two frames in one datagram from socat, the last without its delimiter.
    const sent = spawnSync('socat', ['-u', '-', `UDP-SENDTO:127.0.0.1:${hubPort}`], { input: 'LEVEL -12.5\r\nMUTE 1' });
    t.is(sent.status, 0, sent.stderr.toString());
    await eventually(
      () => hub.graph.get('box/level')?.value === -12.5 && hub.graph.get('box/mute')?.value === true,
      'both frames of the datagram',
    );

    // A stranger on another loopback address is not the device.
    const stranger = createSocket('udp4');
    await new Promise<void>((resolve) => stranger.bind(0, '127.0.0.2', resolve));
    t.teardown(() => stranger.close());
    stranger.send('LEVEL 6', hubPort, '127.0.0.1');
    await eventually(() => hub.connection('box')?.info.details?.['strangers'] === 1, 'the stranger counted');
    t.is(hub.graph.get('box/level')?.value, -12.5);

    t.is((await fetch(`${base}/update?parameter=box/mute&value=false`)).status, 200);
    await eventually(() => heard.includes('MUTE 0\r\n'), 'the frame, $VALUE through values');
    t.is(hub.graph.get('box/mute')?.value, false, 'the device says nothing back: the written value is the value');
    t.regex(hub.graph.get('box/mute')?.lastChange?.by ?? '', /^http /, 'who changed it is the writer (R-O2)');
  },
);

test("a line device's parameters say what `describe` says of them (R-PK6), in /parameters?meta=1, and a write outside is refused 400", async (t) => {
  const [hubPort, devicePort] = [await freePort(), await freePort()];
  const { base } = await serve(
    t,
    {},
    {
      box: {
        type: 'udp',
        port: hubPort,
        bindIp: '127.0.0.1',
        host: '127.0.0.1',
        sendPort: devicePort,
        parameters: ['level,F', 'mute,B'],
        describe: { level: { label: 'Level', unit: 'dB', minimum: -60, maximum: 0 } },
        send: [{ parameter: 'level', frame: 'LEVEL $VALUE' }],
      },
    },
  );
  const listed = (await (await fetch(`${base}/parameters?meta=1&filter=${encodeURIComponent('^box/')}`)).json()) as {
    p: string;
    meta?: unknown;
  }[];
  t.deepEqual(
    listed.map((p) => [p.p, p.meta]),
    [
      ['box/level', { label: 'Level', unit: 'dB', minimum: -60, maximum: 0 }],
      ['box/mute', undefined],
    ],
  );
  t.is((await fetch(`${base}/update?parameter=box/level&value=6`)).status, 400);
});
