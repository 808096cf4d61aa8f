import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { type ConnectionInfo, connectionStatuses } from '../core/api-shapes.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { Graph } from '../core/graph.ts';
import type { Tally } from './respond.ts';
import type { WsFanOut } from './ws/fan-out.ts';

/** What `/metrics` reads, at scrape time only: nothing is counted twice or on a timer. */
export interface MetricSources {
  readonly graph: Graph;
  readonly connections: () => readonly ConnectionInfo[];
  readonly webSockets: WsFanOut;
  /** Answers by status, per route. */
  readonly routes: ReadonlyMap<string, Tally>;
  /** The hub's own counts: rules and the state store. */
  readonly counts?: () => HubCounts;
  /** What each connection type reports of its connections. */
  readonly connectionMetrics: readonly TypedMetric[];
}

type TypedMetric = ConnectionMetric & { readonly type: string };

/**
 * The `owner` label of a connection another hub runs (R-M5); none for this hub's own. Every
 * hub showing it serves it too, so a sum over hubs takes `owner=""` to count each once,
 * from the hub that runs it.
 */
const ownerOf = (connection: ConnectionInfo): { owner?: string } => (connection.owner === undefined ? {} : { owner: connection.owner });

/**
 * The Prometheus registry of one rest-api connection (R-O1): the process (prom-client's
 * default metrics, event-loop lag included), connections, parameters, HTTP answers and
 * WebSocket clients. Every value is read from the hub when scraped; the request and
 * WebSocket paths only add to plain counters.
 */
