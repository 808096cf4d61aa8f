/**
 * A redundancy group of three hubs on etcd (R-EG1, R-EG2): a real three-member etcd cluster on
 * loopback (started here, stopped by PID), a real Mosquitto for values and role records,
 * three real hub processes and a TCP device that records each command. Exactly one hub
 * drives; paused, it loses the role to another, and when it wakes its writes are refused
 * (its revision is older than the driver's); killed, another takes over within a bound
 * measured here, generous for a noisy machine.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { CoordinatorDetails } from '../../lib/core/api-shapes.ts';
import { brokerOfFile } from '../helpers/broker-tests.ts';
import { recordingDevice } from '../helpers/devices.ts';
import { canRunEtcd, type EtcdCluster, startEtcdCluster, whyNoEtcd } from '../helpers/etcd-cluster.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { canRunBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKeyFile } from '../helpers/site-key.ts';

const broker = brokerOfFile();
let cluster: EtcdCluster | undefined;
test.before(async () => {
  if (canRunEtcd && canRunBroker) cluster = await startEtcdCluster();
});
test.after.always(async () => {
  await cluster?.stop();
});

const ids = ['a', 'b', 'c'] as const;

async function groupFlow(devicePort: number, endpoints: readonly string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-etcd-group-'));
  const flow = join(dir, 'studio.json5');
  await writeFile(
    flow,
    JSON.stringify({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        bus: {
          type: 'mqtt',
          url: broker.url,
          hub: {
            id: '${HUB}',
            group: 'studio',
            members: [...ids],
            coordinator: { etcd: { endpoints, leaseMs: 2000, prefix: `/spec-${Date.now()}/` } },
            share: [],
            key: { file: siteKeyFile },
          },
        },
        router: {
          type: 'tcp-client',
          host: '127.0.0.1',
          port: devicePort,
          parameters: ['dest/1,I'],
          receive: [],
          // The device hears each command's fencing token: the driver's election revision (R-EG2).
          send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE T$TOKEN\n' }],
        },
      },
    }),
  );
  return flow;
}

/** libfaketime (Debian's faketime): hub a's wall clock 500 ms ahead, b's 500 ms behind, their monotonic clocks left alone (R-EG2). */
const faketime = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const skews: Record<string, string> = { a: '+0.5', b: '-0.5' };
const skewed = (id: string): Record<string, string> =>
  existsSync(faketime) && skews[id]
    ? { LD_PRELOAD: faketime, FAKETIME: skews[id], FAKETIME_DONT_FAKE_MONOTONIC: '1', FAKETIME_NO_CACHE: '1' }
    : {};
const hubIn = (t: ExecutionContext, flow: string, id: string) =>
  runHub(t, flow, { env: { HUB: id, ...skewed(id) }, args: ['--state', join(dirname(flow), `state-${id}`)] });
const update = async (hub: HubProcess, value: string) => {
  const response = await fetch(`${hub.base}/update?parameter=router/dest/1&value=${value}`, { headers: { accept: 'application/json' } });
  return { status: response.status, body: (await response.json()) as { ok?: boolean; code?: string } };
};
/** True for the device's line of a route to `value`, whatever its token. */
const routes = (l: { line: string }, value: string) => l.line.startsWith(`ROUTE 1 ${value} T`);
const tokenOf = (l: { line: string }) => Number(l.line.slice(l.line.lastIndexOf(' T') + 2));
const roleOf = (hub: HubProcess) => hub.read('bus/_hub/role').catch(() => 'gone');
async function coordinatorOf(hub: HubProcess): Promise<CoordinatorDetails | undefined> {
  const connections = (await (await fetch(`${hub.base}/connections`)).json()) as {
    id: string;
    details?: { redundancy?: { coordinator?: CoordinatorDetails } };
  }[];
  return connections.find((c) => c.id === 'bus')?.details?.redundancy?.coordinator;
}
async function actives(hubs: readonly HubProcess[]): Promise<HubProcess[]> {
  const roles = await Promise.all(hubs.map(roleOf));
  return hubs.filter((_, i) => roles[i] === 'active');
}

