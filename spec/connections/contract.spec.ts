import { Type } from '@sinclair/typebox';
import test from 'ava';
import { defineServingType, type ServingContext } from '../../lib/connections/serving.ts';
import { asWritten, type ConnectionContext, defineConnectionType } from '../../lib/sdk/index.ts';
import { Graph } from '../../lib/core/graph.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { configOf, flowOf } from '../helpers/hub.ts';

/** Runs one connection of a type defined here, in a hub, and hands back the context its type was given. */
async function contextOf(t: import('ava').ExecutionContext, servesHub: boolean): Promise<ConnectionContext | ServingContext> {
  let seen: ConnectionContext | ServingContext | undefined;
  const instance = (context: ConnectionContext | ServingContext) => {
    seen = context;
    return { start() {}, stop() {} };
  };
  const base = { type: 'probe', summary: 'A probe.', settings: Type.Object({}), parse: asWritten };
  const type = servesHub
    ? defineServingType({ ...base, create: (context: ServingContext) => instance(context) })
    : defineConnectionType({ ...base, create: (context: ConnectionContext) => instance(context) });
  const probe = configOf('probe', type);
  const flow = flowOf({ connections: { probe: { type: 'dummy' } } });
  const hub = new Hub({ flow: { ...flow, connections: [probe] } });
  t.teardown(() => hub.stop());
  await hub.start();
  if (!seen) throw new Error('the probe was not created');
  return seen;
}

test('a connection type reads the graph through a view that cannot change it, and gets no hub services unless it declares servesHub', async (t) => {
  const context = await contextOf(t, false);
  t.false('hub' in context, 'no hub services');
  for (const member of ['connections', 'mirror', 'refuse', 'problems', 'rules', 'counts', 'connectionChanges$'])
    t.false(member in context, member);
  const graph = context.graph as unknown as Record<string, unknown>;
  for (const writer of [
    'define',
    'defineTable',
    'write',
    'remove',
    'removeParameters',
    'forget',
    'onDelivery',
    'keepWith',
    'traceWith',
    'causes',
  ]) {
    t.is(graph[writer], undefined, `graph.${writer} is out of reach`);
  }
  t.is(typeof context.graph.get, 'function');
  t.is(typeof context.graph.follow, 'function');
});

test('a type that declares servesHub gets the hub services, the whole graph among them', async (t) => {
  const context = await contextOf(t, true);
  t.true('hub' in context);
  const { hub } = context as ServingContext;
  t.true(hub.graph instanceof Graph);
  t.deepEqual(
    hub.connections().map((c) => c.id),
    ['probe'],
  );
  t.true(
    hub.connectionMetrics().some((metric) => metric.type === 'mqtt'),
    'each type reports its own metrics',
  );
});

test("each of the graph's hooks has one owner: another owner setting it is refused", (t) => {
  const graph = new Graph();
  graph.hooks.keepWith('hub', () => {});
  t.throws(() => graph.hooks.keepWith('someone else', () => {}), { message: "the graph's kept hook belongs to hub, not someone else" });
  graph.hooks.keepWith('hub', undefined);
  t.notThrows(() => graph.hooks.keepWith('someone else', () => {}), 'a hook let go may be taken');
  graph.hooks.followCausesWith('hub', { capture: () => undefined, resume: () => {}, end: () => {} });
  t.throws(() => graph.hooks.followCausesWith('rules', undefined));
});
