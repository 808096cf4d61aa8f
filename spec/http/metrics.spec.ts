import { Type } from '@sinclair/typebox';
import test from 'ava';
import { defineServingType, type ServingContext } from '../../lib/connections/serving.ts';
import { asWritten } from '../../lib/sdk/index.ts';
import { ok } from '../../lib/core/errors.ts';
import { Hub } from '../../lib/hub/hub.ts';
import { eventually } from '../helpers/eventually.ts';
import { configOf, flowOf } from '../helpers/hub.ts';
import { Client, serve } from '../helpers/http.ts';

const studio = {
  studio: { type: 'dummy', parameters: ['onair,B,false', 'title,S,Morning'] },
  off: { type: 'dummy', enabled: false, parameters: ['x,I,1'] },
};

/** A serving type that shows one connection of another hub, away, with one parameter, as hub sharing would. */
const sharing = defineServingType({
  type: 'sharing',
  summary: 'Shows a connection of another hub.',
  settings: Type.Object({}),
  parse: asWritten,
  create: (context: ServingContext) => ({
    start() {
      const opened = context.hub.mirror('desk', 'studio-b');
      if (!opened.ok) throw opened.error;
      opened.value.define('level', { type: 'I', access: 'read-write', forward: () => ok(true) });
      opened.value.show({ type: 'dummy', status: 'failed', reason: 'hub studio-b is away', description: '', location: '', group: '' });
    },
    stop() {},
  }),
});

