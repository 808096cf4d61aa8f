/**
 * A hub starts its connections side by side: a device that takes its whole connect timeout
 * to answer (a switched-off deck, a host that drops packets) holds up no other connection,
 * and the hub serves after the slowest start, not after the sum of them all.
 */
import { Type } from '@sinclair/typebox';
import test from 'ava';
import { asWritten, defineConnectionType } from '../../lib/sdk/index.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { capturedLog, configOf, flowOf } from '../helpers/hub.ts';

test('connections start together: each start is under way before any has ended, and the hub is started when the last one is', async (t) => {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const slow = (id: string) =>
    configOf(
      id,
      defineConnectionType({
        type: `slow-${id}`,
        summary: 'A connection whose start ends when the spec says.',
        settings: Type.Object({}),
        parse: asWritten,
        create: () => ({
          start: () =>
            new Promise<void>((resolve) => {
              started.push(id);
              finish.set(id, resolve);
            }),
          stop() {},
        }),
      }),
    );
  const flow = flowOf({ connections: { x: { type: 'dummy' } } });
  const hub = new Hub({ flow: { ...flow, connections: [slow('deck'), slow('router'), slow('mixer')] } });
  t.teardown(() => hub.stop());
  let done = false;
  const starting = hub.start().then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started, ['deck', 'router', 'mixer'], 'every start is under way while the first still waits');
  finish.get('router')?.();
  finish.get('deck')?.();
  await new Promise((resolve) => setImmediate(resolve));
  t.false(done, 'the hub waits for the slowest');
  finish.get('mixer')?.();
  await starting;
  t.true(done);
});

test("what a device says while the hub starts reaches the rules' destinations, as any later change would; declared defaults and fired triggers do not (R-R1, R-G3, R-DV2)", async (t) => {
  // A mixer that reads its state on connect: tally true, after its start's first await.
  const mixer = configOf(
    'mixer',
    defineConnectionType({
      type: 'reads-on-connect',
      summary: 'A device whose state is read as it connects.',
      settings: Type.Object({}),
      parse: asWritten,
      create: (context) => ({
        async start() {
          const tally = context.define('tally', { type: 'B', access: 'read-only', initial: false });
          const cut = context.define('cut', { type: 'T', access: 'read-only' });
          context.define('rate', { type: 'I', access: 'read-only', initial: 25 });
          await Promise.resolve();
          tally.report(true);
          cut.report(true);
        },
        stop() {},
      }),
    }),
  );
  const document = {
    connections: {
      mixer: { type: 'dummy', parameters: ['tally,B,false', 'cut,T', 'rate,I,25'] },
      lamps: { type: 'dummy', parameters: ['lh,I,0', 'cuts,I,0', 'rate,I,0'] },
    },
    rules: [
      { source: 'mixer/tally', destinations: ['lamps/lh'], pipe: [{ map: { true: 1, false: 0 } }] },
      { source: 'mixer/cut', destinations: ['lamps/cuts'], pipe: [{ set: 1 }] },
      { source: 'mixer/rate', destinations: ['lamps/rate'] },
    ],
  };
  const flow = flowOf(document);
  const hub = new Hub({ flow: { ...flow, connections: flow.connections.map((c) => (c.id === 'mixer' ? mixer : c)) } });
  t.teardown(() => hub.stop());
  await hub.start();
  t.is(hub.graph.get('lamps/lh')?.value, 1, 'the tally read at connect is on the lamp');
  t.is(hub.graph.get('lamps/cuts')?.value, 0, 'a trigger fired while starting is not fired again');
  t.is(hub.graph.get('lamps/rate')?.value, 0, 'a declared default is not sent');
  (hub.graph.get('mixer/tally') as import('../../lib/core/parameter.ts').OwnedParameter).report(false);
  t.is(hub.graph.get('lamps/lh')?.value, 0, 'and changes go on as ever');
});

test('a hub stopped while a connection still starts (Ctrl-C while a switcher is away) starts no rule after, and logs no "running" after "stopped"', async (t) => {
  let finish = () => {};
  const slow = configOf(
    'mixer',
    defineConnectionType({
      type: 'slow-mixer',
      summary: 'A connection whose start ends when the spec says.',
      settings: Type.Object({}),
      parse: asWritten,
      create: () => ({
        start: () => new Promise<void>((resolve) => (finish = resolve)),
        stop() {},
      }),
    }),
  );
  const flow = flowOf({
    connections: { studio: { type: 'dummy', parameters: ['a,B,false', 'b,B,false'] } },
    rules: [{ source: 'studio/a', destinations: ['studio/b'] }],
  });
  const { log, lines } = capturedLog();
  const hub = new Hub({ flow: { ...flow, connections: [...flow.connections, slow] }, log });
  const starting = hub.start();
  await new Promise((resolve) => setImmediate(resolve));
  const stopping = hub.stop();
  finish();
  await starting;
  await stopping;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const said = lines().map((line) => line.msg);
  t.true(said.includes('stopped'), said.join(' | '));
  t.false(
    said.slice(said.indexOf('stopped')).some((msg) => msg.startsWith('running:')),
    `nothing runs after the stop: ${said.join(' | ')}`,
  );
  t.false(
    said.some((msg) => msg.startsWith('rule ')),
    'no rule was started',
  );
});
