import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import test from 'ava';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';
import { canRunLiblo, libloMessage, oscsend, startDump, whyNoLiblo } from '../../helpers/liblo.ts';
import { freePort } from '../../helpers/ports.ts';

const liblo = canRunLiblo ? test : test.skip;

async function oscHub(t: Parameters<typeof startHub>[0], settings: object = {}, log = capturedLog('warn')) {
  const hub = await startHub(
    t,
    {
      connections: { osc: { type: 'osc', port: 0, bindIp: '127.0.0.1', ...settings } },
    },
    { log: log.log },
  );
  const runner = hub.connection('osc');
  if (runner?.info.status !== 'ok') throw new Error(`osc did not start: ${runner?.info.status} ${runner?.info.reason}`);
  return { hub, port: runner.info.details?.['port'] as number, info: () => runner.info, lines: log.lines };
}

liblo(`learn makes a parameter of each new address, typed by its first argument${whyNoLiblo}`, async (t) => {
  const { hub, port } = await oscHub(t, { learn: true });
  await oscsend(port, '/fader/1', 'f', '0.5');
  await oscsend(port, '/scene', 'i', '4');
  await oscsend(port, '/label/1', 's', 'Host');
  await oscsend(port, '/mute', 'T');
  await oscsend(port, '/go');
  await eventually(() => hub.graph.get('osc/go') !== undefined, 'the last address learned');
  t.deepEqual(
    hub.graph
      .byPrefix('osc/')
      .filter((p) => !p.id.startsWith('_'))
      .map((p) => [p.address, p.type, p.access, p.value]),
    [
      ['osc/fader/1', 'F', 'read-write', 0.5],
      ['osc/scene', 'I', 'read-write', 4],
      ['osc/label/1', 'S', 'read-write', 'Host'],
      ['osc/mute', 'B', 'read-write', true],
      ['osc/go', 'T', 'read-write', undefined],
    ],
  );
  await oscsend(port, '/scene', 'i', '5');
  await eventually(() => param(hub, 'osc/scene').value === 5, 'the next value of a learned address');
  t.pass();
});

liblo(`a learned address is written back as its first argument's type${whyNoLiblo}`, async (t) => {
  const dumpPort = await freePort();
  const dump = await startDump(t, String(dumpPort));
  const { hub, port } = await oscHub(t, { learn: true, host: '127.0.0.1', sendPort: dumpPort });
  await oscsend(port, '/fader/1', 'f', '0.5');
  await eventually(() => hub.graph.get('osc/fader/1') !== undefined, 'the address learned');
  param(hub, 'osc/fader/1').set(1, 'spec');
  await dump.until((line) => line.startsWith('/fader/1'), 'the write');
  t.true(dump.lines.includes('/fader/1 f 1.000000'));
});

liblo(`a rule naming an address not heard yet waits, and starts when learn makes it (R-G2)${whyNoLiblo}`, async (t) => {
  const hub = await startHub(t, {
    connections: {
      osc: { type: 'osc', port: 0, bindIp: '127.0.0.1', learn: true },
      copy: { type: 'dummy', parameters: ['level,F,0'] },
    },
    rules: [{ source: 'osc/desk/level', destinations: ['copy/level'] }],
  });
  t.is(hub.rules()[0]?.status, 'waiting');
  const port = hub.connection('osc')?.info.details?.['port'] as number;
  await oscsend(port, '/desk/level', 'f', '0.25');
  await eventually(() => param(hub, 'copy/level').value === 0.25, 'the rule to copy the learned value');
  t.is(hub.rules()[0]?.status, 'running');
});

