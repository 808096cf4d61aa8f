/**
 * Faults of a group on etcd (R-EG3, R-EG2, the short version of R-EG5's harness) on a network
 * of its own (helpers/etcd-site.ts): three hubs, three etcd members and the broker in network
 * namespaces, a device on each hub's own link recording each command's token, a client
 * writing to every hub ten times a second. The active hub cut off from etcd (not from the
 * broker or the device), etcd's leader killed, the active hub paused and killed: the device
 * never hears a lower token after a higher one, a hub back from a cut drives nothing until it
 * wins again, etcd's leader killed moves no role, and every write answered 200 reached the
 * device. Behaviour is asserted, not timings; the gaps are logged. Where namespaces cannot be
 * made (not root), it is skipped and says why.
 */
import test from 'ava';
import { canRunEtcd, whyNoEtcd } from '../helpers/etcd-cluster.ts';
import { checkDeviceLog, etcdIds, type Hub, hubIds, startEtcdSite } from '../helpers/etcd-site.ts';
import { heardBetween } from '../helpers/recording-router.ts';
import { eventually } from '../helpers/eventually.ts';
import { canRunBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { canMakeNamespaces, whyNoNamespaces } from '../helpers/namespaces.ts';

const withoutLeading = (hub: Hub, drivers: readonly Hub[]) => (drivers[0] === hub ? drivers.slice(1) : drivers);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const test_ = canMakeNamespaces && canRunBroker && canRunEtcd ? test.serial : test.serial.skip;

test_(
  `on etcd, two hubs' clocks 5 % slow and fast: the active hub cut off from etcd, etcd's leader killed, the active hub paused and killed: one driver, tokens only grow, no answered write lost (R-EG3)${whyNoNamespaces || whyNoBroker || whyNoEtcd}`,
  async (t) => {
    t.timeout(300_000);
    // Skewed within the drift margin (a tenth of the lease), as the fault harness runs them.
    const site = await startEtcdSite(t, { clockRates: { b: 0.95, c: 1.05 } });
    const { network, cluster, hub, heard, gone, activeNow, roleOf } = site;
    let active = (await activeNow())!;
    const writer = site.writeAllAlong();
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
    const others = (id: Hub) => hubIds.filter((h) => h !== id && !gone.has(h));

    // 1. Cut off from etcd (the broker and the device still reach it): another hub wins; back, the cut hub drives nothing.
    const cutOff = active;
    const one = await phase(
      `${cutOff} cut off from etcd for 6 s`,
      () => {
        for (const member of etcdIds) network.cut(cutOff, member);
      },
      () => {
        for (const member of etcdIds) network.mend(cutOff, member);
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
    const leader = cluster.members[(await site.etcdLeader())!]!;
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

    // Whatever happened, the device never heard a lower token after a higher one, and every write answered 200 reached it.
    const { outOfOrder, lost } = checkDeviceLog(heard, writer.answers);
    t.deepEqual(outOfOrder, [], 'no command of a lower token after one of a higher');
    t.deepEqual(lost, [], 'every write answered 200 is in the device log');
    t.log(gaps.join('\n'));
    t.log(`${heard.length} commands heard, tokens ${[...new Set(heard.map((h) => h.token))].join(' → ')}`);
  },
);
