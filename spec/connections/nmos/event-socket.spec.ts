/**
 * A receiver's link to an IS-07 sender (R-NM3), against a real `ws` server, its timers in
 * virtual time: a subscription to the one source on connect, health every 5 s, a sender that
 * goes silent dropped after 12 s and dialled again after the backoff, and one that is not
 * there at all said so, without a throw.
 */
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { WebSocketServer } from 'ws';
import { EventSocket } from '../../../lib/connections/nmos/event-socket.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';

const sourceId = '9f463872-9621-4939-aa3a-dc3c82d8578b';

const until = async (what: string, check: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

function linkTo(url: string, clock: VirtualClock) {
  const states: unknown[] = [];
  const problems: (string | undefined)[] = [];
  const link = new EventSocket({
    url,
    sourceId,
    scheduler: clock.scheduler,
    maxMessageBytes: 1024,
    maxMessagesPerSecond: 100,
    healthMs: 5000,
    silentMs: 12_000,
    state: (value) => states.push(value),
    status: (problem) => problems.push(problem),
  });
  return { link, states, problems };
}

test('a sender that goes silent is dropped after 12 s and dialled again after the backoff; health goes every 5 s meanwhile (R-NM3)', async (t) => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const commands: { connection: number; command: string; sources?: string[] }[] = [];
  let connections = 0;
  server.on('connection', (socket) => {
    const connection = ++connections;
    socket.on('message', (data) => {
      const command = JSON.parse(data.toString()) as { command: string; sources?: string[] };
      commands.push({ connection, ...command });
      // Answers the first subscription with the state, then never says anything again.
      if (command.command === 'subscription' && connection === 1) {
        socket.send(JSON.stringify({ message_type: 'state', identity: { source_id: sourceId }, payload: { value: true } }));
      }
    });
  });
  const clock = new VirtualClock();
  const { link, states, problems } = linkTo(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`, clock);
  t.teardown(() => link.stop());
  link.start();
  await until('the subscription', () => commands.length >= 1);
  clock.advanceBy(0);
  await until('the state', () => states.length === 1);
  t.deepEqual(commands[0], { connection: 1, command: 'subscription', sources: [sourceId] });
  t.is(problems.at(-1), undefined, 'answered: no problem');
  clock.advanceBy(10_000);
  await until('two health commands', () => commands.filter(({ command }) => command === 'health').length >= 3);
  t.is(connections, 1, 'still the first link at 10 s');
  clock.advanceBy(5000);
  t.regex(problems.at(-1) ?? '', /sent nothing for 12000 ms; connecting again in 1 s/);
  t.is(link.drops, 1);
  clock.advanceBy(1000);
  await until('the second link and its subscription', () =>
    commands.some(({ connection, command }) => connection === 2 && command === 'subscription'),
  );
  t.is(connections, 2);
});

test('a sender that is not there is said, and dialled again with a backoff that doubles (R-NM3)', async (t) => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  const clock = new VirtualClock();
  const { link, problems } = linkTo(`ws://127.0.0.1:${port}/`, clock);
  t.teardown(() => link.stop());
  link.start();
  await until('the refusal', () => problems.length === 1);
  t.regex(problems[0] ?? '', /ECONNREFUSED.*connecting again in 1 s/);
  clock.advanceBy(1000);
  await until('the second refusal', () => problems.length === 2);
  t.regex(problems[1] ?? '', /connecting again in 2 s/);
  link.stop();
  clock.advanceBy(10_000);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(problems.length, 2, 'stopped, it dials no more');
});
