/**
 * The rules of the events WebSocket (R-NM2) on fake sockets in virtual time: IS-07's 12 s
 * without `health` drops a client, health every 5 s keeps it; a client that stops reading
 * is dropped past its bound; a subscription is bounded.
 */
import test from 'ava';
import { type EventClient, EventClients } from '../../../lib/connections/nmos/event-clients.ts';
import type { StateMessage } from '../../../lib/connections/nmos/resource-shapes.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';

const SOURCE = '9f463872-9621-4939-aa3a-dc3c82d8578b';
const state: StateMessage = {
  message_type: 'state',
  identity: { source_id: SOURCE, flow_id: SOURCE },
  event_type: 'boolean',
  timing: { creation_timestamp: '1:0' },
  payload: { value: true },
};

function setUp(buffered = 0) {
  const clock = new VirtualClock();
  const refusals: string[] = [];
  const clients = new EventClients(clock.scheduler, {
    timeoutMs: 12_000,
    maxSources: 2,
    maxBufferedBytes: 1000,
    stateOf: (id) => (id === SOURCE ? state : undefined),
    refused: (_peer, reason) => refusals.push(reason),
  });
  const fake = () => {
    const sent: string[] = [];
    const ended: { at: number; reason: string }[] = [];
    const client: EventClient = {
      peer: 'spec',
      send: (text) => void sent.push(text),
      bufferedBytes: () => buffered,
      end: (reason) => {
        ended.push({ at: clock.now, reason });
        clients.closed(client);
      },
    };
    clients.opened(client);
    return { client, sent, ended };
  };
  clients.start();
  return { clock, clients, fake, refusals };
}

test('a client silent for 12 s is dropped; one sending health every 5 s stays (R-NM2)', (t) => {
  const { clock, clients, fake } = setUp();
  const silent = fake();
  const healthy = fake();
  for (let second = 5; second <= 60; second += 5) {
    clock.advanceBy(5000);
    clients.received(healthy.client, JSON.stringify({ command: 'health', timestamp: `${second}:0` }));
  }
  t.is(silent.ended.length, 1);
  const [dropped] = silent.ended;
  t.true((dropped?.at ?? 0) > 12_000 && (dropped?.at ?? 0) <= 15_000, `dropped at ${dropped?.at} ms`);
  t.regex(dropped?.reason ?? '', /no health command for 12000 ms/);
  t.deepEqual(healthy.ended, []);
  t.is(healthy.sent.length, 12, 'each health answered');
  t.is(clients.size, 1);
});

test('a client that stops reading is dropped past its bound; a subscription to more than maxSources is refused (R-NM2)', (t) => {
  const stuck = setUp(5000);
  const one = stuck.fake();
  stuck.clients.received(one.client, JSON.stringify({ command: 'subscription', sources: [SOURCE] }));
  t.deepEqual(one.sent, []);
  t.regex(one.ended[0]?.reason ?? '', /more than 1000 bytes waiting/);

  const { clients, fake, refusals } = setUp();
  const greedy = fake();
  clients.received(greedy.client, JSON.stringify({ command: 'subscription', sources: [SOURCE, 'b', 'c'] }));
  t.deepEqual(greedy.sent, []);
  t.regex(refusals[0] ?? '', /3 sources, more than the 2/);
  clients.received(greedy.client, JSON.stringify({ command: 'subscription', sources: [SOURCE, 'unknown'] }));
  t.deepEqual(
    greedy.sent.map((text) => JSON.parse(text)),
    [state],
    'the state of the known source; an unknown id is passed over',
  );
});
