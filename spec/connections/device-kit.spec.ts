import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import test from 'ava';
import { HubError, TcpConnection } from '../../lib/sdk/index.ts';
import { eventually } from '../helpers/eventually.ts';
import { startHub } from '../helpers/hub.ts';

const python = spawnSync('python3', ['--version']).status === 0;
const withPython = python ? test : test.skip;

/**
 * A port whose connects never complete: a listener with a backlog of one that never accepts,
 * its queue filled. Node accepts every connection itself, so the listener is Python's.
 */
async function silentPort(t: import('ava').ExecutionContext): Promise<number> {
  const listener = spawn('python3', [
    '-c',
    `import socket, time
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(0)
fill = []
for _ in range(3):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(s.getsockname())
    except BlockingIOError: pass
    fill.append(c)
print(s.getsockname()[1], flush=True)
time.sleep(60)`,
  ]);
  t.teardown(() => listener.kill());
  const line = await new Promise<string>((resolve) => listener.stdout.once('data', (data: Buffer) => resolve(data.toString())));
  return Number(line.trim());
}

withPython('a device type whose connect never completes says so after connectTimeout and tries again (ember-consumer, R-G1)', async (t) => {
  const port = await silentPort(t);
  const hub = await startHub(t, { connections: { router: { type: 'ember-consumer', host: '127.0.0.1', port, connectTimeout: 300 } } });
  await eventually(() => hub.connection('router')?.info.status === 'degraded', 'degraded', 5000);
  t.is(hub.connection('router')?.info.reason, `127.0.0.1:${port}: no connection within 300 ms`);
});

test('a device that stops reading: sends are refused past 1 MiB unread, and a write no one waits for closes the connection (TcpConnection)', async (t) => {
  const held: Socket[] = [];
  const device = createServer((socket) => {
    socket.pause(); // reads nothing: the kernel's buffers fill, then the hub's
    held.push(socket);
  });
  await new Promise<void>((resolve) => device.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of held) socket.destroy();
    device.close();
  });
  const port = (device.address() as { port: number }).port;
  let up = false;
  let down: string | undefined;
  const connection = TcpConnection.open(
    { up: () => (up = true), down: (reason) => (down = reason) },
    { host: '127.0.0.1', port },
    { data: () => {} },
  );
  await eventually(() => up, 'connected');
  const chunk = Buffer.alloc(256 * 1024);
  let refusal: Error | undefined;
  for (let sent = 0; !refusal && sent < 400; sent++)
    refusal = await new Promise<Error | undefined>((resolve) => {
      connection.send(chunk, (error) => resolve(error));
      // The callback of a write the kernel cannot take yet comes only once it drains: a turn is enough to see a refusal.
      setImmediate(() => resolve(undefined));
    });
  t.true(refusal instanceof HubError, 'refused before 100 MiB were queued');
  t.is((refusal as HubError).code, 'PB_DEVICE_UNAVAILABLE');
  t.regex(refusal?.message ?? '', /^the device is not reading: \d+ bytes wait to be sent$/);
  t.is(down, undefined, 'a refused send leaves the connection up');
  connection.write(Buffer.from('keep-alive'));
  await eventually(() => down !== undefined, 'closed');
  t.regex(down ?? '', /the device is not reading/);
});
