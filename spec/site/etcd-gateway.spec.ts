/**
 * The few etcd calls a group makes (R-EG1), against a real three-member etcd on loopback: an
 * election key is created once, read back oldest first with its revision, and goes with its
 * lease; a member that is gone or paused costs one call, within its deadline, and the next
 * call goes to another member.
 */
import test from 'ava';
import { realTime } from '../../lib/core/scheduler.ts';
import { EtcdGateway, prefixEnd } from '../../lib/site/etcd/gateway.ts';
import { canRunEtcd, type EtcdCluster, startEtcdCluster, whyNoEtcd } from '../helpers/etcd-cluster.ts';
import { freePort } from '../helpers/ports.ts';

let cluster: EtcdCluster | undefined;
test.before(async () => {
  if (canRunEtcd) cluster = await startEtcdCluster();
});
test.after.always(async () => {
  await cluster?.stop();
});

test('the end of a prefix is the key just past every key that starts with it', (t) => {
  t.is(prefixEnd('/patchbay/studio/'), '/patchbay/studio0');
  // Bytes of UTF-8, as etcd compares keys: é is C3 A9, so its prefix ends at C3 AA.
  t.deepEqual([...Buffer.from(prefixEnd('é'), 'latin1')], [0xc3, 0xaa]);
});

test(`an election key is created once, read oldest first with its revision, and goes with its lease${whyNoEtcd}`, async (t) => {
  if (!cluster) return void t.pass();
  const gateway = new EtcdGateway(cluster.endpoints, realTime, 2000);
  const first = await gateway.grant(2);
  const second = await gateway.grant(2);
  t.true(first.ttlS >= 2);
  t.true(await gateway.create('/spec/g/1', 'a', first.id));
  t.false(await gateway.create('/spec/g/1', 'c', second.id), 'a key that exists is not put again');
  t.true(await gateway.create('/spec/g/2', 'b', second.id));
  const { entries } = await gateway.range('/spec/g/');
  t.deepEqual(
    entries.map((e) => e.value),
    ['a', 'b'],
  );
  t.true(entries[0]!.createRevision < entries[1]!.createRevision);
  t.true((await gateway.keepAlive(first.id)) > 0);
  await gateway.revoke(first.id);
  t.is(await gateway.keepAlive(first.id), 0, 'a lease given back is gone');
  t.deepEqual(
    (await gateway.range('/spec/g/')).entries.map((e) => e.value),
    ['b'],
    'its key went with it: b leads',
  );
});

test(`a member that is gone or paused costs one call within its deadline; the next goes to another${whyNoEtcd}`, async (t) => {
  if (!cluster) return void t.pass();
  const nobody = `http://127.0.0.1:${await freePort()}`;
  const gateway = new EtcdGateway([nobody, ...cluster.endpoints], realTime, 500);
  await t.throwsAsync(gateway.range('/x/'), { message: /127\.0\.0\.1/ });
  await t.notThrowsAsync(gateway.range('/x/'));
  // Paused: the member in use holds the call until the deadline.
  const member = cluster.members.find((m) => m.clientUrl === gateway.endpoint)!;
  member.kill('SIGSTOP');
  t.teardown(() => member.kill('SIGCONT'));
  const started = performance.now();
  await t.throwsAsync(gateway.range('/x/'), { message: /no answer within 500 ms/ });
  const waited = performance.now() - started;
  t.true(waited >= 450 && waited < 5000, `waited ${Math.round(waited)} ms`);
  t.not(gateway.endpoint, member.clientUrl);
  member.kill('SIGCONT');
});
