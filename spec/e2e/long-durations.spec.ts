import test from 'ava';
import { param, record, startHub } from '../helpers/hub.ts';

const long = 2 ** 31; // one more than a Node timer holds
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('in a running hub, durations of 2^31 ms and more wait as written: timers, pulses, timed steps and timed logic', async (t) => {
  const hub = await startHub(t, {
    connections: {
      clock: {
        type: 'timer',
        timers: [{ duration: long }, { duration: 1000 }],
        pulses: [{ interval: long }, { interval: 40 * 24 * 3600 * 1000 }],
      },
      vars: { type: 'dummy', parameters: ['in,B', 'delayed,B', 'debounced,B', 'throttled,I'] },
      core: { type: 'virtual-core', logics: 0, functions: [{ id: 'late', op: 'delay-on', inputs: ['vars/in'], ms: long }] },
    },
    rules: [
      { source: 'vars/in', destinations: ['vars/delayed'], pipe: [{ delay: long }] },
      { source: 'vars/in', destinations: ['vars/debounced'], pipe: [{ debounce: long }] },
      { source: 'vars/in', destinations: ['vars/throttled'], pipe: [{ set: 1 }, { throttle: long }] },
    ],
  });
  const seen = [
    record(t, param(hub, 'clock/timer/1/trigger')),
    record(t, param(hub, 'clock/timer/2/trigger')),
    record(t, param(hub, 'clock/pulse/1')),
    record(t, param(hub, 'clock/pulse/2')),
    record(t, param(hub, 'vars/delayed')),
    record(t, param(hub, 'vars/debounced')),
    record(t, param(hub, 'core/function/late')),
  ];
  const throttled = record(t, param(hub, 'vars/throttled'));
  param(hub, 'clock/timer/1/start').set(true); // the configured 2^31 ms
  param(hub, 'clock/timer/2/start').set(String(3 * long)); // written at run time
  param(hub, 'vars/in').set(true);
  await pause(300);
  param(hub, 'vars/in').set(false);
  param(hub, 'vars/in').set(true);
  await pause(100);
  t.deepEqual(
    seen.map((values) => values.length),
    [0, 0, 0, 0, 0, 0, 0],
  );
  t.deepEqual(throttled, [[0, 1]], 'a throttle passes the first value at once and holds the rest');
});
