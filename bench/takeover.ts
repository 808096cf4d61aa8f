/**
 * `npm run bench:takeover [-- --rounds 20 --writes 40000 --clients 64]`: a redundancy group (R-B1, R-B2)
 * of two hub processes on a Mosquitto of its own, in two parts.
 *
 * Takeover. Two hubs run one flow file (a dummy of 1,000 parameters, shared; the hub id from
 * `HUB`, a state folder each) in one group. Each round waits a random moment of up to 1 s
 * (so that the kill falls anywhere in the hubs' 200 ms renewal cycle, not at the same point
 * after the standby joined each time), SIGKILLs the active hub and times,
 * from the kill, when the other hub logs its claim of the lease and that it takes over, and
 * when its WebSocket stream (`/ws?filter=^bus/_hub/`) says `_hub/role` = active, which is
 * what a client sees; then it starts the killed hub again and times until that one is a
 * standby that names the new active hub. Target: every takeover within 5 s.
 *
 * Writes. HTTP `/update` writes from 64 keep-alive clients in another process (one write
 * in flight each, a bounded count, `load/update-load.ts`) on the active hub of a group, which
 * answers each write once the broker acknowledged its publish, against the same flow on a
 * hub without `hub.group` (same broker, same sharing: it answers at once and publishes
 * alongside). Each side has a second hub on the broker that mirrors the values (the standby;
 * a hub that shares nothing), so that the broker and the machine carry the same work. Three
 * rounds in turns, the faster of each; `--state none` on both, so that the ratio is the
 * acknowledgement alone (scenario 7 of `npm run bench` measures a state folder).
 *
 * Voted group (R-AV1, R-AV2). The same two hubs with `hub.voters` and a `patchbay witness`
 * process, driving a TCP device of the bench's that records which hub's connection sent each
 * command; a client writes a new value to both hubs every 20 ms all along (the standby
 * forwards its copy). Rounds of: the broker SIGKILLed and started again 3 s later, the witness
 * the same, and the active hub SIGKILLed and started again. Targets: 0 s off air when the
 * broker or the witness goes — every write to the active hub answered 200 and the role kept
 * (the device's longest wait for a command is reported beside it, with when it began); the
 * active hub's loss taken over within 5 s, at the median within 2 s (until the device hears
 * the other hub).
 *
 * Prints one table and keeps it in bench/results/<date>-<commit>-takeover.md; the hubs' logs
 * stay in the temporary folder it names. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { nowMs, percentile, sleep } from './lib/clock.ts';
import { ask, cpuSeconds, forkLoad, machineTicks, stolenSince, stopChild } from './lib/processes.ts';
import { withRun } from './lib/results.ts';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROUNDS = option('rounds', 20);
/** Rounds of each failure of the voted group: the broker, the witness, the active hub. */
const VOTED_ROUNDS = option('voted-rounds', 5);
/** The voted group's writes: a new value every this many ms, to both hubs. */
const WRITE_EVERY_MS = 20;
/** How long the broker or the witness stays away in a round. */
const OUTAGE_MS = 3000;
const WRITES = option('writes', 40_000);
/** A measured run of writes stops after this, whatever its count. */
const WRITE_SECONDS = 15;
/**
 * Keep-alive clients, one write in flight each: 64 keep the writing hub busy, so the ratio is
 * of throughput; with a few (`--clients 4`) each write waits alone and the ratio is of latency.
 */
const CLIENTS = option('clients', 64);
/** Rounds of writes, each side in turn; the faster round of each side stands for it. */
const WRITE_ROUNDS = 3;
const PARAMETERS = 1000;
/** How long a takeover or a rejoin may take before the bench gives up on the group. */
const TAKEOVER_BOUND_MS = 10_000;
const REJOIN_BOUND_MS = 30_000;
/**
 * Each kill comes after a random pause of up to this: right after the standby joined, the
 * kill would fall at the same point of its renewal cycle every round, and the takeover,
 * which waits for a renewal's acknowledgement, would take the same time every round.
 */
const KILL_SPREAD_MS = 1000;

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'patchbay-takeover-'));
const keyFile = join(folder, 'site.key');
writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });

const { canRunBroker, startBroker } = await import('../spec/helpers/mosquitto.ts');
const { freeUdpPorts } = await import('../spec/helpers/ports.ts');
if (!canRunBroker) {
  console.error('mosquitto is missing (apt-get install mosquitto): the takeover bench needs a broker');
  process.exit(1);
}

