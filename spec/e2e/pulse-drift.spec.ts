import test from 'ava';
import { param, startHub } from '../helpers/hub.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

test('on the real clock, a pulse does not drift over 200 fires', async (t) => {
  const interval = 10;
  const fires = 200;
  const started = Date.now();
  const hub = await startHub(t, { connections: { clock: { type: 'timer', pulses: [{ interval }] } } });
  const lateness: number[] = [];
  await new Promise<void>((resolve) => {
    const subscription = param(hub, 'clock/pulse/1').changes$.subscribe(() => {
      lateness.push(Date.now() - (started + (lateness.length + 1) * interval));
      if (lateness.length === fires) {
        subscription.unsubscribe();
        resolve();
      }
    });
  });
  // A clock that plans each fire from the previous one gains a little lateness with every
  // fire (0.1–1 ms each here), which adds up to tens of ms by the end. Planned from the
  // start, the typical lateness at the end is what it was at the beginning. Medians keep
  // a single slow turn of a busy machine from deciding the outcome.
  const early = median(lateness.slice(0, 30));
  const late = median(lateness.slice(-30));
  t.log(`median lateness: first 30 fires ${early} ms, last 30 fires ${late} ms`);
  t.true(late - early < 10, `lateness grew from ${early} ms to ${late} ms`);
});
