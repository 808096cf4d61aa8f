/**
 * Ember+ (R-E1): the hub's ember-provider beside emberplus-connection's own `EmberServer`
 * doing the same job, in the same process and run. Changes/s: 100 integer parameters changed
 * in bursts, counted once every one of 10 `EmberClient` consumers has seen the last value of
 * each. Round trip: one consumer's setValue answered, one at a time, p99.
 */
import { createServer } from 'node:net';
import { EmberClient, EmberServer, Model } from 'emberplus-connection';
import { Hub } from '../lib/hub/hub.ts';
import { validateFlow } from '../lib/config/flow-file.ts';
import { nowMs, percentile } from './lib/clock.ts';

const PARAMETERS = 100;
const CONSUMERS = 10;

interface Target {
  port: number;
  /** Sets parameter `i` to `value` as the provider's own change. */
  change(i: number, value: number): void;
  stop(): Promise<void>;
}

async function libraryServer(port: number): Promise<Target> {
  const children: Record<number, Model.NumberedTreeNode<Model.EmberElement>> = {};
  for (let i = 0; i < PARAMETERS; i++) {
    const contents = new Model.ParameterImpl(
      Model.ParameterType.Integer,
      `p${i}`,
      undefined,
      0,
      undefined,
      undefined,
      Model.ParameterAccess.ReadWrite,
    );
    children[i + 1] = new Model.NumberedTreeNodeImpl(i + 1, contents as never) as never;
  }
  const node = new Model.NumberedTreeNodeImpl(1, new Model.EmberNodeImpl('bench') as never, children as never);
  const server = new EmberServer(port, '127.0.0.1');
  // Its own client sends setValue with empty children, which it would ignore: take them as none.
  const handle = (
    server as unknown as { _handleNode: (p: string, el: { children?: object | undefined }, c: unknown) => void }
  )._handleNode.bind(server);
  (server as unknown as { _handleNode: typeof handle })._handleNode = (path, element, client) => {
    if (element.children && Object.keys(element.children).length === 0) element.children = undefined;
    handle(path, element, client);
  };
  server.onSetValue = async (element, value) => {
    server.update(element, { value });
    return true;
  };
  server.on('error', () => {});
  await server.init({ 1: node } as never);
  return {
    port,
    change: (i, value) => server.update(children[i + 1] as never, { value }),
    stop: async () => server.discard(),
  };
}

async function hubProvider(port: number): Promise<Target> {
  const lines = Array.from({ length: PARAMETERS }, (_, i) => `p${i},I,0`);
  const result = validateFlow(
    {
      connections: {
        bench: { type: 'dummy', parameters: lines },
        ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['bench/#'] },
      },
    },
    '/virtual/flow.json5',
  );
  if (!result.ok) throw result.error;
  const hub = new Hub({ flow: result.flow });
  await hub.start();
  const parameters = Array.from({ length: PARAMETERS }, (_, i) => hub.graph.get(`bench/p${i}`));
  return { port, change: (i, value) => void parameters[i]?.set(value), stop: () => hub.stop() };
}

async function consumerOf(port: number): Promise<{ client: EmberClient; elements: Model.TreeElement<Model.Parameter>[] }> {
  const client = new EmberClient('127.0.0.1', port, 10_000);
  client.on('error', () => {});
  await client.connect();
  await client.expand(client.tree as never);
  const elements = [];
  for (let i = 0; i < PARAMETERS; i++) elements.push((await client.getElementByPath(`bench.p${i}`)) as Model.TreeElement<Model.Parameter>);
  return { client, elements };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Changes per second that reached every consumer, and the p99 of a setValue round trip in ms. */
async function measure(target: Target, seconds: number): Promise<{ changesPerSecond: number; roundTripP99: number }> {
  const consumers = await Promise.all(Array.from({ length: CONSUMERS }, () => consumerOf(target.port)));
  let value = 0;
  let changes = 0;
  const started = nowMs();
  while (nowMs() - started < seconds * 1000) {
    value++;
    for (let i = 0; i < PARAMETERS; i++) target.change(i, value);
    changes += PARAMETERS;
    // Bursts wait for every consumer to have the burst: the rate is what reaches them all.
    while (!consumers.every(({ elements }) => elements.every((element) => element.contents.value === value))) await tick();
  }
  const changesPerSecond = changes / ((nowMs() - started) / 1000);
  const [{ client, elements }] = consumers as [(typeof consumers)[0]];
  const times: number[] = [];
  const target0 = elements[0] as Model.TreeElement<Model.Parameter>;
  const roundTripsUntil = nowMs() + seconds * 1000;
  while (nowMs() < roundTripsUntil) {
    const sent = nowMs();
    await (await client.setValue(target0 as never, -++value)).response;
    times.push(nowMs() - sent);
  }
  for (const consumer of consumers) consumer.client.discard();
  return { changesPerSecond, roundTripP99: percentile(times, 99) };
}

export async function measureEmber(seconds: number) {
  const direct = await libraryServer(await freePort());
  const baseline = await measure(direct, seconds);
  await direct.stop();
  const hub = await hubProvider(await freePort());
  const patchbay = await measure(hub, seconds);
  await hub.stop();
  return { baseline, patchbay };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