export function hubMetrics(sources: MetricSources): Registry {
  const { graph, connections, webSockets, routes, counts } = sources;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  new Gauge({
    name: 'patchbay_connection_status',
    help: "Each connection's status: 1 for the status it has, 0 for the others; owner names the hub running one shown from another hub.",
    labelNames: ['connection', 'type', 'status', 'owner'],
    registers,
    collect() {
      this.reset();
      for (const connection of connections()) {
        const labels = { connection: connection.id, type: connection.type, ...ownerOf(connection) };
        for (const status of connectionStatuses) this.set({ ...labels, status }, connection.status === status ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'patchbay_parameters',
    help: 'Parameters defined, by connection; owner names the hub running one shown from another hub.',
    labelNames: ['connection', 'owner'],
    registers,
    collect() {
      this.reset();
      const owners = new Map(connections().map((c) => [c.id, c]));
      for (const [connection, count] of graph.countsByConnection()) {
        const listed = owners.get(connection);
        this.set({ connection, ...(listed ? ownerOf(listed) : {}) }, count);
      }
    },
  });
  new Counter({
    name: 'patchbay_http_requests_total',
    help: 'HTTP requests answered, by route and status.',
    labelNames: ['route', 'status'],
    registers,
    collect() {
      this.reset();
      for (const [route, tally] of routes) for (const [status, count] of tally) this.inc({ route, status: String(status) }, count);
    },
  });
  new Gauge({
    name: 'patchbay_websocket_clients',
    help: 'WebSocket clients connected, and those off the stream because they stopped reading.',
    labelNames: ['state'],
    registers,
    collect() {
      const { clients, lagging } = webSockets.stats();
      this.set({ state: 'connected' }, clients);
      this.set({ state: 'lagging' }, lagging);
    },
  });
  new Counter({
    name: 'patchbay_websocket_messages_sent_total',
    help: 'Messages handed to uWS for WebSocket clients, snapshots included.',
    registers,
    collect() {
      this.reset();
      this.inc(webSockets.sent().messages);
    },
  });
  new Counter({
    name: 'patchbay_websocket_bytes_sent_total',
    help: 'Bytes of those messages.',
    registers,
    collect() {
      this.reset();
      this.inc(webSockets.sent().bytes);
    },
  });
  new Gauge({
    name: 'patchbay_websocket_resume_buffered',
    help: 'What ?resume=1 filter sets keep for clients that come back (R-W3): filter sets, messages and bytes.',
    labelNames: ['kept'],
    registers,
    collect() {
      const { topics, messages, bytes } = webSockets.resumeStats();
      this.set({ kept: 'filter_sets' }, topics);
      this.set({ kept: 'messages' }, messages);
      this.set({ kept: 'bytes' }, bytes);
    },
  });
  new Counter({
    name: 'patchbay_websocket_comebacks_total',
    help: 'WebSocket clients that came back with a resume token: resumed, sent a snapshot instead (resync), or refused.',
    labelNames: ['result'],
    registers,
    collect() {
      this.reset();
      const { resumed, resynced, refused } = webSockets.resumeStats();
      this.inc({ result: 'resumed' }, resumed);
      this.inc({ result: 'resync' }, resynced);
      this.inc({ result: 'refused' }, refused);
    },
  });
  if (counts) hubCountMetrics(counts, registers);
  connectionMetrics(sources.connectionMetrics, connections, registers);
  return registry;
}

/**
 * What each connection type reports of its connections (`ConnectionMetric`), read from each
 * connection's details when scraped: this module knows no type by name.
 */
function connectionMetrics(metrics: readonly TypedMetric[], connections: () => readonly ConnectionInfo[], registers: Registry[]): void {
  for (const metric of metrics) {
    const labelNames = ['connection', ...(metric.labelNames ?? [])];
    const samples = () =>
      connections().flatMap((c) =>
        c.type === metric.type && c.details !== undefined
          ? metric.samples(c.details).map(({ labels, value }) => ({ labels: { connection: c.id, ...labels }, value }))
          : [],
      );
    const options = { name: metric.name, help: metric.help, labelNames, registers };
    if (metric.kind === 'gauge') {
      new Gauge({
        ...options,
        collect() {
          this.reset();
          for (const { labels, value } of samples()) this.set(labels, value);
        },
      });
    } else {
      new Counter({
        ...options,
        collect() {
          this.reset();
          for (const { labels, value } of samples()) this.inc(labels, value);
        },
      });
    }
  }
}

/** A counter whose total is read from the hub when scraped. */
function total(name: string, help: string, read: () => number | undefined, registers: Registry[]): void {
  new Counter({
    name,
    help,
    registers,
    collect() {
      this.reset();
      const value = read();
      if (value !== undefined) this.inc(value);
    },
  });
}

function hubCountMetrics(counts: () => HubCounts, registers: Registry[]): void {
  new Counter({
    name: 'patchbay_connection_restarts_total',
    help: 'Restarts of a connection by reloads that changed its settings.',
    labelNames: ['connection'],
    registers,
    collect() {
      this.reset();
      for (const [connection, restarts] of counts().restarts) this.inc({ connection }, restarts);
    },
  });
  total('patchbay_rule_writes_total', 'Destination writes made by rules.', () => counts().rules.writes, registers);
  total('patchbay_rule_write_failures_total', 'Rule writes a destination refused.', () => counts().rules.failures, registers);
  total('patchbay_rule_loop_cuts_total', 'Rule writes dropped to cut a feedback loop.', () => counts().rules.loopCuts, registers);
  total('patchbay_store_writes_total', 'Values and records written to the state store.', () => counts().store?.writes, registers);
  total(
    'patchbay_store_commits_total',
    'Commits of the state store: one per event-loop turn that wrote.',
    () => counts().store?.commits,
    registers,
  );
  total(
    'patchbay_store_commit_seconds_total',
    'Seconds spent committing; divided by commits, the mean commit latency.',
    () => counts().store?.commitSeconds,
    registers,
  );
  new Gauge({
    name: 'patchbay_store_healthy',
    help: '1 while the state store saves values, 0 while they are kept in memory only.',
    registers,
    collect() {
      const store = counts().store;
      if (store) this.set(store.healthy ? 1 : 0);
    },
  });
}
