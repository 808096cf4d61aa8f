import test from 'ava';
import { HubError } from '../../lib/core/errors.ts';
import { Channel, type WireCodec } from '../../lib/sdk/process/channel.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

// One end of a typed wire, the same at both ends (R-PK4, R-CM1): two ends joined here, in virtual time.

type HubToDevice = {
  add: (payload: { readonly a: number; readonly b: number }) => number;
  lock: (payload: { readonly output: number }) => null;
  hello: (payload: string) => never;
};
type DeviceToHub = {
  seen: (payload: string) => never;
};

/** Two ends whose messages go through structured clone, as over a process's channel; `decodeDelay` makes reading take its time. */
function wire(clock: VirtualClock, deviceHandlers: Partial<Record<keyof HubToDevice, (payload: never) => unknown>> = {}) {
  const seen: string[] = [];
  const onWire: unknown[] = [];
  let hub!: Channel<HubToDevice, DeviceToHub>;
  let device!: Channel<DeviceToHub, HubToDevice>;
  hub = new Channel({
    send: (message) => {
      onWire.push(message);
      device.received(structuredClone(message));
    },
    handlers: { seen: (text) => void seen.push(text) },
    scheduler: clock.scheduler,
    called: 'the device',
  });
  device = new Channel({
    send: (message) => hub.received(structuredClone(message)),
    handlers: {
      add: ({ a, b }) => a + b,
      lock: ({ output }) => {
        throw new HubError('PB_BAD_ANSWER', `output ${output} is locked`, { declared: 'DEVICE_LOCKED' });
      },
      hello: (text) => void device.tell('seen', text),
      ...(deviceHandlers as object),
    },
    scheduler: clock.scheduler,
    called: 'the hub',
  });
  return { hub, device, seen, onWire };
}

test('a call is answered with its value, a tell answers nothing, a refusal keeps its code and the type its own', async (t) => {
  const { hub, seen, onWire } = wire(new VirtualClock());
  t.is(await hub.call('add', { a: 2, b: 3 }), 5);
  hub.tell('hello', 'studio');
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(seen, ['studio']);
  t.deepEqual(onWire.at(-1), { c: 'hello', p: 'studio' }, 'a tell carries no id');
  const refused = await t.throwsAsync(hub.call('lock', { output: 3 }));
  t.true(refused instanceof HubError);
  t.like(refused, { code: 'PB_BAD_ANSWER', message: 'output 3 is locked', declared: 'DEVICE_LOCKED' });
});

test('a call of a name the other end has no handler for is refused as unknown; junk and stray answers are counted, not taken', async (t) => {
  const { hub, device } = wire(new VirtualClock());
  const untyped = hub as unknown as Channel<{ reboot: (payload: null) => null }, object>;
  await t.throwsAsync(untyped.call('reboot', null), { message: 'Unknown command "reboot"' });
  device.received({ nonsense: true });
  device.received(42);
  hub.received({ a: 999, ok: true, p: 1 });
  await new Promise((resolve) => setImmediate(resolve));
  t.is(device.dropped, 2);
  t.is(hub.dropped, 1);
  t.is(await hub.call('add', { a: 1, b: 1 }), 2, 'the wire carries on');
});

test('a call not answered within its deadline fails with PB_DEVICE_TIMEOUT; one still waiting fails when the channel closes', async (t) => {
  const clock = new VirtualClock();
  const { hub } = wire(clock, { add: () => new Promise(() => {}) });
  const late = hub.call('add', { a: 1, b: 2 }, 500);
  clock.advanceBy(499);
  let settled = false;
  void late.catch(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.false(settled, 'not before its deadline');
  clock.advanceBy(1);
  await t.throwsAsync(late, { code: 'PB_DEVICE_TIMEOUT', message: 'the device did not answer add within 500 ms' });
  const waiting = hub.call('add', { a: 1, b: 2 });
  hub.close('the device went away');
  await t.throwsAsync(waiting, { message: 'the device went away' });
  await t.throwsAsync(hub.call('add', { a: 1, b: 2 }), { message: 'the device went away' });
});

test('messages are handled in the order they came, one that takes its time to read holding those after it', async (t) => {
  const order: string[] = [];
  // A codec whose reading of one message takes a while (as a long payload read off the loop does).
  const slow: WireCodec = {
    encode: (message) => message,
    decode: (raw) => {
      const message = raw as { kind: 'call'; name: string; id: undefined; payload: string };
      return message.payload === 'long' ? new Promise((resolve) => setTimeout(() => resolve(message), 50)) : message;
    },
  };
  const end = new Channel<object, { note: (payload: string) => never }>({
    send: () => {},
    handlers: { note: (text) => void order.push(text) },
    scheduler: new VirtualClock().scheduler,
    called: 'the other end',
    codec: slow,
  });
  for (const text of ['first', 'long', 'after', 'last']) end.received({ kind: 'call', name: 'note', id: undefined, payload: text });
  await new Promise((resolve) => setTimeout(resolve, 150));
  t.deepEqual(order, ['first', 'long', 'after', 'last']);
});
