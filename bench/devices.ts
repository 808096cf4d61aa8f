/**
 * `npm run bench:devices`: each device package against Companion's own module for the same
 * device, on the same simulator, beside the device's client library alone (R-DV3), in one run
 * — both ways: the device's changes reaching a WebSocket client, and a WebSocket client's
 * writes reaching the device. The four races (ATEM, HyperDeck, OBS, Videohub) and their
 * contenders are in bench/lib/device-races.ts; Companion's builds are not in this checkout:
 * pass the folder of bitfocus/companion-bundled-modules (`--companion <folder>`), else those
 * rows are skipped.
 *
 * For each contender and direction: latency, one at a time — from the device's change to the
 * client's message, and from the client's write to the device hearing the command — p50 and
 * p99, and the CPU seconds of its processes (the hub and its children) per 1,000. Every
 * studio folder a round makes is removed after it.
 *
 * A third table where the simulator can go away (the ATEM, silent; the Videohub, its port
 * closed): the time from the device answering again to the package's and the module's
 * `_status/connected` being true, over `--outages` outages (R-DV5: within 2 s).
 *
 *   npm run bench:devices -- [--companion <folder>] [--changes 1000] [--rounds 2] [--outages 5] [--race atem|hyperdeck|obs|videohub]
 *
 * Printed, and kept in bench/results/<date>-<commit>-devices.md (`-devices-<race>.md` for one race, so
 * races run one by one at a commit keep each its own).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { nowMs, percentile, sleep } from './lib/clock.ts';
import { atemRace, type Contender, hyperdeckRace, obsRace, type Race, videohubRace } from './lib/device-races.ts';
import { cpuSeconds } from './lib/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const CHANGES = Number(argument('--changes') ?? 1000);
const ROUNDS = Number(argument('--rounds') ?? 2);
const companion = argument('--companion');
/** One race alone: atem, hyperdeck, obs or videohub. */
const only = argument('--race');
/** How often each device goes away and comes back, for the reconnect rows. */
const OUTAGES = Number(argument('--outages') ?? 5);

/** Its process and every process under it, for their CPU seconds. */
function family(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // ps says nothing, and fails, for a process without children.
  }
  return [pid, ...children.flatMap(family)];
}

type Direction = 'changes' | 'writes';

/**
 * One round of a contender, one way: its client sees every change of the device, or the
 * device hears every write of its client; latencies in ms, CPU seconds per 1,000.
 */
async function round(race: Race, contender: Contender, direction: Direction): Promise<{ latencies: number[]; cpuPerThousand: number }> {
  const { server, path, follows, writes } = await contender.start();
  const says = contender.says ?? String;
  const sends = contender.sends ?? String;
  try {
    const client = new WebSocket(`ws://127.0.0.1:${server.port}${path}`);
    let seen = '';
    let heard: (() => void) | undefined;
    client.on('message', (data) => {
      const said = JSON.parse(String(data)) as { p?: string; v?: string } | { p?: string; v?: string }[];
      for (const message of Array.isArray(said) ? said : [said])
        if (message.p === follows && message.v !== undefined) {
          seen = String(message.v);
          heard?.();
        }
    });
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    const until = async (value: string, ms: number) => {
      if (seen === value) return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        heard = () => {
          if (seen !== value) return;
          clearTimeout(timer);
          resolve(true);
        };
      });
    };
    // The module and the package read the device as they connect; a floor says only changes: one to start from.
    for (let tries = 0; seen === '' && tries < 100; tries++) {
      if (tries % 10 === 9) race.change();
      await sleep(100);
    }
    await sleep(500);
    const pids = family(server.pid);
    const before = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const latencies: number[] = [];
    for (let n = 0; n < CHANGES; n++) {
      const at = nowMs();
      if (direction === 'changes') {
        const value = says(race.change());
        if (!(await until(value, 5000))) throw new Error(`${contender.name}: change ${n} to ${value} never arrived (saw ${seen})`);
      } else {
        const value = race.nextCommand();
        const arrived = race.heard(value);
        client.send(JSON.stringify({ p: writes, v: sends(value) }));
        const late = sleep(5000).then(() => false);
        if (!(await Promise.race([arrived.then(() => true), late])))
          throw new Error(`${contender.name}: write ${n} of ${value} never reached the device`);
      }
      latencies.push(nowMs() - at);
    }
    const after = pids.reduce((sum, pid) => sum + (existsSync(`/proc/${pid}`) ? cpuSeconds(pid) : 0), 0);
    client.close();
    return { latencies, cpuPerThousand: ((after - before) * 1000) / CHANGES };
  } finally {
    await server.stop();
  }
}

