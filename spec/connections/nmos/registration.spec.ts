/**
 * Registration with IS-04 registries (R-NM1), against a registry written for the specs
 * (helpers/nmos-registry.ts): each spec scripts what a registry may do — forget the node,
 * hold a stale record, fail, hang — and reads the order of what it was told.
 */
import test, { type ExecutionContext } from 'ava';
import { asyncScheduler } from 'rxjs';
import { nmosId } from '../../../lib/connections/nmos/identity.ts';
import { Registration } from '../../../lib/connections/nmos/registration.ts';
import { RegistryFailure } from '../../../lib/connections/nmos/registry-requests.ts';
import { NodeModel } from '../../../lib/connections/nmos/resources.ts';
import { eventually } from '../../helpers/eventually.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';
import { registry } from '../../helpers/nmos-registry.ts';
import { flowOf, startHub } from '../../helpers/hub.ts';

const REGISTERED = ['POST node', 'POST device', 'POST source', 'POST source', 'POST flow', 'POST flow', 'POST sender', 'POST sender'];

async function nodeHub(t: ExecutionContext, registries: string[], nmos: object = {}) {
  const hub = await startHub(t, {
    connections: {
      studio: {
        type: 'dummy',
        parameters: ['onair,B,false', 'gain,F,0', 'cue,T'],
        describe: { gain: { unit: 'dB', minimum: -80, maximum: 10 } },
      },
      node: {
        type: 'nmos',
        port: 0,
        bindIp: '127.0.0.1',
        host: '127.0.0.1',
        expose: ['studio/#'],
        registries,
        heartbeatMs: 200,
        // Long enough that a loaded machine's slow answer is not taken for a hang (the spec of hangs sets its own).
        requestTimeoutMs: 2000,
        seed: 'registration-spec',
        ...nmos,
      },
    },
  });
  const info = () => hub.connection('node')?.info;
  return { hub, info };
}

test('node, device, sources, flows and senders are registered in order, each valid, then a heartbeat every heartbeatMs; stop deletes them, senders first (R-NM1)', async (t) => {
  const registered = await registry(t);
  const { hub, info } = await nodeHub(t, [registered.url], { requestTimeoutMs: 2000 });
  await eventually(() => registered.requests.filter((request) => request === 'heartbeat').length >= 3, 'three heartbeats');
  t.deepEqual(registered.told(), REGISTERED);
  t.deepEqual(registered.invalid, []);
  t.is(registered.held.size, 8);
  t.is(info()?.status, 'ok');
  t.is(registered.requests.indexOf('heartbeat'), REGISTERED.length, 'the first heartbeat after the last registration');
  const from = registered.requests.length;
  await hub.stop();
  t.deepEqual(registered.told(from), [
    'DELETE sender',
    'DELETE sender',
    'DELETE flow',
    'DELETE flow',
    'DELETE source',
    'DELETE source',
    'DELETE device',
    'DELETE node',
  ]);
  t.is(registered.held.size, 0);
});

test('a 404 to a heartbeat (the registry forgot the node) registers everything again, in order (R-NM1)', async (t) => {
  const registered = await registry(t);
  const { info } = await nodeHub(t, [registered.url]);
  await eventually(() => registered.requests.includes('heartbeat'), 'a heartbeat');
  const from = registered.requests.length;
  registered.held.clear();
  await eventually(() => registered.told(from).length >= REGISTERED.length, 'registered again');
  t.deepEqual(registered.told(from).slice(0, REGISTERED.length), REGISTERED);
  t.is(registered.requests.slice(from).indexOf('heartbeat'), 0, 'the heartbeat that was answered 404 came first');
  t.is(info()?.details?.['registrations'], 2);
});

test('a 200 to the first POST of the node (a stale record) deletes it and registers it anew (R-NM1)', async (t) => {
  const registered = await registry(t);
  registered.held.set(nmosId('registration-spec', 'node'), { kind: 'node' });
  await nodeHub(t, [registered.url]);
  await eventually(() => registered.requests.includes('heartbeat'), 'a heartbeat');
  t.deepEqual(registered.told().slice(0, 4), ['POST node', 'DELETE node', 'POST node', 'POST device']);
});

