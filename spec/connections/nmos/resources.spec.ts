/**
 * The node's resources as pure data (R-NM1): ids that stay the same for the same seed and
 * parameter, versions that advance when a resource changes and only then, and every
 * resource of the shape written for it (resource-shapes.ts, checked against AMWA's in
 * amwa-schemas.spec.ts).
 */
import test from 'ava';
import { Value } from '@sinclair/typebox/value';
import type { Json } from '../../../lib/core/value.ts';
import { eventTypeOf } from '../../../lib/connections/nmos/event-types.ts';
import { nmosId, seedOf } from '../../../lib/connections/nmos/identity.ts';
import { type NodeFacts, NodeModel, type ServedSource } from '../../../lib/connections/nmos/resources.ts';
import { shapeOf } from '../../../lib/connections/nmos/resource-shapes.ts';
import { nodeHostOf } from '../../../lib/connections/nmos/node-host.ts';

const facts: NodeFacts = {
  seed: 'studio-a',
  label: 'patchbay',
  description: '',
  host: '192.0.2.10',
  port: 3210,
  interfaces: [{ name: 'eth0', mac: '02-00-00-00-00-01' }],
};

const served = (address: string, label = address): ServedSource => ({
  address,
  label,
  description: '',
  event: eventTypeOf(address, 'B', undefined) as NonNullable<ReturnType<typeof eventTypeOf>>,
});

const seconds = (version: string) => version.split(':').map(Number) as [number, number];
const later = (a: string, b: string) => {
  const [as, an] = seconds(a);
  const [bs, bn] = seconds(b);
  return as > bs || (as === bs && an > bn);
};