/** A race's tables, one a direction: each contender's rounds together, against its library alone. */
async function run(race: Race): Promise<string[]> {
  const rows: string[] = [];
  for (const direction of ['changes', 'writes'] as const) {
    const results = new Map<string, { latencies: number[]; cpu: number[] }>();
    for (let r = 0; r < ROUNDS; r++)
      for (const contender of race.contenders) {
        const { latencies, cpuPerThousand } = await round(race, contender, direction);
        const result = results.get(contender.name) ?? { latencies: [], cpu: [] };
        result.latencies.push(...latencies);
        result.cpu.push(cpuPerThousand);
        results.set(contender.name, result);
        console.log(
          `${contender.name}, ${direction}, round ${r + 1}: p50 ${percentile(latencies, 50).toFixed(2)} ms, ${cpuPerThousand.toFixed(2)} CPU s / 1,000`,
        );
      }
    const floor = [...results.values()][0];
    const floorP50 = floor ? percentile(floor.latencies, 50) : Number.NaN;
    const module = [...results].find(([name]) => name.startsWith('Companion'))?.[1];
    const moduleP99 = module ? percentile(module.latencies, 99) : Number.NaN;
    const moduleCpu = module ? median(module.cpu) : Number.NaN;
    rows.push(
      `## ${direction === 'changes' ? race.changes : race.writes}`,
      '',
      `| contender | p50 ms | p99 ms | CPU s per 1,000 ${direction} | p50 vs the library alone | p99 vs the module | CPU vs the module |`,
      '|---|---|---|---|---|---|---|',
    );
    for (const [name, { latencies, cpu }] of results) {
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      const against = (ours: number, theirs: number) => (Number.isNaN(theirs) ? '—' : `${(ours / theirs).toFixed(2)}×`);
      rows.push(
        `| ${name} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${median(cpu).toFixed(2)} | ${(floorP50 / p50).toFixed(2)}× | ${against(p99, moduleP99)} | ${against(median(cpu), moduleCpu)} |`,
      );
    }
    rows.push('');
  }
  return rows;
}

/**
 * Each contender that follows the device's status (the package, the module), as the device
 * goes away for 5 s and comes back `OUTAGES` times: the time from the device answering again to the
 * connection's `_status/connected` being true (R-DV5: within 2 s).
 */
async function reconnects(race: Race): Promise<string[]> {
  const { outage } = race;
  if (!outage || OUTAGES <= 0) return [];
  const rows = [
    `## ${race.changes.split(':')[0]}: back after an outage`,
    '',
    '| contender | median s | max s | outages |',
    '|---|---|---|---|',
  ];
  for (const contender of race.contenders.slice(1)) {
    const { server } = await contender.start();
    try {
      const client = new WebSocket(`ws://127.0.0.1:${server.port}/ws?filter=${encodeURIComponent('^device/_status/connected$')}`);
      let connected = false;
      client.on('message', (data) => {
        const said = JSON.parse(String(data)) as { p?: string; v?: unknown } | { p?: string; v?: unknown }[];
        for (const message of Array.isArray(said) ? said : [said])
          if (message.p === 'device/_status/connected') connected = String(message.v) === 'true';
      });
      await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
      const until = async (state: boolean, ms: number) => {
        for (const deadline = nowMs() + ms; connected !== state; await sleep(5))
          if (nowMs() > deadline) throw new Error(`${contender.name}: connected never ${state} within ${ms} ms`);
      };
      await until(true, 30_000);
      const times: number[] = [];
      for (let n = 0; n < OUTAGES; n++) {
        await outage.away();
        await until(false, 30_000);
        // Away as long as a device takes to power-cycle: the link's attempts have spread out by then.
        await sleep(5000);
        const at = nowMs();
        await outage.back();
        await until(true, 30_000);
        times.push((nowMs() - at) / 1000);
      }
      client.close();
      console.log(`${contender.name}, back after an outage: ${times.map((time) => time.toFixed(2)).join(', ')} s`);
      rows.push(`| ${contender.name} | ${median(times).toFixed(2)} | ${Math.max(...times).toFixed(2)} | ${times.length} |`);
    } finally {
      await server.stop();
    }
  }
  return [...rows, ''];
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

// One after another, each device started when its race begins (OBS renders while it runs).
const races: Record<string, (companion: string | undefined) => Promise<Race | undefined>> = {
  atem: atemRace,
  hyperdeck: hyperdeckRace,
  obs: obsRace,
  videohub: videohubRace,
};
const tables: string[] = [];
for (const [name, race] of Object.entries(races)) {
  if (only && only !== name) continue;
  const started = await race(companion);
  if (!started) continue;
  // Closed however the race ends: a round that throws must not leave OBS or a simulator running.
  try {
    tables.push(...(await reconnects(started)), ...(await run(started)));
  } finally {
    await started.close();
  }
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const date = new Date().toISOString().slice(0, 10);
const text = [
  `# Devices: ${date} ${commit}`,
  '',
  `${CHANGES} changes and ${CHANGES} writes a round, ${ROUNDS} rounds, one at a time: the device's change to the WebSocket client's message, and the client's write to the device hearing the command; "vs the module" is Companion's build of the module for the same device, on the same simulator, in the same run (the package's target: ≤ 1.0× its p99 and CPU, ≥ 0.8× the library alone). \`npm run bench:devices -- ${process.argv.slice(2).join(' ')}\``,
  '',
  ...tables,
].join('\n');
console.log(text);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, `bench/results/${date}-${commit}-devices${only ? `-${only}` : ''}.md`), text);
process.exit(0);
