/**
 * `npm run bench:faults [-- --faults=100 --skew=0.05 --only=<words>]`: a group on etcd under
 * injected faults (R-EG5).
 * Three hubs, three etcd members and the broker each in a network namespace on one switch,
 * a device on each hub's own link that records each command's fencing token (`$TOKEN`) and
 * when it came (spec/helpers/etcd-site.ts, as the fault spec uses), and a client writing to
 * every hub twenty times a second all along. The faults go in turn: the active hub SIGKILLed
 * (started again 4 s later), paused for 3 s, cut off from etcd for 4 s, unplugged from the
 * switch for 4 s; an etcd member that does not lead killed (started again 3 s later); etcd's
 * leader killed (the same) and unplugged for 3 s. After each, the bench waits until the group
 * has one active hub and every etcd member answers again.
 *
 * The checker, over the whole run: no command of a lower token after one of a higher; every
 * write answered 200 in the device log (after healing); no fault with a gap between two
 * commands longer than the bound (two leases and a second: a takeover is one lease and a
 * round). The report, by kind of fault: how often the role moved, the takeover (from the
 * fault to the device's first command from another hub), the longest wait for a command
 * from the fault until the group settled (the device off air: the old driver stops before
 * the new one starts), and the verdict. Needs root (namespaces),
 * Mosquitto and Debian's etcd-server; says so and stops where one is missing. Clock skew runs
 * all along (`--skew`, below): the hub's proof runs on its monotonic clock, so its rate is what
 * matters; wall clocks ±500 ms off are in spec/e2e/standby-etcd.spec.ts. A table goes to
 * bench/results/<date>-<commit>-faults.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canRunEtcd } from '../spec/helpers/etcd-cluster.ts';
import { canSkewClocks, checkDeviceLog, etcdIds, type EtcdSite, type Hub, LEASE_MS, startEtcdSite } from '../spec/helpers/etcd-site.ts';
import { heardBetween } from '../spec/helpers/recording-router.ts';
import { canRunBroker } from '../spec/helpers/mosquitto.ts';
import { canMakeNamespaces, whyNoNamespaces } from '../spec/helpers/namespaces.ts';
import { percentile, sleep } from './lib/clock.ts';
import { withRun } from './lib/results.ts';

const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const FAULTS = Number(option('faults') ?? 100);
/**
 * Clock skew, all along: hub b's clocks (wall and monotonic) run slow and c's fast, by
 * `--skew` (0.05: 5 %, within the hub's drift margin of a tenth of the lease); a fault that
 * strikes while b or c drives strikes a skewed driver. Past the margin (`--skew=0.2`) the
 * checker should find a slow driver's commands after its successor's.
 */
const SKEW = Number(option('skew') ?? 0.05);
/** `--only=<words>`: the kinds of fault whose name holds them (`--only="active hub"`: the takeovers alone). */
const ONLY = option('only');
const clockRates = { b: 1 - SKEW, c: 1 + SKEW } as const;
/** A gap past this is a violation: two leases and a second. */
const BOUND_MS = 2 * LEASE_MS + 1000;

interface Fault {
  readonly kind: string;
  /** Injects the fault; resolves once it is healed (the hub or member back). */
  run(site: EtcdSite): Promise<void>;
}

const active = async (site: EtcdSite) => {
  for (let i = 0; i < 100; i++) {
    const hub = await site.activeNow();
    if (hub) return hub;
    await sleep(100);
  }
  throw new Error('no active hub for 10 s');
};
const follower = async (site: EtcdSite) => {
  const leader = await site.etcdLeader();
  return etcdIds.findIndex((_, i) => i !== leader);
};

const allFaults: readonly Fault[] = [
  {
    kind: 'active hub SIGKILL',
    async run(site) {
      const hub = await active(site);
      site.gone.add(hub);
      site.hub[hub].child.kill('SIGKILL');
      await sleep(4000);
      await site.restart(hub);
    },
  },
  {
    kind: 'active hub SIGSTOP 3 s',
    async run(site) {
      const hub = await active(site);
      site.hub[hub].child.kill('SIGSTOP');
      await sleep(3000);
      site.hub[hub].child.kill('SIGCONT');
    },
  },
  {
    kind: 'active hub cut off from etcd 4 s',
    async run(site) {
      const hub = await active(site);
      for (const member of etcdIds) site.network.cut(hub, member);
      await sleep(4000);
      for (const member of etcdIds) site.network.mend(hub, member);
    },
  },
  {
    kind: 'active hub unplugged 4 s',
    async run(site) {
      const hub = await active(site);
      site.network.unplug(hub);
      await sleep(4000);
      site.network.plugIn(hub);
    },
  },
  {
    kind: 'etcd member (not leader) SIGKILL',
    async run(site) {
      const member = site.cluster.members[await follower(site)]!;
      member.kill();
      await sleep(3000);
      member.restart();
    },
  },
  {
    kind: "etcd's leader SIGKILL",
    async run(site) {
      const member = site.cluster.members[(await site.etcdLeader()) ?? 0]!;
      member.kill();
      await sleep(3000);
      member.restart();
    },
  },
  {
    kind: "etcd's leader unplugged 3 s",
    async run(site) {
      const at = (await site.etcdLeader()) ?? 0;
      site.network.unplug(etcdIds[at]!);
      await sleep(3000);
      site.network.plugIn(etcdIds[at]!);
    },
  },
];
const faults = allFaults.filter((fault) => ONLY === undefined || fault.kind.includes(ONLY));

