/**
 * Faults of a group on etcd (R-EG3, R-EG2) on a network of its own: hubs a, b and c, three
 * etcd members and the broker each in a network namespace on one switch, and a device on
 * each hub's own link (never cut) that records which hub sent each command, with its token.
 * A client writes to all three hubs ten times a second all along. The active hub cut off from
 * etcd (not from the broker or the device), etcd's leader killed, the active hub paused and
 * killed: the device never hears a lower token after a higher one, a hub back from a cut
 * drives nothing until it wins again, etcd's leader killed moves no role, and every write
 * answered 200 reached the device. Behaviour is asserted, not timings; the gaps are logged.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { canRunEtcd, startEtcdCluster, whyNoEtcd } from '../helpers/etcd-cluster.ts';
import { eventually } from '../helpers/eventually.ts';
import { bin, type HubProcess, runHub } from '../helpers/hub-process.ts';
import { canRunBroker, startBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { canMakeNamespaces, makeNetwork, type Network, whyNoNamespaces } from '../helpers/namespaces.ts';
import { siteKeyFile } from '../helpers/site-key.ts';

const hubs = ['a', 'b', 'c'] as const;
type Hub = (typeof hubs)[number];
const etcds = ['e0', 'e1', 'e2'] as const;
const API_PORT = 17080;
const DEVICE_PORT = 4000;

interface Heard {
  readonly hub: Hub;
  readonly value: number;
  readonly token: number;
  readonly at: number;
}

/** The device: one listener on this machine's end of each hub's link, so that the link says which hub sent a command. */
async function recordingRouter(t: ExecutionContext, network: Network) {
  const heard: Heard[] = [];
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  for (const hub of hubs) {
    const server = createServer((socket) => {
      sockets.add(socket);
      let carry = '';
      socket.on('data', (chunk) => {
        const lines = (carry + chunk.toString()).split('\n');
        carry = lines.pop()!;
        for (const line of lines) {
          const route = /^ROUTE 1 (\d+) T(\d+)$/.exec(line);
          if (route) heard.push({ hub, value: Number(route[1]), token: Number(route[2]), at: performance.now() });
        }
      });
      socket.on('error', () => {});
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(DEVICE_PORT, network.deviceLink(hub).here, resolve));
  }
  t.teardown(() => {
    for (const server of servers) server.close();
    for (const socket of sockets) socket.destroy();
  });
  return heard;
}

/** Writes `router/dest/1` to every hub ten times a second, a new value each time, until stopped; keeps every answer. */
function writeAllAlong(hubsByName: Record<Hub, HubProcess>) {
  const answers: { hub: Hub; value: number; status: number; at: number }[] = [];
  let value = 0;
  const timer = setInterval(() => {
    for (const hub of hubs) {
      value += 1;
      const sent = value;
      const at = performance.now();
      fetch(`${hubsByName[hub].base}/update?parameter=router/dest/1&value=${sent}`, { signal: AbortSignal.timeout(2000) }).then(
        (response) => answers.push({ hub, value: sent, status: response.status, at }),
        () => answers.push({ hub, value: sent, status: 0, at }),
      );
    }
  }, 100);
  return { answers, stop: () => clearInterval(timer) };
}

/** Which hubs drove the device between two instants, in order, and its longest wait between two commands. */
function heardBetween(heard: readonly Heard[], from: number, to: number) {
  const during = heard.filter((h) => h.at >= from && h.at < to);
  const drivers: Hub[] = [];
  for (const { hub } of during) if (drivers.at(-1) !== hub) drivers.push(hub);
  const times = [heard.findLast((h) => h.at < from)?.at ?? from, ...during.map((h) => h.at)];
  let longestWait = 0;
  for (let i = 1; i < times.length; i++) longestWait = Math.max(longestWait, times[i]! - times[i - 1]!);
  return { drivers, longestWait: Math.round(longestWait), count: during.length };
}

const withoutLeading = (hub: Hub, drivers: readonly Hub[]) => (drivers[0] === hub ? drivers.slice(1) : drivers);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const test_ = canMakeNamespaces && canRunBroker && canRunEtcd ? test.serial : test.serial.skip;

test_(
  `on etcd: the active hub cut off from etcd, etcd's leader killed, the active hub paused and killed: one driver, tokens only grow, no answered write lost (R-EG3)${whyNoNamespaces || whyNoBroker || whyNoEtcd}`,
  async (t) => {
    t.timeout(300_000);
    const network = makeNetwork(t, [...hubs, ...etcds, 'broker'], hubs);
    const heard = await recordingRouter(t, network);
    const broker = await startBroker({ host: network.address('broker'), port: 1883, command: network.run('broker') });
    t.teardown(() => broker.stop());
    const cluster = await startEtcdCluster(3, {
      hosts: etcds.map((member) => network.address(member)),
      command: (i) => network.run(etcds[i]!),
    });
    t.teardown(() => cluster.stop());
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-etcd-faults-'));
    const flow = join(dir, 'studio.json5');
    await writeFile(
      flow,
      JSON.stringify({
        connections: {
          api: { type: 'rest-api', port: API_PORT, bindIp: '${API_IP}' },
          bus: {
            type: 'mqtt',
            url: broker.url,
            hub: {
              id: '${HUB}',
              group: 'onair',
              members: [...hubs],
              coordinator: { etcd: { endpoints: cluster.endpoints, leaseMs: 2000 } },
              share: [],
              key: { file: siteKeyFile },
            },
          },
          router: {
            type: 'tcp-client',
            host: '${DEVICE_IP}',
            port: DEVICE_PORT,
            parameters: ['dest/1,I'],
            receive: [],
            send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE T$TOKEN\n' }],
          },
        },
      }),
    );
    const started = await Promise.all(
      hubs.map((hub) =>
        runHub(t, flow, {
          command: [...network.run(hub), process.execPath, bin],
          args: ['--state', join(dir, `state-${hub}`)],
          env: { HUB: hub, API_IP: network.deviceLink(hub).hub, DEVICE_IP: network.deviceLink(hub).here },
        }),
      ),
    );
    const hub = Object.fromEntries(hubs.map((id, i) => [id, started[i]!])) as Record<Hub, HubProcess>;
    const gone = new Set<Hub>();
    const roleOf = (id: Hub) => (gone.has(id) ? Promise.resolve('gone') : hub[id].read('bus/_hub/role').catch(() => 'unreachable'));
    const activeNow = async () => {
      const roles = await Promise.all(hubs.map(roleOf));
      const active = hubs.filter((_, i) => roles[i] === 'active');
      return active.length === 1 ? active[0] : undefined;
    };
    await eventually(async () => (await activeNow()) !== undefined, 'a hub to win the election', 60_000);
    let active = (await activeNow())!;

    const writer = writeAllAlong(hub);
    t.teardown(() => writer.stop());
    await eventually(() => heard.some((h) => h.hub === active), 'the device to hear the active hub', 10_000);
    const gaps: string[] = [];

    /** Runs `cut` for `ms`, then `mend`, and waits for the group to settle: what the device heard meanwhile. */
    const phase = async (name: string, cut: () => void, mend: () => void, ms: number) => {
      const from = performance.now();
      cut();
      await pause(ms);
      mend();
      await pause(3000);
      const seen = heardBetween(heard, from, performance.now());
      gaps.push(`${name}: ${seen.drivers.join(' then ')}, longest without a command ${seen.longestWait} ms`);
      return seen;
    };
    const others = (id: Hub) => hubs.filter((h) => h !== id && !gone.has(h));

    // 1. Cut off from etcd (the broker and the device still reach it): another hub wins; back, the cut hub drives nothing.
    const cutOff = active;
    const one = await phase(
      `${cutOff} cut off from etcd for 6 s`,
      () => {
        for (const member of etcds) network.cut(cutOff, member);
      },
      () => {
        for (const member of etcds) network.mend(cutOff, member);
      },
      6000,
    );
    const afterCut = withoutLeading(cutOff, one.drivers);
    t.is(afterCut.length, 1, `one hub drove after the cut: ${one.drivers.join(' then ')}`);
    t.true(others(cutOff).includes(afterCut[0]!));
    active = afterCut[0]!;
    const backAt = performance.now();
    await pause(3000);
    t.false(
      heard.some((h) => h.hub === cutOff && h.at > backAt - 3000),
      'the hub back from the cut drove nothing: it has not won an election since',
    );
    t.is(await roleOf(cutOff), 'standby');

    // 2. etcd's leader killed: the role stays where it is.
    const status = await Promise.all(
      cluster.members.map(async (member) => {
        const answer = (await (await fetch(`${member.clientUrl}/v3/maintenance/status`, { method: 'POST', body: '{}' })).json()) as {
          header: { member_id: string };
          leader: string;
        };
        return answer.header.member_id === answer.leader;
      }),
    );
    const leader = cluster.members[status.indexOf(true)]!;
    const two = await phase(
      `etcd's leader ${leader.name} killed`,
      () => leader.kill(),
      () => undefined,
      4000,
    );
    t.deepEqual(two.drivers, [active], "etcd's leader killed moved no role");
    t.is(await activeNow(), active);

    // 3. The active hub paused: another wins; woken, it drives nothing.
    const paused = active;
    const three = await phase(
      `${paused} paused for 4 s`,
      () => hub[paused].child.kill('SIGSTOP'),
      () => hub[paused].child.kill('SIGCONT'),
      4000,
    );
    const afterPause = withoutLeading(paused, three.drivers);
    t.is(afterPause.length, 1, `one hub drove after the pause: ${three.drivers.join(' then ')}`);
    active = afterPause[0]!;

    // 4. The active hub killed: another wins.
    const killed = active;
    const four = await phase(
      `${killed} killed`,
      () => {
        gone.add(killed);
        hub[killed].child.kill('SIGKILL');
      },
      () => undefined,
      4000,
    );
    const afterKill = withoutLeading(killed, four.drivers);
    t.is(afterKill.length, 1, `one hub drove after the kill: ${four.drivers.join(' then ')}`);
    writer.stop();
    await pause(2500);

    // Whatever happened, the device never heard a lower token after a higher one.
    const outOfOrder = heard.filter((h, i) => i > 0 && h.token < heard[i - 1]!.token);
    t.deepEqual(outOfOrder, [], 'no command of a lower token after one of a higher');
    // Every write answered 200 reached the device.
    const lost = writer.answers.filter((answer) => answer.status === 200 && !heard.some((h) => h.value === answer.value));
    t.deepEqual(lost, [], 'every write answered 200 is in the device log');
    t.log(gaps.join('\n'));
    t.log(`${heard.length} commands heard, tokens ${[...new Set(heard.map((h) => h.token))].join(' → ')}`);
  },
);
