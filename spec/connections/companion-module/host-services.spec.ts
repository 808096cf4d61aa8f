import { spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import test from 'ava';
import { decode } from 'node-osc';
import { deskInfo, fixtureModule, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog } from '../../helpers/hub.ts';

// What a module's base asks its host to do on the network (R-CM7): send OSC, share a UDP port.

async function udpSocket(t: { teardown: (f: () => void) => void }): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  t.teardown(() => socket.close());
  return socket;
}

/** A UDP port free now. */
async function freePort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

const write = (base: string, address: string, value: string) =>
  fetch(`${base}/update?parameter=${address}&value=${encodeURIComponent(value)}`).then(async (answer) => ({
    status: answer.status,
    text: await answer.text(),
  }));

test.serial(
  "a module's oscSend leaves the hub as the OSC message it asked for, each argument of its type (node-osc decodes it)",
  async (t) => {
    const peer = await udpSocket(t);
    const heard = new Promise<Buffer>((resolve) => peer.once('message', resolve));
    const desk = {
      type: 'companion-module',
      module: await fixtureModule('1.14.1'),
      config: { host: '127.0.0.1', port: peer.address().port },
      actions: { osc: { action: 'osc', options: { path: '/fader/1', value: '$(value)' } } },
    };
    const { hub, base } = await runDesk(t, desk);
    await eventually(() => deskInfo(hub)?.status === 'ok', 'the module');
    t.is((await write(base, 'desk/osc', '42')).status, 200);
    const packet = await heard;
    const message = decode(packet) as { address: string; args: { value: unknown }[] };
    t.is(message.address, '/fader/1');
    t.deepEqual(
      message.args.map(({ value }) => (value instanceof Uint8Array ? [...value] : value)),
      [42, 0.5, 'text', [1, 2, 3]],
    );
    // The type tags: an integer, a float, a string and a blob, as the module asked.
    t.true(packet.includes(',ifsb\0'));
  },
);

test.serial(
  'two modules that share a UDP port both hear each datagram and answer from it; the port closes with the last of them',
  async (t) => {
    const port = await freePort();
    const listening = (base: '1.11.3' | '1.14.1') =>
      fixtureModule(base).then((module) => ({
        type: 'companion-module',
        module,
        config: { host: '127.0.0.1', port: 9 },
        actions: { listen: { action: 'listen', options: { port } } },
      }));
    const { hub, base } = await runDesk(t, await listening('1.14.1'), undefined, { more: { other: await listening('1.11.3') } });
    await eventually(() => hub.listConnections().every((connection) => connection.status === 'ok'), 'the modules');
    t.is((await write(base, 'desk/listen', 'true')).status, 200);
    t.is((await write(base, 'other/listen', 'true')).status, 200);

    const device = await udpSocket(t);
    const answers: string[] = [];
    device.on('message', (message) => answers.push(message.toString()));
    device.send('hello', port, '127.0.0.1');
    await eventually(() => answers.length === 2, 'both answers');
    t.deepEqual(answers.sort(), ['ack hello from desk', 'ack hello from other']);
    await eventually(
      () => hub.graph.get('desk/var/shared_heard')?.value === 'hello' && hub.graph.get('other/var/shared_heard')?.value === 'hello',
      'both variables',
    );

    // While the hub holds it, no one else may bind it, asking to share or not: its datagrams are the modules'.
    for (const reuseAddr of [true, false]) {
      const thief = createSocket({ type: 'udp4', reuseAddr });
      const bound = await new Promise<string>((resolve) => {
        thief.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        thief.bind(port, () => resolve('bound'));
      });
      thief.close();
      t.is(bound, 'EADDRINUSE', `reuseAddr: ${reuseAddr}`);
    }

    await hub.stop();
    // Stopped, the hub holds the port no more: anyone may bind it alone.
    const after = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      after.once('error', reject);
      after.bind(port, '127.0.0.1', resolve);
    });
    after.close();
    t.pass();
  },
);

test.serial("a module that sets Companion's custom variables is told once in the log that the hub has none, and runs on", async (t) => {
  const { log, lines } = capturedLog('info');
  const desk = {
    type: 'companion-module',
    module: await fixtureModule('1.11.3'),
    config: { host: '127.0.0.1', port: 9 },
    actions: { custom: { action: 'custom' } },
  };
  const { hub, base } = await runDesk(t, desk, undefined, { log });
  await eventually(() => deskInfo(hub)?.status === 'ok', 'the module');
  t.is((await write(base, 'desk/custom', 'true')).status, 200);
  t.is((await write(base, 'desk/custom', 'true')).status, 200);
  await eventually(() => lines().some((line) => /custom variable "studio_name"/.test(line.msg)), 'the refusal in the log');
  t.is(lines().filter((line) => /custom variable/.test(line.msg)).length, 1);
  t.is(deskInfo(hub)?.status, 'ok');
});

test.serial(
  'a flood on a shared UDP port is handed on at 1,000 datagrams a second at most, the rest counted, and the hub answers',
  async (t) => {
    const port = await freePort();
    const desk = {
      type: 'companion-module',
      module: await fixtureModule('1.14.1'),
      config: { host: '127.0.0.1', port: 9 },
      actions: { listen: { action: 'listen', options: { port } } },
    };
    const { hub, base } = await runDesk(t, desk);
    await eventually(() => deskInfo(hub)?.status === 'ok', 'the module');
    t.is((await write(base, 'desk/listen', 'true')).status, 200);
    // Datagrams for 2 s from a process of its own, as fast as its socket takes them: far past the bound each second.
    const flooder = spawn(process.execPath, [
      '-e',
      `const s = require('node:dgram').createSocket('udp4');
     const end = Date.now() + 2000;
     const burst = () => { for (let n = 0; n < 200; n++) s.send('x', ${port}, '127.0.0.1'); if (Date.now() < end) setImmediate(burst); else setTimeout(() => s.close(), 200); };
     burst();`,
    ]);
    await new Promise((resolve) => flooder.once('exit', resolve));
    await eventually(() => Number(deskInfo(hub)?.details?.['datagramsDropped']) > 0, 'datagrams dropped and counted');
    t.is((await fetch(`${base}/healthz`)).status, 200);
    t.is(deskInfo(hub)?.status, 'ok');
  },
);