/** Until the group has one active hub, every hub answers and every etcd member does. */
async function settled(site: EtcdSite): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    const roles = await Promise.all((['a', 'b', 'c'] as const).map(site.roleOf));
    const members = await Promise.all(
      site.cluster.members.map((member) =>
        fetch(`${member.clientUrl}/v3/kv/range`, { method: 'POST', body: '{"key":"eA=="}', signal: AbortSignal.timeout(500) }).then(
          (response) => response.ok,
          () => false,
        ),
      ),
    );
    if (roles.filter((role) => role === 'active').length === 1 && !roles.includes('unreachable') && members.every(Boolean)) return true;
    await sleep(100);
  }
  return false;
}

async function main(): Promise<void> {
  const missing = !canMakeNamespaces
    ? whyNoNamespaces.trim()
    : !canRunBroker
      ? 'Mosquitto is missing'
      : !canRunEtcd
        ? 'etcd is missing'
        : '';
  if (missing) {
    console.log(`bench:faults needs network namespaces (root), Mosquitto and etcd-server: ${missing}`);
    return;
  }
  const teardowns: (() => unknown)[] = [];
  const t = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
  const cleanUp = async () => {
    for (const fn of teardowns.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
  try {
    const site = await startEtcdSite(t, { clockRates });
    const writer = site.writeAllAlong();
    await sleep(2000);
    const rows: { kind: string; driver: Hub | undefined; gap: number; moved: boolean; takeover: number | undefined; settled: boolean }[] =
      [];
    const started = performance.now();
    for (let i = 0; i < FAULTS; i++) {
      const fault = faults[i % faults.length]!;
      const before = await site.activeNow();
      const from = performance.now();
      await fault.run(site);
      const ok = await settled(site);
      await sleep(1000);
      const seen = heardBetween(site.heard, from, performance.now());
      const after = await site.activeNow();
      // The takeover as the device sees it: from the fault to the first command of another hub.
      const first = site.heard.find((h) => h.at >= from && h.hub !== before);
      const takeover = before !== after && first ? Math.round(first.at - from) : undefined;
      rows.push({ kind: fault.kind, driver: before, gap: seen.longestWait, moved: before !== after, takeover, settled: ok });
      console.log(
        `${i + 1}/${FAULTS} ${fault.kind}: longest wait ${seen.longestWait} ms, driver ${before} → ${after}${takeover === undefined ? '' : ` in ${takeover} ms`}${ok ? '' : ' (did not settle in 30 s)'}`,
      );
    }
    writer.stop();
    await sleep(2500);
    const minutes = (performance.now() - started) / 60_000;
    const { outOfOrder, lost } = checkDeviceLog(site.heard, writer.answers);
    const over = rows.filter((row) => row.gap > BOUND_MS);
    const unsettled = rows.filter((row) => !row.settled);
    const answered = writer.answers.filter((answer) => answer.status === 200).length;
    const lines = [
      `## bench:faults, ${FAULTS} faults in ${minutes.toFixed(1)} min (lease ${LEASE_MS} ms, bound ${BOUND_MS} ms)`,
      '',
      '| fault | n | role moved | takeover p50 (ms) | p90 | max | longest wait p50 (ms) | p90 | max |',
      '|---|---|---|---|---|---|---|---|---|',
      ...faults.map((fault) => {
        const of = rows.filter((row) => row.kind === fault.kind);
        const gaps = of.map((row) => row.gap).sort((x, y) => x - y);
        if (gaps.length === 0) return `| ${fault.kind} | 0 | | | | | | | |`;
        const takeovers = of.flatMap((row) => (row.takeover === undefined ? [] : [row.takeover])).sort((x, y) => x - y);
        const moved =
          takeovers.length === 0 ? '– | – | –' : `${percentile(takeovers, 50)} | ${percentile(takeovers, 90)} | ${takeovers.at(-1)}`;
        return `| ${fault.kind} | ${of.length} | ${of.filter((row) => row.moved).length} | ${moved} | ${percentile(gaps, 50)} | ${percentile(gaps, 90)} | ${gaps.at(-1)} |`;
      }),
      '',
      canSkewClocks
        ? `Clocks: hub a's as the machine's, b's ${clockRates.b}×, c's ${clockRates.c}× (libfaketime, wall and monotonic). Takeover p50 by the driver's clock when the fault struck: ${(
            ['a', 'b', 'c'] as const
          )
            .map((hub) => {
              const takeovers = rows.flatMap((row) => (row.driver === hub && row.takeover !== undefined ? [row.takeover] : []));
              return `${hub} ${
                takeovers.length === 0
                  ? '–'
                  : `${percentile(
                      takeovers.sort((x, y) => x - y),
                      50,
                    )} ms (${takeovers.length})`
              }`;
            })
            .join(', ')}.`
        : 'Clocks: not skewed (libfaketime is missing: apt-get install faketime).',
      '',
      `Device: ${site.heard.length} commands, tokens ${[...new Set(site.heard.map((h) => h.token))].length} distinct; writes: ${writer.answers.length}, ${answered} answered 200.`,
      '',
      `Checker: ${outOfOrder.length} commands of a lower token after a higher, ${lost.length} writes answered 200 missing from the device log, ${over.length} faults with a gap past ${BOUND_MS} ms, ${unsettled.length} that did not settle: **${outOfOrder.length + lost.length + over.length + unsettled.length === 0 ? 'no violation' : 'VIOLATIONS'}**.`,
    ];
    const report = lines.join('\n');
    console.log(`\n${report}`);
    const here = fileURLToPath(new URL('.', import.meta.url));
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here }).toString().trim();
    const date = new Date().toISOString().slice(0, 10);
    const file = join(here, 'results', `${date}-${commit}-faults.md`);
    writeFileSync(file, withRun(existsSync(file) ? readFileSync(file, 'utf8') : undefined, date, commit, report));
    console.log(`kept in ${file}`);
  } finally {
    await cleanUp();
  }
}

await main();
