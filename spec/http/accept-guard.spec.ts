import { connect } from 'node:net';
import test from 'ava';
import { AcceptGuard, checkIntervalMs, type DescriptorUse, descriptorUse, reserveFor } from '../../lib/http/accept-guard.ts';
import { type ListenSocket, uws } from '../../lib/http/uws.ts';
import { eventually } from '../helpers/eventually.ts';
import { capturedLog } from '../helpers/hub.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

/** Whether a TCP connection to the port is accepted (true) or refused (false). */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

test('descriptor use is read from /proc: open descriptors and the soft limit', (t) => {
  const use = descriptorUse();
  t.truthy(use);
  t.true((use?.open ?? 0) > 2);
  t.true((use?.open ?? 0) < (use?.limit ?? 0));
});

test('the reserve is 16 descriptors, or 5 % of a larger limit', (t) => {
  t.is(reserveFor(64), 16);
  t.is(reserveFor(1024), 52);
});

test('accepting pauses when fewer than the reserve are free and resumes on the same port once twice as many are', async (t) => {
  const app = uws.App().get('/*', (res) => void res.end('hi'));
  const socket = await new Promise<ListenSocket | false>((resolve) => app.listen('127.0.0.1', 0, resolve));
  if (!socket) return t.fail('cannot listen');
  const port = uws.us_socket_local_port(socket as never);
  const clock = new VirtualClock();
  const { log, lines } = capturedLog();
  let use: DescriptorUse = { open: 30, limit: 100 };
  const guard = new AcceptGuard(app, socket, '127.0.0.1', port, { scheduler: clock.scheduler, log, use: () => use });
  t.teardown(() => guard.close());

  clock.advanceBy(checkIntervalMs);
  t.true(await accepts(port));
  use = { open: 84, limit: 100 }; // 16 free: the reserve
  clock.advanceBy(checkIntervalMs);
  t.false(await accepts(port), 'refused');
  t.regex(lines().at(-1)?.msg ?? '', /^84 of 100 file descriptors in use: not accepting new connections/);
  use = { open: 69, limit: 100 }; // 31 free: not yet twice the reserve
  clock.advanceBy(checkIntervalMs);
  t.false(await accepts(port));
  use = { open: 68, limit: 100 };
  clock.advanceBy(checkIntervalMs);
  await eventually(() => accepts(port), 'accepting again');
  t.regex(lines().at(-1)?.msg ?? '', /^68 of 100 file descriptors in use: accepting connections again/);

  guard.close();
  t.false(await accepts(port), 'closing the guard stops listening');
  use = { open: 0, limit: 100 };
  clock.advanceBy(10 * checkIntervalMs);
  t.false(await accepts(port), 'and it stays closed');
});

test('far from the limit descriptors are counted less often, as often as it may take to get near it at the fastest accepts', async (t) => {
  const app = uws.App();
  const socket = await new Promise<ListenSocket | false>((resolve) => app.listen('127.0.0.1', 0, resolve));
  if (!socket) return t.fail('cannot listen');
  const clock = new VirtualClock();
  let counted = 0;
  let use: DescriptorUse = { open: 10_000, limit: 1_048_576 };
  const guard = new AcceptGuard(app, socket, '127.0.0.1', uws.us_socket_local_port(socket as never), {
    scheduler: clock.scheduler,
    log: capturedLog().log,
    use: () => {
      counted += 1;
      return use;
    },
  });
  t.teardown(() => guard.close());
  counted = 0;
  clock.advanceBy(10_000);
  t.is(counted, 1, 'a million descriptors away: once in 10 s, not 20 times');
  use = { open: 60, limit: 100 }; // near: each interval
  clock.advanceBy(10_000);
  counted = 0;
  clock.advanceBy(5 * checkIntervalMs);
  t.is(counted, 5);
});