test(`three hubs on etcd, two of their wall clocks 500 ms ahead and behind: one drives; paused, another takes over and the old revision's writes are refused; killed, another within a bound${whyNoEtcd}${whyNoBroker}`, async (t) => {
  if (!cluster) {
    t.pass();
    return;
  }
  t.timeout(240_000);
  const device = await recordingDevice(t);
  const flow = await groupFlow(device.port, cluster.endpoints);
  const hubs = await Promise.all(ids.map((id) => hubIn(t, flow, id)));
  await eventually(
    async () => (await actives(hubs)).length === 1,
    () => `one hub to drive: ${hubs.map((h) => h.log()).join('\n')}`,
    30_000,
  );
  // Exactly one, and it stays one.
  for (let i = 0; i < 10; i++) {
    t.is((await actives(hubs)).length, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const [first] = await actives(hubs);
  const details = (await coordinatorOf(first!))!;
  t.like(details, { reached: true, leaseMs: 2000 });
  t.deepEqual([...details.members].sort(), [...ids]);
  t.true(details.revision > 0 && details.leaseLeftMs > 0, JSON.stringify(details));
  t.is(await first!.read('bus/_hub/epoch'), String(details.revision), "the group's epoch is the election's revision (R-EG2)");
  // /site gathers the same for an operator (R-EG4): on a follower, the active hub and the driver's revision.
  const follower0 = hubs.find((h) => h !== first)!;
  const site = (await (await fetch(`${follower0.base}/site`)).json()) as {
    connection: string;
    refusedTokens: number;
    redundancy?: { role: string; active: string | null; coordinator?: CoordinatorDetails };
  }[];
  t.is(site.length, 1);
  t.like(site[0], { connection: 'bus', refusedTokens: 0, redundancy: { role: 'standby', coordinator: { revision: details.revision } } });
  t.is(site[0]!.redundancy?.active, await first!.read('bus/_hub/active'));
  t.is(site[0]!.redundancy?.coordinator?.members[0], site[0]!.redundancy?.active ?? undefined, 'the members, the active hub first');
  const metrics = await (await fetch(`${first!.base}/metrics`)).text();
  t.regex(metrics, /patchbay_group_etcd_elections_total\{[^}]*group="studio"[^}]*\} 1\b/);
  t.regex(metrics, /patchbay_group_etcd_lease_left_seconds\{[^}]*\} (0\.\d*[1-9]|1\.\d+)/);
  t.regex(metrics, /patchbay_mqtt_refused_tokens_total\{[^}]*\} 0\b/);
  t.like(await update(first!, '1'), { status: 200 });
  await eventually(() => device.lines.some((l) => routes(l, '1')), 'the device to hear the driver');
  // The device's connection from the first driver: after its pause, nothing may come on it.
  const firstLink = device.lines.find((l) => routes(l, '1'))!.connection;
  const others = hubs.filter((h) => h !== first);
  for (const [i, other] of others.entries()) {
    t.is((await coordinatorOf(other))?.revision, details.revision, 'a follower sees the same revision');
    // A follower forwards a write to the driver (R-M5): the device hears it from the driver alone.
    t.like(await update(other, String(10 + i)), { status: 200 });
    await eventually(() => device.lines.some((l) => routes(l, String(10 + i)) && l.connection === firstLink), 'the driver to send it');
  }

  // Paused: another hub drives with a later revision; woken, the old driver refuses writes.
  first!.child.kill('SIGSTOP');
  const pausedAt = performance.now();
  await eventually(async () => (await actives(others)).length === 1, 'another hub to take over', 30_000);
  const afterPause = performance.now() - pausedAt;
  const [second] = await actives(others);
  const secondDetails = (await coordinatorOf(second!))!;
  t.true(secondDetails.revision > details.revision, `revision ${secondDetails.revision} after ${details.revision}`);
  first!.child.kill('SIGCONT');
  // Woken, its lease is not proven by its own clock: the write is refused, or forwarded to the new driver once it stood down.
  const woken = await update(first!, '2');
  t.true(
    woken.status === 503 ? woken.body.code === 'PB_NOT_ACTIVE' : woken.status === 200,
    `the woken hub answered ${JSON.stringify(woken)}`,
  );
  const third3 = await update(second!, '3');
  t.like(third3, { status: 200 });
  await eventually(() => device.lines.some((l) => routes(l, '3')), 'the device to hear the new driver');
  await eventually(async () => (await roleOf(first!)) === 'standby', 'the woken hub to say it stands by');
  // Stood down it shows its last values (writes 503 PB_NOT_ACTIVE) until the new driver's mirror comes; then it forwards.
  await eventually(
    async () => (await update(first!, '5')).status === 200,
    'a write on the old driver to be forwarded to the new one',
    15_000,
  );
  await eventually(() => device.lines.some((l) => routes(l, '5')), 'the device to hear it');
  const late = device.lines.filter((l) => l.connection === firstLink && l.at > pausedAt);
  t.deepEqual(late, [], 'nothing came from the old revision after its pause');
  t.is(tokenOf(device.lines.find((l) => routes(l, '1'))!), details.revision, "the first driver's commands carry its revision");
  t.is(tokenOf(device.lines.find((l) => routes(l, '3'))!), secondDetails.revision, "the second driver's carry its own");

  // Killed: one of the two others drives.
  second!.child.kill('SIGKILL');
  const killedAt = performance.now();
  const rest = hubs.filter((h) => h !== second);
  await eventually(async () => (await actives(rest)).length === 1, 'a hub to take over from the killed one', 30_000);
  const afterKill = performance.now() - killedAt;
  const [third] = await actives(rest);
  t.true((await coordinatorOf(third!))!.revision > secondDetails.revision);
  t.like(await update(third!, '4'), { status: 200 });
  await eventually(() => device.lines.some((l) => routes(l, '4')), 'the device to hear the third driver');
  // The device never heard a lower token after a higher one: no command of an older driver came late.
  const tokens = device.lines.map(tokenOf);
  t.deepEqual(
    tokens,
    [...tokens].sort((x, y) => x - y),
    `tokens in the order the device heard them: ${tokens.join(' ')}`,
  );
  t.log(`takeover after SIGSTOP ${Math.round(afterPause)} ms, after SIGKILL ${Math.round(afterKill)} ms (2 s lease)`);
  // Generous: a 2 s lease with keep-alives every 667 ms takes over in 1.6–2.3 s on an idle machine.
  t.true(afterKill < 10_000, `took ${Math.round(afterKill)} ms`);

  // A follower is ready while it reaches etcd, and not once etcd is gone: it could not take over (R-EG4).
  const follower = rest.find((h) => h !== third)!;
  const readyz = async () => (await fetch(`${follower.base}/readyz`)).status;
  t.is(await readyz(), 200);
  await cluster.stop();
  await eventually(async () => (await readyz()) === 503, 'the follower to say it is not ready without etcd', 15_000);
  const body = (await (await fetch(`${follower.base}/readyz`)).json()) as { connections: { id: string; reason: string }[] };
  t.regex(body.connections.find((c) => c.id === 'coordinator')?.reason ?? '', /no etcd member answered/);
});