/**
 * A flow file on `url` under `prefix`: the hub id from `HUB`; `group` makes it a hub of a
 * redundancy group; `owner` runs and shares the 1,000 bench parameters (a hub without it
 * only mirrors them).
 */
function flowFile(
  name: string,
  url: string,
  prefix: string,
  { group, owner, voted }: { group?: string; owner: boolean; voted?: { voters: Record<string, string>; devicePort: number } },
): string {
  const file = join(folder, `${name}.json5`);
  const hub = {
    id: '${HUB}',
    share: owner ? ['bench/#'] : [],
    key: { file: keyFile },
    ...(group ? { group } : {}),
    ...(voted ? { members: ['a', 'b'], voters: voted.voters } : {}),
  };
  const connections: Record<string, unknown> = {
    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
    bus: { type: 'mqtt', url, prefix, hub },
  };
  if (owner) connections['bench'] = { type: 'dummy', parameters: Array.from({ length: PARAMETERS }, (_, i) => `p${i},S,0`) };
  if (voted)
    connections['router'] = {
      type: 'tcp-client',
      host: '127.0.0.1',
      port: voted.devicePort,
      parameters: ['dest/1,I'],
      receive: [],
      send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\n' }],
    };
  writeFileSync(file, JSON.stringify({ connections }));
  return file;
}

let starts = 0;

/** A hub process whose `bus/_hub/*` parameters are followed over a WebSocket as they change. */
class HubProcess {
  /** The latest value of each `bus/_hub/` parameter its stream gave. */
  readonly hub = new Map<string, string>();
  private readonly waiting = new Set<(at: number) => void>();
  /** The log, kept whole: a few dozen lines a hub (writes are not logged). */
  private output = '';
  private stream: WebSocket | undefined;
  private listening = 0;

  private constructor(
    readonly id: string,
    readonly child: ChildProcess,
  ) {
    const file = createWriteStream(join(folder, `${id}-${++starts}.log`));
    for (const output of [child.stdout, child.stderr]) {
      output?.pipe(file);
      output?.on('data', (chunk: Buffer) => void (this.output += chunk.toString()));
    }
  }

  get port(): number {
    return this.listening;
  }

  /** Starts `patchbay run` as hub `id` and resolves once it runs and its stream is open. */
  static async start(id: string, flow: string, state: string): Promise<HubProcess> {
    const child = spawn(process.execPath, [join(root, 'bin/patchbay.js'), 'run', flow, '--state', state, '--log-format', 'json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HUB: id },
    });
    const hub = new HubProcess(id, child);
    try {
      await hub.running();
      await hub.follow();
      return hub;
    } catch (error) {
      hub.stream?.terminate();
      child.kill('SIGKILL');
      throw error;
    }
  }

  private running(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`hub ${this.id} did not run within ${REJOIN_BOUND_MS} ms:\n${this.output}`)),
        REJOIN_BOUND_MS,
      );
      const look = () => {
        const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(this.output);
        if (!listening || !this.output.includes('"msg":"running:')) return;
        clearTimeout(timer);
        this.child.stderr?.off('data', look);
        this.listening = Number(listening[1]);
        resolve();
      };
      this.child.stderr?.on('data', look);
      this.child.once('exit', (code) => reject(new Error(`hub ${this.id} exited (${code}) before it ran:\n${this.output}`)));
    });
  }

  private async follow(): Promise<void> {
    const stream = new WebSocket(`ws://127.0.0.1:${this.port}/ws?filter=${encodeURIComponent('^bus/_hub/')}`);
    this.stream = stream;
    stream.on('message', (data: Buffer) => {
      const at = nowMs();
      const parsed = JSON.parse(data.toString()) as { p: string; v: unknown } | { p: string; v: unknown }[];
      for (const { p, v } of Array.isArray(parsed) ? parsed : [parsed]) this.hub.set(p.slice('bus/'.length), String(v));
      for (const check of [...this.waiting]) check(at);
    });
    await new Promise((resolve, reject) => stream.once('open', resolve).once('error', reject));
    stream.on('error', () => {});
  }

  /** The wall-clock time (the log's `time`) of the first log message matching `pattern`. */
  logged(pattern: RegExp): number | undefined {
    for (const line of this.output.split('\n').slice(0, -1)) {
      if (!line.startsWith('{')) continue;
      const { time, msg } = JSON.parse(line) as { time: number; msg: string };
      if (pattern.test(msg)) return time;
    }
    return undefined;
  }

  /** Resolves with the time (nowMs) of the stream message after which `holds` is true; rejects after `bound` ms. */
  until(holds: (hub: ReadonlyMap<string, string>) => boolean, what: string, bound: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const done = (at: number) => {
        clearTimeout(timer);
        this.waiting.delete(check);
        resolve(at);
      };
      const check = (at: number) => {
        if (holds(this.hub)) done(at);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(check);
        reject(new Error(`hub ${this.id}: not ${what} after ${bound} ms (${JSON.stringify(Object.fromEntries(this.hub))})`));
      }, bound);
      this.waiting.add(check);
      if (holds(this.hub)) done(nowMs());
    });
  }

  /** SIGKILL; resolves once the process is gone. */
  async kill(): Promise<void> {
    this.stream?.terminate();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await gone;
  }

  async stop(): Promise<void> {
    this.stream?.terminate();
    await stopChild(this.child);
  }
}