test('the same seed and parameter give the same ids in another model, as after a restart; another seed gives others (R-NM1)', (t) => {
  const first = new NodeModel(() => 1_000);
  first.update(facts, [served('studio/onair'), served('studio/tally')]);
  const again = new NodeModel(() => 9_000);
  again.update(facts, [served('studio/tally'), served('studio/onair')]);
  t.deepEqual(
    again.all().map(({ id }) => id),
    first.all().map(({ id }) => id),
  );
  const other = new NodeModel(() => 1_000);
  other.update({ ...facts, seed: 'studio-b' }, [served('studio/onair'), served('studio/tally')]);
  const ids = new Set(first.all().map(({ id }) => id));
  t.false(
    other.all().some(({ id }) => ids.has(id)),
    'no id shared',
  );
  t.is(new Set(first.all().map(({ id }) => id)).size, 8, 'node, device, and a source, flow and sender each');
  t.regex(nmosId('x', 'node'), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('the seed is made once and kept in the records; a written seed wins (R-NM1)', (t) => {
  const kept = new Map<string, Json>();
  const records = {
    get: (key: string) => kept.get(key),
    set: (key: string, value: Json | undefined) => void (value === undefined ? kept.delete(key) : kept.set(key, value)),
  };
  const made = seedOf('', records);
  t.is(seedOf('', records), made);
  t.is(kept.get('seed'), made);
  t.is(seedOf('group-1', records), 'group-1');
});

test('registered in order: node, device, sources, flows, senders; each of its shape (R-NM1)', (t) => {
  const model = new NodeModel(() => 1_000);
  model.update(facts, [served('studio/onair'), served('desk/fader')]);
  const all = model.all();
  t.deepEqual(
    all.map(({ kind }) => kind),
    ['node', 'device', 'source', 'source', 'flow', 'flow', 'sender', 'sender'],
  );
  for (const { kind, data } of all)
    t.true(Value.Check(shapeOf[kind], data), `${kind}: ${JSON.stringify([...Value.Errors(shapeOf[kind], data)][0])}`);
  const { node, device, senders, flows, sources } = model.resources;
  t.deepEqual(
    device.senders,
    senders.map(({ id }) => id),
  );
  t.is(device.node_id, node.id);
  t.is(senders[0]?.flow_id, flows[0]?.id);
  t.is(flows[0]?.source_id, sources[0]?.id);
  t.deepEqual(node.api.endpoints, [{ host: '192.0.2.10', port: 3210, protocol: 'http' }]);
});

test('a version advances when its resource changes and only then (R-NM1)', (t) => {
  let now = 1_000;
  const model = new NodeModel(() => now);
  model.update(facts, [served('studio/onair')]);
  const before = new Map(model.all().map(({ id, data }) => [id, data.version]));
  t.deepEqual(model.update(facts, [served('studio/onair')]), { changed: [], removed: [] }, 'nothing changed, nothing to tell');
  // In the same millisecond: versions must still move.
  const changes = model.update(facts, [served('studio/onair', 'On air')]);
  t.deepEqual(
    changes.changed.map(({ kind }) => kind),
    ['source', 'flow', 'sender'],
  );
  for (const { id, data } of changes.changed)
    t.true(later(data.version, before.get(id) as string), `${data.version} after ${before.get(id)}`);
  t.true(model.resources.node.version === before.get(model.resources.node.id), 'the node did not change');
  now = 2_000;
  const added = model.update(facts, [served('studio/onair', 'On air'), served('studio/tally')]);
  t.deepEqual(
    added.changed.map(({ kind }) => kind),
    ['device', 'source', 'flow', 'sender'],
    'the device lists the new sender',
  );
  const gone = model.update(facts, [served('studio/tally')]);
  t.deepEqual(
    gone.removed.map(({ kind }) => kind),
    ['sender', 'flow', 'source'],
    'deleted senders first',
  );
});

test('event types come from what a parameter says of itself (R-NM2)', (t) => {
  t.deepEqual(eventTypeOf('a/onair', 'B', undefined), { eventType: 'boolean', definition: { type: 'boolean' } });
  t.deepEqual(eventTypeOf('a/title', 'S', undefined), { eventType: 'string', definition: { type: 'string' } });
  t.deepEqual(eventTypeOf('desk/fader gain', 'F', { unit: 'dB', minimum: -80, maximum: 10, step: 0.5 }), {
    eventType: 'number/fader_gain/dB',
    definition: { type: 'number', min: { value: -80 }, max: { value: 10 }, step: { value: 0.5 }, unit: 'dB' },
  });
  t.deepEqual(eventTypeOf('a/count', 'I', undefined)?.definition, {
    type: 'number',
    min: { value: Number.MIN_SAFE_INTEGER },
    max: { value: Number.MAX_SAFE_INTEGER },
  });
  t.deepEqual(
    eventTypeOf('router/source', 'I', {
      choices: [
        { value: 1, label: 'Camera 1' },
        { value: 2, label: 'Camera 2' },
      ],
    }),
    {
      eventType: 'number/enum/source',
      definition: {
        type: 'number',
        values: [
          { value: 1, label: 'Camera 1', description: 'Camera 1' },
          { value: 2, label: 'Camera 2', description: 'Camera 2' },
        ],
      },
    },
  );
  t.is(eventTypeOf('a/cue', 'T', undefined), undefined, 'a trigger has no state');
});

test('the node says the host written, or the first IPv4 address not loopback, with its interface (R-NM1)', (t) => {
  const interfaces = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true, mac: '00:00:00:00:00:00', netmask: '255.0.0.0', cidr: null }],
    eth0: [
      { address: 'fe80::1', family: 'IPv6', internal: false, mac: '02:00:00:00:00:AA', netmask: 'ffff::', cidr: null, scopeid: 2 },
      { address: '192.0.2.10', family: 'IPv4', internal: false, mac: '02:00:00:00:00:AA', netmask: '255.255.255.0', cidr: null },
    ],
  } as const;
  t.deepEqual(nodeHostOf('', '', interfaces as never), { host: '192.0.2.10', interfaces: [{ name: 'eth0', mac: '02-00-00-00-00-aa' }] });
  t.is(nodeHostOf('node.studio', '', interfaces as never).host, 'node.studio');
  t.deepEqual(nodeHostOf('', '127.0.0.1', interfaces as never), {
    host: '127.0.0.1',
    interfaces: [{ name: 'lo', mac: '00-00-00-00-00-00' }],
  });
});