test('a registry answering 5xx, or not answering, moves the node to the next registry; the connection says so meanwhile (R-NM1)', async (t) => {
  const failing = await registry(t, () => 503);
  const hanging = await registry(t, () => 'hang');
  const working = await registry(t);
  const { info } = await nodeHub(t, [failing.url, hanging.url, working.url], { requestTimeoutMs: 400 });
  const seen: string[] = [];
  await eventually(() => {
    const now = info();
    if (now?.status === 'degraded') seen.push(`${now.reason}`);
    return working.requests.includes('heartbeat');
  }, 'registered with the third registry');
  t.deepEqual(failing.told(), ['POST node']);
  t.deepEqual(hanging.requests, ['POST /resource (hung)']);
  t.deepEqual(working.told(), REGISTERED);
  t.is(info()?.status, 'ok');
  t.is(info()?.details?.['registry'], working.url);
  t.true(
    seen.some((reason) => reason.includes('answered 503')),
    seen.join(' | '),
  );
  t.true(
    seen.some((reason) => reason.includes('no answer within 400 ms')),
    seen.join(' | '),
  );
});

test("moved to another registry of the same cluster, the node's first request there is a heartbeat: the cluster holds it, so nothing is registered or deleted again (R-NM1)", async (t) => {
  const cluster = new Map<string, { kind: string }>();
  let failing = false;
  const first = await registry(t, (_method, path) => (failing && path.startsWith('/health/') ? 503 : undefined), cluster);
  const second = await registry(t, () => undefined, cluster);
  const { info } = await nodeHub(t, [first.url, second.url]);
  await eventually(() => first.requests.includes('heartbeat'), 'registered with the first');
  failing = true;
  await eventually(() => info()?.details?.['registry'] === second.url && info()?.status === 'ok', 'moved to the second');
  await eventually(() => second.requests.length >= 2, 'two heartbeats at the second');
  t.deepEqual(second.requests.slice(0, 2), ['heartbeat', 'heartbeat'], 'no node registered again, none deleted');
  t.deepEqual(first.told(), REGISTERED);
  t.is(cluster.size, 8);
  t.is(info()?.details?.['registrations'], 1);
});

test('moved to a registry that does not hold the node, the heartbeat is answered 404 and everything is registered there, in order (R-NM1)', async (t) => {
  let failing = false;
  const first = await registry(t, (_method, path) => (failing && path.startsWith('/health/') ? 503 : undefined));
  const second = await registry(t);
  await nodeHub(t, [first.url, second.url]);
  await eventually(() => first.requests.includes('heartbeat'), 'registered with the first');
  failing = true;
  await eventually(() => second.told().length >= REGISTERED.length, 'registered with the second');
  t.deepEqual(second.requests.slice(0, REGISTERED.length + 1), ['heartbeat', ...REGISTERED]);
});

test('with no registries and no DNS-SD the node serves its APIs and registers nowhere (R-NM1)', async (t) => {
  const { info } = await nodeHub(t, [], { dnsSd: false });
  t.is(info()?.status, 'ok');
  t.is(info()?.details?.['registry'], undefined);
});

