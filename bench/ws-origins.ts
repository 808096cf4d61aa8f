/**
 * What `?origins=1` (R-O2: who changed each value, on the WebSocket) costs the hub's fan-out,
 * and whether `{p, v}` clients pay anything for it: the hub's WebSocket layer
 * (`lib/http/ws/fan-out.ts`) in process, on a graph of 1,000 parameters, with sockets that
 * take what they are sent and do nothing (uWS's own work, which this does not change, is
 * left out). Changes are made in turns of 10 (published: more than 32 go to each socket
 * in a write of its own), each with its origin, and the CPU time per change of the whole turn (graph, serialising, fan-out) is
 * measured for three sets of clients:
 *
 * - plain: 1,000 `{p, v}` clients (one filter set, so one message per change);
 * - plain + 1 origins: the same and one client with `?origins=1`;
 * - origins: 1,000 clients with `?origins=1`.
 *
 *   npm run bench:origins [-- --against=<checkout>]
 *
 * With `--against` (a checkout of an earlier commit, `git worktree add /tmp/before <commit>`),
 * "plain" is also measured on that checkout's graph and WebSocket layer, in the same
 * process: the baseline. The sets take turns, round after round, so that whatever else the
 * machine does falls on all of them alike; printed are the best of each and the median of
 * the per-round ratios. Printed, not asserted.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Graph as GraphOf } from '../lib/core/graph.ts';
import type { OwnedParameter } from '../lib/core/parameter.ts';
import type { Scheduler } from '../lib/core/scheduler.ts';
import type { ClientAccess } from '../lib/http/access.ts';
import type { WsFanOut as WsFanOutOf } from '../lib/http/ws/fan-out.ts';
import type { WsClient, WsSocket } from '../lib/http/ws/state.ts';

const PARAMETERS = 1000;
const CLIENTS = 1000;
const TURNS = 5000;
/** At most 32 a turn go through `publish`, once for all clients of a topic; more go to each socket in one write. */
const PER_TURN = 10;
const ROUNDS = 12;

/** The graph and WebSocket layer of one checkout. */
interface Code {
  readonly Graph: typeof GraphOf;
  readonly WsFanOut: typeof WsFanOutOf;
  readonly fullAccess: ClientAccess;
  readonly realTime: Scheduler;
}

async function codeOf(root: string): Promise<Code> {
  const load = (path: string) => import(pathToFileURL(resolve(root, path)).href);
  const [graph, hub, access, scheduler] = await Promise.all([
    load('lib/core/graph.ts'),
    // Commits before the fan-out became a folder kept it in one file, as `WsHub`.
    load('lib/http/ws/fan-out.ts').catch(() => load('lib/http/ws-hub.ts').then((old) => ({ WsFanOut: old.WsHub }))),
    load('lib/http/access.ts'),
    load('lib/core/scheduler.ts'),
  ]);
  return { Graph: graph.Graph, WsFanOut: hub.WsFanOut, fullAccess: access.fullAccess, realTime: scheduler.realTime };
}

/** A socket that takes what it is sent and keeps nothing. */
class Sink implements WsSocket {
  received = 0;
  constructor(private readonly data: WsClient) {}
  send(): void {
    this.received++;
  }
  cork(work: () => void): void {
    work();
  }
  subscribe(): void {}
  unsubscribe(): void {}
  getBufferedAmount(): number {
    return 0;
  }
  end(): void {}
  getUserData(): WsClient {
    return this.data;
  }
}

/**
 * A client as the upgrade makes one; written out rather than through `newWsClient`, whose
 * arguments changed with `origins`. The fields after `resume` are what commits before the
 * fan-out kept its own records of clients kept on the client: they read them, later ones
 * ignore them.
 */
const client = (access: ClientAccess, origins: boolean): WsClient => {
  const data = {
    filters: [],
    access,
    origin: 'ws',
    batch: false,
    maxHz: 0,
    origins,
    meta: false,
    resume: undefined,
    topic: undefined,
    lagging: false,
    snapshotBytes: 0,
    missedSince: 0,
    snapshot: undefined,
  };
  return data;
};

/** Nanoseconds of CPU per change with these clients joined. */
function measure({ Graph, WsFanOut, fullAccess, realTime }: Code, plain: number, withOrigins: number): number {
  const graph = new Graph();
  graph.registerConnection('bench');
  const parameters: OwnedParameter[] = [];
  for (let i = 0; i < PARAMETERS; i++) {
    const defined = graph.define('bench', `p${i}`, { type: 'S', access: 'read-write', initial: '0' });
    if (!defined.ok) throw defined.error;
    parameters.push(defined.value);
  }
  const turnEnds: (() => void)[] = [];
  let published = 0;
  const hub = new WsFanOut(graph, [], () => published++, {
    lagLimit: Number.MAX_SAFE_INTEGER,
    scanIntervalMs: 1000,
    dropLimit: Number.MAX_SAFE_INTEGER,
    scheduler: realTime,
    afterTurn: (work) => turnEnds.push(work),
  });
  hub.start();
  const endTurn = () => {
    for (let work = turnEnds.shift(); work; work = turnEnds.shift()) work();
  };
  for (let i = 0; i < plain; i++) hub.join(new Sink(client(fullAccess, false)));
  for (let i = 0; i < withOrigins; i++) hub.join(new Sink(client(fullAccess, true)));
  endTurn();
  let n = 0;
  const before = process.cpuUsage();
  for (let turn = 0; turn < TURNS; turn++) {
    for (let i = 0; i < PER_TURN; i++) (parameters[n++ % PARAMETERS] as OwnedParameter).set(`v${n}`, 'ws 127.0.0.1');
    endTurn();
  }
  const used = process.cpuUsage(before);
  hub.stop();
  if (published === 0) throw new Error('nothing was published: the bench measured nothing');
  return ((used.user + used.system) * 1000) / (TURNS * PER_TURN);
}

const against = process.argv.find((arg) => arg.startsWith('--against='))?.slice('--against='.length);
const here = await codeOf(new URL('..', import.meta.url).pathname);
const before = against === undefined ? undefined : await codeOf(against);
const sets: [string, Code, number, number][] = [
  ...(before ? [['plain, before', before, CLIENTS, 0] as [string, Code, number, number]] : []),
  ['plain', here, CLIENTS, 0],
  ['plain + 1 origins', here, CLIENTS, 1],
  ['origins', here, 0, CLIENTS],
];
const runs = new Map<string, number[]>(sets.map(([name]) => [name, []]));
for (const [, code, plain, withOrigins] of sets) measure(code, plain, withOrigins); // warm up
/** With `--expose-gc`, each measurement starts without the garbage of the one before. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
for (let round = 0; round < ROUNDS; round++) {
  // Each round begins with another set: none is always the one after the largest.
  for (let i = 0; i < sets.length; i++) {
    const [name, code, plain, withOrigins] = sets[(round + i) % sets.length] as [string, Code, number, number];
    collect();
    runs.get(name)?.push(measure(code, plain, withOrigins));
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const baseline = runs.get(before ? 'plain, before' : 'plain') ?? [];
for (const [name, ns] of runs) {
  const ratio = median(ns.map((value, round) => value / (baseline[round] ?? Number.NaN)));
  console.log(
    `${name}: best ${Math.min(...ns).toFixed(0)} ns CPU a change, median ${median(ns).toFixed(0)}; ` +
      `per round against ${before ? 'plain, before' : 'plain'}: median ${ratio.toFixed(2)}x (${ROUNDS} rounds)`,
  );
}