const roleIs = (role: string) => (hub: ReadonlyMap<string, string>) => hub.get('_hub/role') === role;
const standbyOf = (active: string) => (hub: ReadonlyMap<string, string>) =>
  hub.get('_hub/role') === 'standby' && hub.get('_hub/active') === active;

// --- takeover ---------------------------------------------------------------------------

interface Round {
  /** From the SIGKILL until the other hub logged its claim of the lease (its log's clock). */
  claimMs: number;
  /** From the SIGKILL until it logged that it takes over: the claim came back, and the old lease ran out. */
  tookOverMs: number;
  /** From the SIGKILL until its stream said `_hub/role` = active: what a client of it sees. */
  takeoverMs: number;
  /** From starting the killed hub again until it was a standby naming the new active hub. */
  rejoinMs: number;
  epoch: string;
}

async function takeovers(url: string): Promise<{ rounds: Round[]; firstActiveMs: number; failure?: string }> {
  const flow = flowFile('group', url, 'takeover', { group: 'bench', owner: true });
  const state = (id: string) => join(folder, `state-${id}`);
  const rounds: Round[] = [];
  let firstActiveMs = Number.NaN;
  let active: HubProcess | undefined;
  let standby: HubProcess | undefined;
  try {
    const started = nowMs();
    active = await HubProcess.start('a', flow, state('a'));
    await active.until(roleIs('active'), 'active', TAKEOVER_BOUND_MS);
    firstActiveMs = nowMs() - started;
    standby = await HubProcess.start('b', flow, state('b'));
    await standby.until(standbyOf('a'), 'a standby of hub a', REJOIN_BOUND_MS);
    for (let round = 1; round <= ROUNDS; round++) {
      const [victim, survivor]: [HubProcess, HubProcess] = [active, standby];
      await sleep(Math.random() * KILL_SPREAD_MS);
      const tookOver = survivor.until(roleIs('active'), 'active', TAKEOVER_BOUND_MS);
      const killedAt = nowMs();
      const killedAtWall = Date.now();
      await victim.kill();
      const activeAt = await tookOver;
      const epoch = survivor.hub.get('_hub/epoch') ?? '?';
      const fromKill = (pattern: RegExp) => (survivor.logged(pattern) ?? Number.NaN) - killedAtWall;
      active = survivor;
      standby = undefined;
      const restartedAt = nowMs();
      standby = await HubProcess.start(victim.id, flow, state(victim.id));
      const joinedAt = await standby.until(standbyOf(survivor.id), `a standby of hub ${survivor.id}`, REJOIN_BOUND_MS);
      const last: Round = {
        claimMs: fromKill(new RegExp(`claims the lease of group bench \\(epoch ${epoch}\\)`)),
        tookOverMs: fromKill(new RegExp(`takes over as the active hub of group bench \\(epoch ${epoch}\\)`)),
        takeoverMs: activeAt - killedAt,
        rejoinMs: joinedAt - restartedAt,
        epoch,
      };
      rounds.push(last);
      console.log(
        `  round ${round}: hub ${survivor.id} claimed after ${last.claimMs} ms, took over after ${last.tookOverMs} ms, said active after ${last.takeoverMs.toFixed(0)} ms (epoch ${epoch}); hub ${victim.id} back as standby after ${last.rejoinMs.toFixed(0)} ms`,
      );
    }
    return { rounds, firstActiveMs };
  } catch (error) {
    return { rounds, firstActiveMs, failure: (error as Error).message };
  } finally {
    // The standby first: stopping the active hub first would make it claim the lease on its way out.
    await standby?.stop();
    await active?.stop();
  }
}

// --- voted group ------------------------------------------------------------------------

