import test from 'ava';
import { param } from '../helpers/hub.ts';
import { Client, serve, settle } from '../helpers/http.ts';

const studio = { studio: { type: 'dummy', parameters: ['level,I,0', 'title,S,Morning', 'cue,T'] } };

test("?batch=1: the snapshot is one array, and each turn's changes one more, in the order and with the content of single messages (R-W1)", async (t) => {
  const { hub, port } = await serve(t, {}, studio);
  const single = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  const batched = await Client.open(t, `ws://127.0.0.1:${port}/ws?batch=1`);
  await single.untilCount(2);
  await batched.untilCount(1);
  t.deepEqual(batched.messages[0], [
    { p: 'studio/level', v: '0' },
    { p: 'studio/title', v: 'Morning' },
  ]);
  // One synchronous turn: 100 changes and a fire.
  for (let i = 1; i <= 100; i++) param(hub, 'studio/level').set(i);
  param(hub, 'studio/cue').set(true);
  await single.untilCount(2 + 101);
  await batched.untilCount(2);
  t.deepEqual(batched.messages[1], single.messages.slice(2));
  // The next turn is the next array.
  param(hub, 'studio/title').set('Evening');
  await batched.untilCount(3);
  t.deepEqual(batched.messages[2], [{ p: 'studio/title', v: 'Evening' }]);
  await settle(50);
  t.is(batched.messages.length, 3);
});

test("a batch client's own writes come back in its arrays; a bad batch value refuses the upgrade", async (t) => {
  const { port } = await serve(t, {}, studio);
  const batched = await Client.open(t, `ws://127.0.0.1:${port}/ws?batch=true&filter=level`);
  await batched.untilCount(1);
  batched.send([
    { p: 'studio/level', v: 5 },
    { p: 'studio/level', v: 6 },
  ]);
  await batched.untilCount(2);
  t.deepEqual(batched.messages[1], [
    { p: 'studio/level', v: '5' },
    { p: 'studio/level', v: '6' },
  ]);
  await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws?batch=yes`), { message: 'upgrade refused: 400' });
});

test('?maxHz=10: each parameter at most ten times a second, the latest value always; other clients get every change (R-W2)', async (t) => {
  const { hub, port } = await serve(t, {}, studio);
  const every = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=level`);
  const limited = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=level&maxHz=10`);
  const both = await Client.open(t, `ws://127.0.0.1:${port}/ws?filter=level&maxHz=10&batch=1`);
  for (const client of [every, limited, both]) await client.untilCount(1);
  const level = param(hub, 'studio/level');
  // 50 changes, 10 ms apart: half a second.
  for (let i = 1; i <= 50; i++) {
    level.set(i);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await every.untilCount(51);
  await limited.until((m) => (m.at(-1) as { v: string }).v === '50', 'the last value');
  await both.until((m) => JSON.stringify(m.at(-1)).includes('"v":"50"'), 'the last value in a batch');
  await settle(250);
  const sent = limited.messages.length - 1;
  t.log(`50 changes in ${sent} messages at maxHz=10`);
  t.true(sent <= 9, `${sent} messages in about half a second`);
  t.true(sent >= 2);
  t.is(every.messages.length, 51);
  t.true(both.messages.length - 1 <= 9);
});

test('?maxHz=5 on 100 busy parameters: a tick of 100 arrives as 100 text messages, each parameter with its last value (R-W2)', async (t) => {
  const ids = Array.from({ length: 100 }, (_, i) => `fader/${i}`);
  const { hub, port } = await serve(t, {}, { desk: { type: 'dummy', parameters: ids.map((id) => `${id},I,0`) } });
  const limited = await Client.open(t, `ws://127.0.0.1:${port}/ws?maxHz=5`);
  await limited.untilCount(100);
  // Six rounds of every fader, 20 ms apart: the first change goes out at once, the rest at one tick.
  for (let round = 1; round <= 6; round++) {
    for (const id of ids) param(hub, `desk/${id}`).set(round);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await limited.until(
    (m) => m.length >= 100 && ids.every((id) => (m.findLast((x) => (x as { p: string }).p === `desk/${id}`) as { v: string }).v === '6'),
    'every fader at 6',
  );
  await settle(300);
  t.is(limited.binaryMessages, 0, 'text, as a browser expects');
  t.true(limited.messages.length - 100 <= 300, `${limited.messages.length - 100} messages for 600 changes`);
});

test('a bad maxHz refuses the upgrade', async (t) => {
  const { port } = await serve(t, {}, studio);
  for (const bad of ['fast', '-1', '5000'])
    await t.throwsAsync(Client.open(t, `ws://127.0.0.1:${port}/ws?maxHz=${bad}`), { message: 'upgrade refused: 400' });
});
