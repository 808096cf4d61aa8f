/**
 * `Stepped` (the public face): what a device's number steps start from while writes are
 * on their way — a key pressed twice steps twice, whatever the device says meanwhile.
 */
import test from 'ava';
import { Stepped } from '../../lib/sdk/index.ts';

/** Lets the promises of this turn run out. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A device that answers each write when told to, and records what it was sent and when. */
function device() {
  const sent: number[] = [];
  const answers: ((refused?: Error) => void)[] = [];
  const send = (value: number) =>
    new Promise<string>((resolve, reject) => {
      sent.push(value);
      answers.push((refused) => (refused ? reject(refused) : resolve(`took ${value}`)));
    });
  const answer = async (refused?: Error) => {
    answers.shift()?.(refused);
    await settled();
  };
  return { sent, send, answer };
}

test('a key pressed twice steps twice though the device has not said the first step; writes go one at a time (R-PK7)', async (t) => {
  const volume = new Stepped();
  const { sent, send, answer } = device();
  t.is(volume.now(-20), -20, 'nothing known yet');
  volume.heard(-10);
  const first = volume.write(volume.now(0) + 3, send);
  const second = volume.write(volume.now(0) + 3, send);
  await settled();
  t.deepEqual(sent, [-7], 'the second waits for the first answer');
  volume.heard(-10); // the device's word on the value before, while the writes are under way
  t.is(volume.now(0), -4, 'from the value written last');
  await answer();
  t.is(await first, 'took -7');
  t.deepEqual(sent, [-7, -4]);
  await answer();
  t.is(await second, 'took -4');
  volume.heard(-4.5);
  t.is(volume.now(0), -4.5, 'the device says another, with nothing under way: from its word');
});

test('a refused write is answered with the refusal, and steps start again from what the device said (R-PK7)', async (t) => {
  const delay = new Stepped();
  const { sent, send, answer } = device();
  delay.heard(100);
  const step = delay.write(delay.now(0) + 50, send);
  t.is(delay.now(0), 150);
  await settled();
  await answer(new Error('out of range'));
  await t.throwsAsync(step, { message: 'out of range' });
  t.is(delay.now(0), 100);
  const next = delay.write(delay.now(0) + 10, send);
  await settled();
  t.deepEqual(sent, [150, 110], 'a refusal does not stop the next write');
  await answer();
  t.is(await next, 'took 110');
});
