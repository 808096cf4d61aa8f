/**
 * A hub starts its connections side by side: a device that takes its whole connect timeout
 * to answer (a switched-off deck, a host that drops packets) holds up no other connection,
 * and the hub serves after the slowest start, not after the sum of them all.
 */
import { Type } from '@sinclair/typebox';
import test from 'ava';
import { asWritten, defineConnectionType } from '../../lib/sdk/index.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { configOf, flowOf } from '../helpers/hub.ts';

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