/** The value of one sample of the text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',').filter(Boolean);
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(match[3]);
  }
  return undefined;
}

test('/metrics counts what happened: answers by route and status, WebSocket clients and messages, connections, parameters (R-O1)', async (t) => {
  const { base, port } = await serve(t, {}, studio);
  const scrape = async () => {
    const answer = await fetch(`${base}/metrics`);
    t.regex(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return answer.text();
  };
  const before = await scrape();
  for (let i = 0; i < 5; i++) await fetch(`${base}/parameters/studio/title`);
  for (let i = 0; i < 3; i++) await fetch(`${base}/parameters/studio/nope`);
  await fetch(`${base}/update?parameter=studio/onair&value=true`);
  const client = await Client.open(t, `ws://127.0.0.1:${port}/ws`);
  await client.untilCount(2);
  await fetch(`${base}/update?parameter=studio/title&value=Evening`);
  await client.untilCount(3);
  const after = await scrape();
  const delta = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
  t.is(delta('patchbay_http_requests_total', { route: '/parameters/*', status: '200' }), 5);
  t.is(delta('patchbay_http_requests_total', { route: '/parameters/*', status: '404' }), 3);
  t.is(delta('patchbay_http_requests_total', { route: '/update', status: '200' }), 2);
  t.is(sample(after, 'patchbay_websocket_clients', { state: 'connected' }), 1);
  t.is(delta('patchbay_websocket_messages_sent_total', {}), 3, 'a snapshot of 2 values, then 1 change');
  t.is(sample(after, 'patchbay_connection_status', { connection: 'studio', type: 'dummy', status: 'ok' }), 1);
  t.is(sample(after, 'patchbay_connection_status', { connection: 'off', type: 'dummy', status: 'disabled' }), 1);
  t.is(sample(after, 'patchbay_parameters', { connection: 'studio' }), 2);
  t.true((sample(after, 'process_cpu_user_seconds_total') ?? 0) > 0);
  t.not(sample(after, 'nodejs_eventloop_lag_seconds'), undefined);
});

test('/healthz answers while the hub serves; /readyz is 503 with the reasons while a connection is not ok, and 200 again', async (t) => {
  const { mkdtemp, mkdir, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const folder = join(await mkdtemp(join(tmpdir(), 'patchbay-ready-')), 'later');
  await mkdir(folder);
  const { base, hub } = await serve(
    t,
    {},
    { ...studio, out: { type: 'xml-file-output', filename: join(folder, 'out.xml'), template: '<a>$V</a>' } },
  );
  t.is(await (await fetch(`${base}/healthz`)).text(), 'OK');
  t.deepEqual(await (await fetch(`${base}/readyz`)).json(), { ok: true, connections: 3 }, 'the disabled connection is not waited for');
  await rm(folder, { recursive: true }); // the output folder goes while the hub runs
  hub.graph.write('out/V', 'x');
  await eventually(async () => (await fetch(`${base}/readyz`)).status === 503, 'readyz says not ready once the write failed');
  const notReady = await fetch(`${base}/readyz`);
  t.is(notReady.status, 503);
  t.like(await notReady.json(), {
    ok: false,
    code: 'PB_NOT_READY',
    connections: [{ id: 'out', status: 'degraded', code: 'PB_FILE_WRITE' }],
  });
  await mkdir(folder);
  hub.graph.write('out/V', 'y');
  await eventually(async () => (await fetch(`${base}/readyz`)).status === 200, 'readyz is ready again once the file is written');
});

test('/readyz waits only for the connections in `required`; /metrics needs full access or a token given it', async (t) => {
  const { base } = await serve(
    t,
    {
      required: ['studio', 'ghost'],
      token: 'admin',
      tokens: [
        { name: 'desk', token: 'desk', read: ['#'] },
        { name: 'prom', token: 'prom', read: [], metrics: true },
      ],
    },
    studio,
  );
  const answer = await fetch(`${base}/readyz`, { headers: { authorization: 'Bearer admin' } });
  t.is(answer.status, 503);
  t.like(await answer.json(), { connections: [{ id: 'ghost', status: 'missing' }] });
  t.is((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer desk' } })).status, 403);
  t.is((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer prom' } })).status, 200);
  t.is((await fetch(`${base}/metrics`)).status, 401);
});

test('every series the Grafana dashboard charts is one /metrics serves', async (t) => {
  const { readFile } = await import('node:fs/promises');
  const dashboard = JSON.parse(await readFile(new URL('../../monitoring/grafana-dashboard.json', import.meta.url), 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const { base } = await serve(t, {}, studio);
  const served = new Set(
    (await (await fetch(`${base}/metrics`)).text())
      .split('\n')
      .filter((l) => l.startsWith('# TYPE '))
      .map((l) => l.split(' ')[2]),
  );
  const charted = dashboard.panels.flatMap((p) =>
    p.targets.flatMap((target) => target.expr.match(/\b(?:patchbay|process|nodejs)_[a-z0-9_]+/g) ?? []),
  );
  t.true(charted.length > 5);
  for (const name of charted) t.true(served.has(name), `${name} is not served`);
});

test("/metrics counts rule writes, refusals and loop cuts, and the state store's writes and commits", async (t) => {
  const { startHub } = await import('../helpers/hub.ts');
  const { storeWith } = await import('../helpers/state.ts');
  const state = await storeWith(t);
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        s: { type: 'dummy', parameters: ['a,S', 'b,S', 'n,I', 'ping,B,false', 'pong,B,true'] },
      },
      rules: [
        { source: 's/a', destinations: ['s/b', 's/n'] },
        { source: 's/ping', destinations: ['s/pong'], pipe: [{ not: true }] },
        { source: 's/pong', destinations: ['s/ping'] },
      ],
    },
    { state, loopLimit: 4 },
  );
  const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
  const scrape = async () => (await fetch(`${base}/metrics`)).text();
  const before = await scrape();
  for (const value of ['1', '2', 'x']) await fetch(`${base}/update?parameter=s/a&value=${value}`);
  await fetch(`${base}/update?parameter=s/ping&value=true`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const after = await scrape();
  const delta = (name: string) => (sample(after, name) ?? 0) - (sample(before, name) ?? 0);
  t.is(delta('patchbay_rule_write_failures_total'), 1, '"x" is not an integer for s/n');
  t.true(delta('patchbay_rule_loop_cuts_total') >= 1);
  t.true(delta('patchbay_rule_writes_total') >= 6);
  t.true(delta('patchbay_store_writes_total') >= 4);
  t.true(delta('patchbay_store_commits_total') >= 4, 'every /update waited for its own commit');
  t.true(delta('patchbay_store_commit_seconds_total') > 0);
  t.is(sample(after, 'patchbay_store_healthy'), 1);
});

test('/metrics counts the restarts of each connection by reloads', async (t) => {
  const { flowOf } = await import('../helpers/hub.ts');
  const { base, hub } = await serve(t, {}, {});
  // The api keeps the settings serve() gave it, so it keeps running (and its port) across reloads.
  const flow = (duration: number) =>
    flowOf({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        clock: { type: 'timer', timers: [{ duration }] },
        s: { type: 'dummy', parameters: ['x,I'] },
      },
    });
  for (const duration of [1000, 2000, 3000]) await hub.reload(flow(duration));
  const text = await (await fetch(`${base}/metrics`)).text();
  t.is(sample(text, 'patchbay_connection_restarts_total', { connection: 'clock' }), 2, 'added once, then restarted twice');
  t.is(sample(text, 'patchbay_connection_restarts_total', { connection: 's' }), undefined, 'kept as it was');
});

test('/readyz does not wait for connections other hubs run unless `required` names them; a token that reads no connection is told so, not that all is well (R-O1)', async (t) => {
  const start = async (required: string[]) => {
    const flow = flowOf({
      connections: {
        api: {
          type: 'rest-api',
          port: 0,
          bindIp: '127.0.0.1',
          required,
          token: 'admin',
          tokens: [{ name: 'none', token: 'none', read: ['nothing/#'] }],
        },
        share: { type: 'dummy' },
      },
    });
    const hub = new Hub({
      flow: { ...flow, connections: flow.connections.map((c) => (c.id === 'share' ? configOf('share', sharing) : c)) },
    });
    t.teardown(() => hub.stop());
    await hub.start();
    return `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
  };
  const ask = (base: string, token = 'admin') => fetch(`${base}/readyz`, { headers: { authorization: `Bearer ${token}` } });
  const base = await start([]);
  const listed = (await (await fetch(`${base}/connections`, { headers: { authorization: 'Bearer admin' } })).json()) as {
    id: string;
    owner?: string;
  }[];
  t.like(
    listed.find((c) => c.id === 'desk'),
    { owner: 'studio-b' },
    'a connection of another hub names its owner',
  );
  const ready = await ask(base);
  t.is(ready.status, 200, 'the hub is ready though another hub is away');
  t.deepEqual(await ready.json(), { ok: true, connections: 2 });
  const blind = await ask(base, 'none');
  t.is(blind.status, 403);
  t.like(await blind.json(), { code: 'PB_FORBIDDEN', error: 'this token reads no connection, so /readyz has nothing to tell it' });
  const waiting = await ask(await start(['desk']));
  t.is(waiting.status, 503, 'named in required, it is waited for');
  t.like(await waiting.json(), { connections: [{ id: 'desk', status: 'failed' }] });
});

/** A hub with an api and a dummy of its own, showing `desk` of hub studio-b (see `sharing`); its base URL. */
async function hubShowingAnother(t: import('ava').ExecutionContext, api: Record<string, unknown> = {}): Promise<string> {
  const flow = flowOf({
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', ...api },
      studio: { type: 'dummy', parameters: ['onair,B,false', 'title,S,Morning'] },
      share: { type: 'dummy' },
    },
  });
  const hub = new Hub({ flow: { ...flow, connections: flow.connections.map((c) => (c.id === 'share' ? configOf('share', sharing) : c)) } });
  t.teardown(() => hub.stop());
  await hub.start();
  return `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
}

test('a connection another hub runs is served with the hub that owns it, so one scraping both hubs counts it once (R-O1, R-M5)', async (t) => {
  const text = await (await fetch(`${await hubShowingAnother(t)}/metrics`)).text();
  t.is(sample(text, 'patchbay_connection_status', { connection: 'desk', type: 'dummy', status: 'failed', owner: 'studio-b' }), 1);
  t.is(sample(text, 'patchbay_parameters', { connection: 'desk', owner: 'studio-b' }), 1);
  t.is(sample(text, 'patchbay_connection_status', { connection: 'studio', type: 'dummy', status: 'ok' }), 1, 'its own carry no owner');
  t.is(sample(text, 'patchbay_parameters', { connection: 'studio' }), 2);
});

interface Panel {
  readonly title: string;
  readonly fieldConfig: { defaults: { unit?: string }; overrides: { properties: { id: string }[] }[] };
  readonly targets: { expr: string }[];
}
interface Dashboard {
  readonly panels: Panel[];
  readonly templating: { list: { name: string; type: string; query?: unknown; includeAll?: boolean; multi?: boolean }[] };
}
const dashboard = async (): Promise<Dashboard> => {
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile(new URL('../../monitoring/grafana-dashboard.json', import.meta.url), 'utf8')) as Dashboard;
};

test('the Grafana dashboard picks instances, and every series it charts is of the picked ones', async (t) => {
  const { panels, templating } = await dashboard();
  const instance = templating.list.find((v) => v.name === 'instance');
  t.like(instance, { type: 'query', includeAll: true, multi: true });
  for (const panel of panels) {
    for (const { expr } of panel.targets) {
      const selectors = expr.match(/\b(?:patchbay|process|nodejs)_[a-z0-9_]+(\{[^}]*\})?/g) ?? [];
      for (const selector of selectors) t.true(selector.includes('instance=~"$instance"'), `${panel.title}: ${selector}`);
    }
  }
});

test('the Grafana dashboard counts a connection once, on the hub that runs it, not again on each hub showing it', async (t) => {
  const { panels } = await dashboard();
  const connectionSeries = panels.flatMap((p) =>
    p.targets.flatMap(({ expr }) => expr.match(/\bpatchbay_(?:connection_status|parameters)\b(\{[^}]*\})?/g) ?? []),
  );
  t.true(connectionSeries.length >= 2);
  for (const selector of connectionSeries) t.true(selector.includes('owner=""'), selector);
});

/**
 * The unit of what an expression charts, from the names of its series (Prometheus' naming:
 * base units as suffixes, counters in `_total`, 1 or 0 for a state): a rate of a counter is per second.
 */
function unitOf(expr: string): string {
  const names = expr.match(/\b(?:patchbay|process|nodejs)_[a-z0-9_]+/g) ?? [];
  const rate = /\b(?:rate|irate)\(/.test(expr);
  const ratio = / \/ /.test(expr);
  const first = names[0] ?? '';
  if (ratio && /_seconds_total$/.test(first)) return 's';
  if (/_cpu_.*seconds_total$/.test(first) && rate) return 'percentunit';
  if (/_bytes(?:_[a-z]+)?_total$/.test(first)) return rate ? 'Bps' : 'bytes';
  if (/_(?:healthy|connected)$/.test(first)) return 'bool_yes_no';
  if (/_seconds$/.test(first)) return 's';
  if (/_bytes$/.test(first)) return 'bytes';
  if (/^patchbay_http_requests_total$/.test(first) && rate) return 'reqps';
  if (/_total$/.test(first)) return rate ? 'ops' : 'short';
  return 'short';
}

test('each Grafana panel charts one unit, and says which', async (t) => {
  const { panels } = await dashboard();
  for (const panel of panels) {
    const units = new Set(panel.targets.map(({ expr }) => unitOf(expr)));
    t.is(units.size, 1, `${panel.title}: ${[...units].join(', ')}`);
    t.is(panel.fieldConfig.defaults.unit, [...units][0], panel.title);
    t.deepEqual(
      panel.fieldConfig.overrides.flatMap((o) => o.properties.filter((p) => p.id === 'unit')),
      [],
      `${panel.title}: no series of another unit`,
    );
  }
});