interface VotedRound {
  readonly kind: 'broker' | 'witness' | 'active hub';
  /** The longest the device went without a command during the round, less the time between writes. */
  readonly offAirMs: number;
  /** When that wait began, from the start of the round (the kill). */
  readonly offAirAfterMs: number;
  /** Writes to the active hub not answered 200 during the round. */
  readonly refused: number;
  /** The broker back: until the standby showed the latest value written meanwhile (broker rounds). */
  readonly catchUpMs?: number;
  /** The active hub killed: until the device heard the other hub's first command. */
  readonly takeoverMs?: number;
  readonly roles: 'kept' | 'moved';
}

/** The bench's device: every `ROUTE 1 <n>` it hears, with the connection (one per hub run) and when. */
async function recordingDevice() {
  const heard: { connection: number; value: number; at: number }[] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    const connection = sockets.push(socket);
    let carry = '';
    socket.on('data', (chunk) => {
      const lines = (carry + chunk.toString()).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        const route = /^ROUTE 1 (\d+)$/.exec(line);
        if (route) heard.push({ connection, value: Number(route[1]), at: nowMs() });
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    heard,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

function startWitness(group: string, listen: string, state: string): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/patchbay.js'),
      'witness',
      '--group',
      group,
      '--members',
      'a,b',
      '--listen',
      listen,
      '--key-file',
      keyFile,
      '--state',
      state,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log = createWriteStream(join(folder, `witness-${++starts}.log`));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

async function votedGroup(broker: Awaited<ReturnType<typeof startBroker>>): Promise<{ rounds: VotedRound[]; failure?: string }> {
  const device = await recordingDevice();
  const [a, b, w] = (await freeUdpPorts(3)) as [number, number, number];
  const witnessAt = `127.0.0.1:${w}`;
  const voters = { a: `127.0.0.1:${a}`, b: `127.0.0.1:${b}`, witness: witnessAt };
  const flow = flowFile('voted', broker.url, 'voted', { group: 'voted', owner: true, voted: { voters, devicePort: device.port } });
  const state = (id: string) => join(folder, `voted-state-${id}`);
  const rounds: VotedRound[] = [];
  let witness = startWitness('voted', witnessAt, join(folder, 'voted-witness'));
  const hubs = new Map<string, HubProcess>();
  let value = 0;
  const answers: { hub: string; value: number; status: number; at: number }[] = [];
  const writer = setInterval(() => {
    const sent = ++value;
    for (const [id, hub] of hubs) {
      const at = nowMs();
      fetch(`http://127.0.0.1:${hub.port}/update?parameter=router/dest/1&value=${sent}`, { signal: AbortSignal.timeout(2000) }).then(
        (response) => answers.push({ hub: id, value: sent, status: response.status, at }),
        () => answers.push({ hub: id, value: sent, status: 0, at }),
      );
    }
  }, WRITE_EVERY_MS);
  const activeOf = () => [...hubs.values()].find((hub) => hub.hub.get('_hub/role') === 'active');
  /** The longest the device went without a command between two instants (from the last before `from`), less the write interval. */
  const offAir = (from: number, to: number) => {
    const times = [
      device.heard.findLast((h) => h.at < from)?.at ?? from,
      ...device.heard.filter((h) => h.at >= from && h.at < to).map((h) => h.at),
      to,
    ];
    let longest = { ms: 0, after: 0 };
    for (let i = 1; i < times.length; i++)
      if (times[i]! - times[i - 1]! > longest.ms) longest = { ms: times[i]! - times[i - 1]!, after: times[i - 1]! - from };
    return { ms: Math.max(0, longest.ms - WRITE_EVERY_MS), after: longest.after };
  };
  const refusedBy = (id: string, from: number, to: number) =>
    answers.filter((answer) => answer.hub === id && answer.at >= from && answer.at < to && answer.status !== 200).length;
  try {
    const [first, second] = await Promise.all([HubProcess.start('a', flow, state('a')), HubProcess.start('b', flow, state('b'))]);
    hubs.set('a', first);
    hubs.set('b', second);
    await Promise.race([
      first.until(roleIs('active'), 'active', TAKEOVER_BOUND_MS),
      second.until(roleIs('active'), 'active', TAKEOVER_BOUND_MS),
    ]);
    for (const kind of ['broker', 'witness', 'active hub'] as const)
      for (let round = 1; round <= VOTED_ROUNDS; round++) {
        const active = activeOf();
        if (!active) throw new Error(`no active hub before ${kind} round ${round}`);
        const other = [...hubs.values()].find((hub) => hub !== active)!;
        await other.until(standbyOf(active.id), `a standby of hub ${active.id}`, REJOIN_BOUND_MS);
        await sleep(1000 + Math.random() * 1000);
        const from = nowMs();
        let catchUpMs: number | undefined;
        let takeoverMs: number | undefined;
        if (kind === 'broker') {
          await broker.kill('SIGKILL');
          await sleep(OUTAGE_MS);
          await broker.restart();
          const backAt = nowMs();
          const latest = value;
          while (Number(await fetch(`http://127.0.0.1:${other.port}/parameters/router/dest/1`).then((r) => r.text())) < latest) {
            if (nowMs() - backAt > REJOIN_BOUND_MS) throw new Error('the standby never caught up after the broker came back');
            await sleep(20);
          }
          catchUpMs = nowMs() - backAt;
        } else if (kind === 'witness') {
          witness.kill('SIGKILL');
          await sleep(OUTAGE_MS);
          witness = startWitness('voted', witnessAt, join(folder, 'voted-witness'));
        } else {
          const lastConnection = device.heard.at(-1)?.connection;
          await active.kill();
          hubs.delete(active.id);
          await other.until(roleIs('active'), 'active', TAKEOVER_BOUND_MS);
          while (!device.heard.some((h) => h.at > from && h.connection !== lastConnection)) {
            if (nowMs() - from > TAKEOVER_BOUND_MS) throw new Error('the device never heard the new active hub');
            await sleep(5);
          }
          takeoverMs = device.heard.find((h) => h.at > from && h.connection !== lastConnection)!.at - from;
          hubs.set(active.id, await HubProcess.start(active.id, flow, state(active.id)));
        }
        await sleep(2500);
        const to = nowMs();
        const roles = activeOf() === active ? 'kept' : 'moved';
        const longest = offAir(from, to);
        const measured: VotedRound = {
          kind,
          offAirMs: longest.ms,
          offAirAfterMs: longest.after,
          refused: kind === 'active hub' ? 0 : refusedBy(active.id, from, to),
          ...(catchUpMs === undefined ? {} : { catchUpMs }),
          ...(takeoverMs === undefined ? {} : { takeoverMs }),
          roles,
        };
        rounds.push(measured);
        console.log(
          `  ${kind} round ${round}: off air ${fmt(measured.offAirMs)} ms (from ${fmt(measured.offAirAfterMs)} ms after the kill), ${measured.refused} writes refused, roles ${roles}${catchUpMs === undefined ? '' : `, the standby caught up ${fmt(catchUpMs)} ms after the broker was back`}${takeoverMs === undefined ? '' : `, the device heard the other hub ${fmt(takeoverMs)} ms after the kill`}`,
        );
      }
    return { rounds };
  } catch (error) {
    return { rounds, failure: (error as Error).message };
  } finally {
    clearInterval(writer);
    for (const hub of hubs.values()) await hub.stop();
    witness.kill('SIGKILL');
    device.close();
  }
}

// --- writes -----------------------------------------------------------------------------

interface Writes {
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  answered: number;
  failed: number;
  /** The writing hub's CPU per write, µs. */
  cpuUs: number;
  /** The other hub's CPU (standby or mirror), cores. */
  otherCores: number;
  clientCores: number;
}

type WriteResult = Omit<Writes, 'cpuUs' | 'otherCores'> & { seconds: number; nextSeq: number };

let seq = 1;

async function writeLoad(port: number, count: number): Promise<WriteResult> {
  const client = forkLoad('update-load.ts');
  await new Promise((resolve) => client.once('message', resolve));
  try {
    const result = await ask<WriteResult>(client, {
      cmd: 'write',
      port,
      parameter: 'bench/p1',
      connections: CLIENTS,
      count,
      seconds: WRITE_SECONDS,
      startSeq: seq,
    });
    seq = result.nextSeq;
    return result;
  } finally {
    await stopChild(client);
  }
}

/** The writes on `writer` while `other` mirrors its values: a warm-up, then `WRITES` measured. */
async function measureWrites(writer: HubProcess, other: HubProcess): Promise<Writes> {
  await writeLoad(writer.port, Math.min(5000, WRITES));
  const before = { writer: cpuSeconds(writer.child.pid!), other: cpuSeconds(other.child.pid!) };
  const result = await writeLoad(writer.port, WRITES);
  return {
    ...result,
    cpuUs: ((cpuSeconds(writer.child.pid!) - before.writer) * 1e6) / (result.answered + result.failed),
    otherCores: (cpuSeconds(other.child.pid!) - before.other) / result.seconds,
  };
}

let trials = 0;

async function writesInGroup(url: string): Promise<Writes> {
  const flow = flowFile(`group-writes-${++trials}`, url, `writes-${trials}`, { group: 'bench', owner: true });
  const a = await HubProcess.start('a', flow, 'none');
  let b: HubProcess | undefined;
  try {
    await a.until(roleIs('active'), 'active', TAKEOVER_BOUND_MS);
    b = await HubProcess.start('b', flow, 'none');
    await b.until(standbyOf('a'), 'a standby of hub a', REJOIN_BOUND_MS);
    return await measureWrites(a, b);
  } finally {
    await b?.stop();
    await a.stop();
  }
}

async function writesAlone(url: string): Promise<Writes> {
  const prefix = `writes-${++trials}`;
  const owner = await HubProcess.start('solo', flowFile(`solo-${trials}`, url, prefix, { owner: true }), 'none');
  let mirror: HubProcess | undefined;
  try {
    mirror = await HubProcess.start('mirror', flowFile(`mirror-${trials}`, url, prefix, { owner: false }), 'none');
    // Mirroring: the owner's parameters read on the other hub.
    const deadline = nowMs() + REJOIN_BOUND_MS;
    while ((await fetch(`http://127.0.0.1:${mirror.port}/parameters/bench/p${PARAMETERS - 1}`)).status !== 200) {
      if (nowMs() > deadline) throw new Error('the mirror never showed the shared parameters');
      await sleep(20);
    }
    return await measureWrites(owner, mirror);
  } finally {
    await mirror?.stop();
    await owner.stop();
  }
}

// --- run --------------------------------------------------------------------------------

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '—';
const startedAt = nowMs();
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadBefore = loadAverage();
const broker = await startBroker({ queued: 2_000_000 });
const stolen: string[] = [];
let taken: Awaited<ReturnType<typeof takeovers>>;
let voted: Awaited<ReturnType<typeof votedGroup>> = { rounds: [] };
const writes: Record<'group' | 'alone', Writes[]> = { group: [], alone: [] };
try {
  console.log(`takeover: ${ROUNDS} rounds of SIGKILL to the active hub of a group of two`);
  let ticks = machineTicks();
  taken = await takeovers(broker.url);
  stolen.push(`takeover ${fmt(stolenSince(ticks) * 100)} %`);
  if (VOTED_ROUNDS > 0) {
    console.log(
      `voted group: ${VOTED_ROUNDS} rounds each of the broker, the witness and the active hub SIGKILLed, a write every ${WRITE_EVERY_MS} ms`,
    );
    ticks = machineTicks();
    voted = await votedGroup(broker);
    stolen.push(`voted group ${fmt(stolenSince(ticks) * 100)} %`);
  }
  console.log(`writes: ${fmt(WRITES)} /update writes from ${CLIENTS} keep-alive clients, the active hub of a group against a hub alone`);
  ticks = machineTicks();
  for (let round = 0; round < WRITE_ROUNDS; round++)
    for (const mode of ['alone', 'group'] as const) {
      const measured = mode === 'group' ? await writesInGroup(broker.url) : await writesAlone(broker.url);
      writes[mode].push(measured);
      console.log(
        `  ${mode}: ${fmt(measured.perSecond)} writes/s, p50 ${fmt(measured.p50, 3)} ms, p99 ${fmt(measured.p99, 3)} ms, max ${fmt(measured.max, 1)} ms, ${fmt(measured.cpuUs, 1)} µs hub CPU a write, client ${fmt(measured.clientCores, 2)} cores${measured.failed ? `, ${measured.failed} failed` : ''}`,
      );
    }
  stolen.push(`writes ${fmt(stolenSince(ticks) * 100)} %`);
} finally {
  await broker.stop();
}

// The round with the higher throughput of each side stands for it (the other was disturbed more by the machine's other work).
const best = (list: Writes[]) => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const group = best(writes.group);
const alone = best(writes.alone);
const { rounds, firstActiveMs, failure } = taken;
const takeoverMs = rounds.map((r) => r.takeoverMs);
const claimMs = rounds.map((r) => r.claimMs);
const tookOverMs = rounds.map((r) => r.tookOverMs);
const rejoinMs = rounds.map((r) => r.rejoinMs);
const maxOf = (values: number[]) => (values.length ? Math.max(...values) : Number.NaN);
const votedOf = (kind: VotedRound['kind']) => voted.rounds.filter((r) => r.kind === kind);
const offAirOf = (kind: VotedRound['kind']) => votedOf(kind).map((r) => r.offAirMs);
const refusedOf = (kind: VotedRound['kind']) => votedOf(kind).reduce((sum, r) => sum + r.refused, 0);
const movedOf = (kind: VotedRound['kind']) => votedOf(kind).filter((r) => r.roles === 'moved').length;
const catchUpMs = votedOf('broker').map((r) => r.catchUpMs ?? Number.NaN);
const votedTakeoverMs = votedOf('active hub').map((r) => r.takeoverMs ?? Number.NaN);
/** Off air 0 s: every round ran, no write to the active hub was refused, and the role never moved (its lease never lapsed). */
const onAir = (kind: VotedRound['kind']) => votedOf(kind).length === VOTED_ROUNDS && refusedOf(kind) === 0 && movedOf(kind) === 0;
/** When the device's longest waits began, from the kill: the median of the rounds. */
const waitFrom = (kind: VotedRound['kind']) =>
  ms(
    percentile(
      votedOf(kind).map((r) => r.offAirAfterMs),
      50,
    ),
  );
const ms = (n: number) => `${fmt(n)} ms`;
/** The mean latency of a write in µs: with one write in flight per client, clients / writes per second. */
const meanUs = (w: Writes) => (CLIENTS * 1e6) / w.perSecond;
const minutes = (nowMs() - startedAt) / 60_000;

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const date = new Date().toISOString().slice(0, 10);
const heading = `${date} · ${cpus().length} cores · ${cpus()[0]?.model.trim()} · Node ${process.version} · commit ${commit}`;
const command = `npm run bench:takeover${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const ratio = (a: number, b: number) => `${fmt(a / b, 2)}×`;
const met = (yes: boolean) => (yes ? 'yes' : '**no**');
const body = [
  `\`${command}\`, ${fmt(minutes, 1)} min: ${rounds.length} of ${ROUNDS} takeovers; ${fmt(WRITES)} writes a side, ${CLIENTS} keep-alive clients, ${WRITE_ROUNDS} rounds in turns, the faster of each.`,
  '',
  '| part | metric | patchbay | baseline | ratio | target | met |',
  '|---|---|---|---|---|---|---|',
  `| takeover | SIGKILL → the standby claims the lease (its log), p50 / max | ${ms(percentile(claimMs, 50))} / ${ms(maxOf(claimMs))} |  |  |  |  |`,
  `| takeover | SIGKILL → it takes over (its log; 1,100 ms after its claim came back at the earliest), p50 / max | ${ms(percentile(tookOverMs, 50))} / ${ms(maxOf(tookOverMs))} |  |  |  |  |`,
  `| takeover | SIGKILL → its WebSocket stream says \`_hub/role\` = active, p50 / max | ${ms(percentile(takeoverMs, 50))} / ${ms(maxOf(takeoverMs))} |  |  | max ≤ 5,000 ms | ${met(!failure && rounds.length === ROUNDS && maxOf(takeoverMs) <= 5000)} |`,
  `| takeover | restart of the killed hub → a standby naming the new active hub, p50 / max | ${ms(percentile(rejoinMs, 50))} / ${ms(maxOf(rejoinMs))} |  |  |  |  |`,
  ...(VOTED_ROUNDS > 0
    ? [
        `| voted group | the broker SIGKILLed for ${fmt(OUTAGE_MS)} ms: writes to the active hub refused; rounds whose roles moved | ${refusedOf('broker')}; ${movedOf('broker')} of ${votedOf('broker').length} |  |  | 0; 0 (off air 0 s) | ${met(onAir('broker'))} |`,
        `| voted group | the same: the device's longest wait for a command, less the ${WRITE_EVERY_MS} ms between writes, p50 / max (it began, at the median, ${waitFrom('broker')} after the kill) | ${ms(percentile(offAirOf('broker'), 50))} / ${ms(maxOf(offAirOf('broker')))} |  |  |  |  |`,
        `| voted group | the broker back → the standby has the latest value, p50 / max | ${ms(percentile(catchUpMs, 50))} / ${ms(maxOf(catchUpMs))} |  |  |  |  |`,
        `| voted group | the witness SIGKILLed for ${fmt(OUTAGE_MS)} ms: writes refused; rounds whose roles moved | ${refusedOf('witness')}; ${movedOf('witness')} of ${votedOf('witness').length} |  |  | 0; 0 (off air 0 s) | ${met(onAir('witness'))} |`,
        `| voted group | the same: the device's longest wait, p50 / max (from ${waitFrom('witness')} after the kill at the median) | ${ms(percentile(offAirOf('witness'), 50))} / ${ms(maxOf(offAirOf('witness')))} |  |  |  |  |`,
        `| voted group | the active hub SIGKILLed → the device hears the other hub, p50 / max | ${ms(percentile(votedTakeoverMs, 50))} / ${ms(maxOf(votedTakeoverMs))} |  |  | p50 ≤ 2,000 ms, max ≤ 5,000 ms | ${met(votedOf('active hub').length === VOTED_ROUNDS && percentile(votedTakeoverMs, 50) <= 2000 && maxOf(votedTakeoverMs) <= 5000)} |`,
      ]
    : []),
  `| writes | /update writes/s, active hub of a group vs a hub without a group | ${fmt(group.perSecond)} | ${fmt(alone.perSecond)} | ${ratio(group.perSecond, alone.perSecond)} | ≥ 0.8× | ${met(group.perSecond / alone.perSecond >= 0.8)} |`,
  `| writes | latency p50 ms | ${fmt(group.p50, 3)} | ${fmt(alone.p50, 3)} | ${ratio(group.p50, alone.p50)} |  |  |`,
  `| writes | latency p99 ms | ${fmt(group.p99, 3)} | ${fmt(alone.p99, 3)} | ${ratio(group.p99, alone.p99)} |  |  |`,
  `| writes | latency max ms | ${fmt(group.max, 1)} | ${fmt(alone.max, 1)} |  |  |  |`,
  `| writes | writing hub's CPU µs per write | ${fmt(group.cpuUs, 1)} | ${fmt(alone.cpuUs, 1)} | ${ratio(group.cpuUs, alone.cpuUs)} |  |  |`,
  `| writes | the other hub (standby; mirror), cores | ${fmt(group.otherCores, 2)} | ${fmt(alone.otherCores, 2)} |  |  |  |`,
  `| writes | load client, cores | ${fmt(group.clientCores, 2)} | ${fmt(alone.clientCores, 2)} |  |  |  |`,
  '',
  `What the broker's acknowledgement costs a write (it waits for its publish's PUBACK): ${fmt((group.p50 - alone.p50) * 1000)} µs at the median, ${fmt((group.p99 - alone.p99) * 1000)} µs at p99 and ${fmt(meanUs(group) - meanUs(alone))} µs on the mean (${fmt(meanUs(group))} against ${fmt(meanUs(alone))} µs: each client has one write in flight, so the writes/s are ${CLIENTS} / the mean latency); the hub's CPU per write ${fmt(group.cpuUs, 1)} against ${fmt(alone.cpuUs, 1)} µs.`,
  '',
  `Takeovers, ms from the SIGKILL to the stream's \`active\` (claim / took over in the hub's log; epoch): ${rounds.map((r) => `${fmt(r.takeoverMs)} (${fmt(r.claimMs)} / ${fmt(r.tookOverMs)}; ${r.epoch})`).join(', ')}. The first hub of the new group said it was active ${ms(firstActiveMs)} after it was started.`,
  ...(failure ? ['', `The takeover rounds stopped: ${failure}`] : []),
  ...(voted.failure ? ['', `The voted group's rounds stopped: ${voted.failure}`] : []),
  '',
  `Every round of writes (writes/s, p50 / p99 ms): group ${writes.group.map((w) => `${fmt(w.perSecond)} (${fmt(w.p50, 3)} / ${fmt(w.p99, 3)})`).join(', ')}; alone ${writes.alone.map((w) => `${fmt(w.perSecond)} (${fmt(w.p50, 3)} / ${fmt(w.p99, 3)})`).join(', ')}.`,
  '',
  `CPU time stolen by the hypervisor while each part ran: ${stolen.join(', ')}. Load average of the machine (1, 5, 15 min) before: ${loadBefore}; after: ${loadAverage()}.`,
].join('\n');
console.log(`\n## ${heading}\n\n${body}`);

const name = `${date}-${commit}-takeover.md`;
const results = join(root, 'bench/results', name);
writeFileSync(results, withRun(existsSync(results) ? readFileSync(results, 'utf8') : undefined, date, commit, `## ${heading}\n\n${body}`));
console.log(`\nwrote bench/results/${name}; hub logs in ${folder}`);
process.exit(failure || voted.failure ? 1 : 0);