test('a parameter that comes is registered at once, with the device that lists its sender; one that goes is deleted, sender first (R-NM1)', async (t) => {
  const registered = await registry(t);
  const node = {
    type: 'nmos',
    port: 0,
    bindIp: '127.0.0.1',
    host: '127.0.0.1',
    expose: ['studio/#'],
    registries: [registered.url],
    heartbeatMs: 5000,
    seed: 'changes-spec',
  };
  const flow = (parameters: string[]) => flowOf({ connections: { studio: { type: 'dummy', parameters }, node } });
  const hub = await startHub(t, { connections: { studio: { type: 'dummy', parameters: ['onair,B,false'] }, node } });
  await eventually(() => registered.held.size === 5, 'node, device, source, flow, sender registered');
  let from = registered.requests.length;
  await hub.reload(flow(['onair,B,false', 'tally,B,true']));
  // Long before the next heartbeat: a change is told at once.
  await eventually(() => registered.held.size === 8, 'the new source registered', 2000);
  t.deepEqual(registered.told(from), ['POST device', 'POST source', 'POST flow', 'POST sender']);
  t.deepEqual(registered.invalid, []);
  from = registered.requests.length;
  await hub.reload(flow(['tally,B,true']));
  await eventually(() => registered.held.size === 5, 'the gone source deleted', 2000);
  t.deepEqual(registered.told(from), ['POST device', 'DELETE sender', 'DELETE flow', 'DELETE source']);
});

test('a registry that fails makes DNS-SD ask the network again, so one whose announcement was missed is tried next in its order, not skipped (R-NM1)', async (t) => {
  // c (priority between b and d) was not heard yet: AMWA's failover test once saw the node skip it.
  let found = ['http://a', 'http://b', 'http://d'];
  let asked = 0;
  const origins: string[] = [];
  const model = new NodeModel(() => Date.now());
  model.update({ seed: 's', label: 'n', description: '', host: '127.0.0.1', port: 3210, interfaces: [] }, []);
  const registration = new Registration(model, {
    registries: () => found,
    lookAgain: () => {
      asked++;
      found = ['http://a', 'http://b', 'http://c', 'http://d'];
    },
    heartbeatMs: 60_000,
    stopDeadlineMs: 500,
    request: async (_method, url) => {
      const origin = new URL(url).origin;
      origins.push(origin);
      if (origin === 'http://a' || origin === 'http://b') throw new RegistryFailure('PB_DEVICE_UNAVAILABLE', 'answered 503');
      return 201;
    },
    scheduler: asyncScheduler,
    state: () => {},
  });
  t.teardown(() => registration.stop());
  registration.start();
  await eventually(() => origins.length >= 3, 'the third registry tried', 10_000);
  t.deepEqual([...new Set(origins)], ['http://a', 'http://b', 'http://c']);
  t.true(asked >= 1);
});

test('a registry that held the node fails: the next is tried within a moment, not after the backoff, so the node is registered elsewhere before it is forgotten (R-NM1)', async (t) => {
  // On a virtual clock: what is measured is the node's wait, which a loaded machine's real time would blur.
  const clock = new VirtualClock();
  let failing = false;
  let failedAt: number | undefined;
  let movedAt: number | undefined;
  const model = new NodeModel(() => clock.now);
  model.update({ seed: 's', label: 'n', description: '', host: '127.0.0.1', port: 3210, interfaces: [] }, []);
  const registration = new Registration(model, {
    registries: () => ['http://first', 'http://second'],
    heartbeatMs: 5000,
    stopDeadlineMs: 500,
    request: async (method, url) => {
      const { origin, pathname } = new URL(url);
      const heartbeat = pathname.includes('/health/');
      if (origin === 'http://first' && failing && heartbeat) {
        failedAt ??= clock.now;
        throw new RegistryFailure('PB_DEVICE_UNAVAILABLE', 'answered 503');
      }
      if (origin === 'http://second') movedAt ??= clock.now;
      return method === 'POST' && !heartbeat ? 201 : 200; // the second holds the node too: a cluster
    },
    scheduler: clock.scheduler,
    state: () => {},
  });
  t.teardown(() => registration.stop());
  registration.start();
  const step = async (ms: number) => {
    for (let at = 0; at < ms; at += 10) {
      clock.advanceBy(10);
      for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    }
  };
  await step(6000); // registered with the first, and a heartbeat
  failing = true;
  await step(7000);
  t.not(failedAt, undefined, 'the first failed a heartbeat');
  t.not(movedAt, undefined, 'the second was asked');
  const waited = (movedAt as number) - (failedAt as number);
  t.true(waited <= 250, `the second asked ${waited} ms after the first failed (the backoff is 1000 ms)`);
});