liblo(
  `learn makes at most maxParameters, then drops new addresses, degraded with the reason, and runs on (R-G4)${whyNoLiblo}`,
  async (t) => {
    const { hub, port, info } = await oscHub(t, { learn: true, maxParameters: 3 });
    for (const n of [1, 2, 3, 4, 5]) await oscsend(port, `/fader/${n}`, 'f', '0.5');
    await eventually(() => info().status === 'degraded', 'the connection to degrade');
    t.regex(info().reason, /maxParameters \(3\)/);
    t.is(info().code, 'PB_OVER_LIMIT');
    t.deepEqual(
      hub.graph
        .byPrefix('osc/')
        .map((p) => p.id)
        .filter((id) => !id.startsWith('_')),
      ['fader/1', 'fader/2', 'fader/3'],
    );
    await oscsend(port, '/fader/2', 'f', '0.75');
    await eventually(() => param(hub, 'osc/fader/2').value === 0.75, 'a known address to go on');
    t.like(info().details, { dropped: { parameters: 2 } });
  },
);

liblo(`malformed packets are counted and logged sparsely, and what comes after them applies${whyNoLiblo}`, async (t) => {
  const { hub, port, info, lines } = await oscHub(t, { addresses: [{ id: 'level', address: '/level', type: 'F' }] });
  const truncated = libloMessage('/level', 'f', '0.5').subarray(0, 14);
  const wrongSize = Buffer.concat([
    Buffer.from('#bundle\0\0\0\0\0\0\0\0\x01', 'latin1'),
    Buffer.from([0, 0, 1, 0]),
    libloMessage('/level', 'f', '1'),
  ]);
  const packets = [randomBytes(40), truncated, wrongSize, Buffer.from('no slash\0\0\0\0,f\0\0\0\0\0\0'), libloMessage('/level', 'h', '5')];
  for (const packet of packets) await send(port, packet);
  await oscsend(port, '/level', 'f', '0.25');
  await eventually(() => param(hub, 'osc/level').value === 0.25, 'the message after them');
  t.like(info(), { status: 'ok', details: { dropped: { malformed: 5 } } });
  const warned = lines().filter((line) => line.msg.includes('malformed'));
  t.is(warned.length, 1, 'one line for the first; the next line says how many came meanwhile');
});

liblo(`a packet over maxPacketBytes is dropped whole and degrades the connection; smaller ones apply${whyNoLiblo}`, async (t) => {
  const { hub, port, info } = await oscHub(t, { maxPacketBytes: 64, addresses: [{ id: 'name', address: '/name', type: 'S' }] });
  await oscsend(port, '/name', 's', 'x'.repeat(100));
  await eventually(() => info().status === 'degraded', 'the connection to degrade');
  t.regex(info().reason, /over maxPacketBytes \(64\)/);
  await oscsend(port, '/name', 's', 'short');
  await eventually(() => param(hub, 'osc/name').value === 'short', 'the short one');
  t.like(info().details, { dropped: { size: 1 } });
});

liblo(`a flood of datagrams, malformed and not, leaves the hub answering and learn within its bound${whyNoLiblo}`, async (t) => {
  const { hub, port, info, lines } = await oscHub(t, { learn: true, maxParameters: 100 });
  const socket = createSocket('udp4');
  t.teardown(() => socket.close());
  const valid = Array.from({ length: 1000 }, (_, n) => libloMessage(`/flood/${n}`, 'i', String(n)));
  for (let round = 0; round < 10; round++) {
    for (let n = 0; n < 1000; n++) {
      socket.send(n % 2 === 0 ? randomBytes(32) : (valid[n] as Buffer), port, '127.0.0.1');
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await eventually(
    async () => {
      await oscsend(port, '/flood/1', 'i', '-1');
      return hub.graph.get('osc/flood/1')?.value === -1;
      // Each try starts liblo's oscsend, which takes seconds on a loaded machine.
    },
    'a message after the flood',
    60_000,
  );
  t.true(hub.graph.byPrefix('osc/flood/').length <= 100);
  t.is(info().details?.['parameters'], 100);
  t.true(lines().filter((line) => line.msg.includes('malformed')).length <= 2, 'the log stays sparse');
});

function send(port: number, packet: Buffer): Promise<void> {
  const socket = createSocket('udp4');
  return new Promise((resolve, reject) =>
    socket.send(packet, port, '127.0.0.1', (error) => {
      socket.close();
      if (error) reject(error);
      else resolve();
    }),
  );
}
