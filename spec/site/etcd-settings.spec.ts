/**
 * `hub.coordinator.etcd` in a flow file (R-EG1): a group of any size names its etcd members,
 * and the file says what keeps them from deciding.
 */
import test from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { siteKeyFile } from '../helpers/site-key.ts';

const flowWith = (hub: Record<string, unknown>) =>
  validateFlow(
    {
      connections: { bus: { type: 'mqtt', url: 'mqtt://127.0.0.1:1883', hub: { id: 'a', share: [], key: { file: siteKeyFile }, ...hub } } },
    },
    '/virtual/flow.json5',
  );
const issuesOf = (hub: Record<string, unknown>) => {
  const result = flowWith(hub);
  return result.ok ? [] : result.issues.map(formatIssue);
};
const etcd = { endpoints: ['http://10.0.0.21:2379', 'http://10.0.0.22:2379', 'http://10.0.0.23:2379'] };

test('a group of four hubs on etcd is a valid group', (t) => {
  const result = flowWith({ group: 'studio', members: ['a', 'b', 'c', 'd'], coordinator: { etcd } });
  t.true(result.ok, JSON.stringify(result.ok ? '' : result.issues));
  if (!result.ok) return;
  const bus = result.flow.connections[0]!;
  t.is(bus.plan.redundancyGroup, 'studio');
});

test('an etcd coordinator needs a group, is not beside voters, and moves the role by itself', (t) => {
  t.true(issuesOf({ coordinator: { etcd } }).some((m) => m.includes('set hub.group too')));
  const both = issuesOf({
    group: 'studio',
    members: ['a', 'b'],
    voters: { a: '127.0.0.1:1', b: '127.0.0.1:2', w: '127.0.0.1:3' },
    coordinator: { etcd },
  });
  t.true(both.some((m) => m.includes('either voters or a coordinator')));
  t.true(issuesOf({ group: 'studio', failover: 'manual', coordinator: { etcd } }).some((m) => m.includes('failover "manual"')));
});

test('an endpoint is a client URL, and a lease shorter than a second is refused', (t) => {
  t.true(issuesOf({ group: 'studio', coordinator: { etcd: { endpoints: ['10.0.0.21:2379'] } } }).some((m) => m.includes('endpoints')));
  t.true(issuesOf({ group: 'studio', coordinator: { etcd: { ...etcd, leaseMs: 500 } } }).some((m) => m.includes('leaseMs')));
});
