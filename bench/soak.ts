/**
 * `npm run bench:soak [-- --minutes 30]`: the hub under a steady studio load for a long
 * time, to see that what it holds stays flat. 1,000 WebSocket clients (200 per-message, 400
 * `?batch=1`, 400 `?maxHz=10&batch=1`, in separate processes) watch 1,000 kept parameters written
 * 1,000 times a second over one WebSocket (batches of 100 every 100 ms), with a state folder,
 * and the flow file is reloaded every 5 minutes. Every 10 s it samples the hub's resident
 * memory, V8 heap, event-loop delay p99 (from /metrics) and open descriptors; it writes the
 * samples as a table, the slope of memory after the first 5 minutes (least squares, KiB a
 * minute), and a PNG plot, to bench/results/<date>-<commit>-soak.{md,png}.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { sleep } from './lib/clock.ts';
import { type LoadClients, startClients } from './lib/clients.ts';
import { hubMetrics, metricValue } from './lib/metrics.ts';
import { cpuSeconds, rssBytes, startServer } from './lib/processes.ts';

const minutesArgument = process.argv.indexOf('--minutes');
const minutes = minutesArgument > 0 ? Number(process.argv[minutesArgument + 1]) : 30;
const root = fileURLToPath(new URL('..', import.meta.url));
const PARAMETERS = 1000;
const SAMPLE_MS = 10_000;
const RELOAD_MS = 5 * 60_000;
const WARM_UP_MINUTES = 5;
// Read at the start: the code the hub runs, whatever is committed during a half-hour run.
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();

const folder = mkdtempSync(join(tmpdir(), 'patchbay-soak-'));
const flowFile = join(folder, 'soak.json5');
/** The flow, with a description that changes at each reload so that the reload changes something. */
const writeFlow = (generation: number) =>
  writeFileSync(
    flowFile,
    JSON.stringify({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        soak: {
          type: 'dummy',
          description: `soak, generation ${generation}`,
          parameters: Array.from({ length: PARAMETERS }, (_, i) => `p${i},I,0`),
        },
      },
    }),
  );
writeFlow(0);

const server = await startServer('patchbay', process.execPath, [
  join(root, 'bin/patchbay.js'),
  'run',
  flowFile,
  '--state',
  join(folder, 'state'),
  '--log-format',
  'json',
]);

interface Sample {
  readonly minute: number;
  readonly rss: number;
  readonly heap: number;
  readonly loopP99: number;
  readonly descriptors: number;
  readonly received: number;
  /** The hub's CPU since the sample before, in cores. */
  readonly cpu: number;
}

const samples: Sample[] = [];
const clientGroups: LoadClients[] = [];
let writer: WebSocket | undefined;
try {
  for (const [path, count] of [
    ['/ws', 200],
    ['/ws?batch=1', 400],
    ['/ws?maxHz=10&batch=1', 400],
  ] as const) {
    const clients = await startClients();
    await clients.connect(server.port, path, count);
    clientGroups.push(clients);
  }

  writer = new WebSocket(`ws://127.0.0.1:${server.port}/ws?filter=%5E%24`);
  await new Promise((resolve, reject) => writer!.once('open', resolve).once('error', reject));
  let sequence = 0;
  const writes = setInterval(() => {
    const batch = Array.from({ length: 100 }, () => {
      sequence++;
      return { p: `soak/p${sequence % PARAMETERS}`, v: sequence };
    });
    writer?.send(JSON.stringify(batch));
  }, 100);

  let generation = 0;
  const reloads = setInterval(() => {
    writeFlow(++generation);
    process.kill(server.pid, 'SIGHUP');
  }, RELOAD_MS);

  const started = Date.now();
  let cpuBefore = cpuSeconds(server.pid);
  let sampledAt = Date.now();
  console.log(`soak: ${minutes} min, 1,000 clients, 1,000 changes/s, a reload every 5 min; samples every 10 s`);
  while (Date.now() - started < minutes * 60_000) {
    await sleep(SAMPLE_MS);
    const metrics = await hubMetrics(server.port);
    const received = (await Promise.all(clientGroups.map((clients) => clients.report(0)))).reduce(
      (sum, report) => sum + report.received,
      0,
    );
    const sample: Sample = {
      minute: (Date.now() - started) / 60_000,
      rss: rssBytes(server.pid),
      heap: metricValue(metrics, 'nodejs_heap_size_used_bytes'),
      loopP99: metricValue(metrics, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      descriptors: readdirSync(`/proc/${server.pid}/fd`).length,
      received,
      cpu: (cpuSeconds(server.pid) - cpuBefore) / ((Date.now() - sampledAt) / 1000),
    };
    cpuBefore = cpuSeconds(server.pid);
    sampledAt = Date.now();
    samples.push(sample);
    console.log(
      `  ${sample.minute.toFixed(1)} min: RSS ${mib(sample.rss)} MiB, heap ${mib(sample.heap)} MiB, loop p99 ${sample.loopP99.toFixed(1)} ms, ${sample.descriptors} fds, CPU ${sample.cpu.toFixed(2)} cores`,
    );
  }
  clearInterval(writes);
  clearInterval(reloads);
} finally {
  writer?.close();
  for (const clients of clientGroups) await clients.close().catch(() => {});
  await server.stop();
}

const after = samples.filter((sample) => sample.minute >= WARM_UP_MINUTES);
const rssSlope = slope(after.map((s) => [s.minute, s.rss / 1024]));
const heapSlope = slope(after.map((s) => [s.minute, s.heap / 1024]));
// The second half alone: whether growth after warm-up levels off (the allocator settling) or goes on (a leak).
const secondHalf = samples.filter((sample) => sample.minute >= minutes / 2);
const rssSlopeLate = slope(secondHalf.map((s) => [s.minute, s.rss / 1024]));
const heapSlopeLate = slope(secondHalf.map((s) => [s.minute, s.heap / 1024]));
const date = new Date().toISOString().slice(0, 10);
const name = `${date}-${commit}-soak`;
const png = join(root, 'bench/results', `${name}.png`);
await plot(png);
const table = [
  `# Soak, ${date}, commit ${commit}, Node ${process.version}`,
  '',
  `\`npm run bench:soak -- --minutes ${minutes}\`: 1,000 WebSocket clients (200 per-message, 400 \`?batch=1\`, 400 \`?maxHz=10&batch=1\`), 1,000 changes/s to 1,000 kept parameters (state folder on), the flow file reloaded every 5 minutes; sampled every 10 s.`,
  '',
  `After the first ${WARM_UP_MINUTES} minutes, least squares: **RSS ${signed(rssSlope)} KiB/min, V8 heap used ${signed(heapSlope)} KiB/min** (${after.length} samples); over the second half alone RSS ${signed(rssSlopeLate)} KiB/min, heap ${signed(heapSlopeLate)} KiB/min (${secondHalf.length} samples). Largest event-loop delay p99: ${Math.max(...samples.map((s) => s.loopP99)).toFixed(1)} ms; descriptors ${Math.min(...samples.map((s) => s.descriptors))}–${Math.max(...samples.map((s) => s.descriptors))}.`,
  '',
  `![RSS, heap, event-loop delay and descriptors over the soak](${name}.png)`,
  '',
  '| minute | RSS MiB | heap used MiB | event-loop p99 ms | descriptors | hub CPU, cores | messages to clients |',
  '|---|---|---|---|---|---|---|',
  ...samples.map(
    (s) =>
      `| ${s.minute.toFixed(1)} | ${mib(s.rss)} | ${mib(s.heap)} | ${s.loopP99.toFixed(1)} | ${s.descriptors} | ${s.cpu.toFixed(2)} | ${s.received.toLocaleString('en')} |`,
  ),
  '',
].join('\n');
writeFileSync(join(root, 'bench/results', `${name}.md`), table);
console.log(`\nRSS ${signed(rssSlope)} KiB/min, heap ${signed(heapSlope)} KiB/min after warm-up\nwrote bench/results/${name}.md and .png`);

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function signed(n: number): string {
  return `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
}

/** The least-squares slope of y over x. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/** Four panels as an SVG, screenshotted by Chromium into a PNG. */
async function plot(file: string): Promise<void> {
  const width = 900;
  const panel = 180;
  const series: { title: string; values: number[] }[] = [
    { title: 'RSS, MiB', values: samples.map((s) => s.rss / 1048576) },
    { title: 'V8 heap used, MiB', values: samples.map((s) => s.heap / 1048576) },
    { title: 'event-loop delay p99, ms', values: samples.map((s) => s.loopP99) },
    { title: 'open descriptors', values: samples.map((s) => s.descriptors) },
  ];
  const xs = samples.map((s) => s.minute);
  const xMax = Math.max(1, ...xs);
  const panels = series.map(({ title, values }, index) => {
    const top = index * (panel + 20) + 20;
    const finite = values.filter(Number.isFinite);
    const yMax = Math.max(1e-9, ...finite) * 1.1;
    const point = (x: number, y: number) => `${60 + (x / xMax) * (width - 80)},${top + panel - (y / yMax) * panel}`;
    const line = values.map((y, i) => point(xs[i] as number, Number.isFinite(y) ? y : 0)).join(' ');
    const warm = 60 + (WARM_UP_MINUTES / xMax) * (width - 80);
    return `<text x="60" y="${top - 5}" font-size="13">${title} (max ${yMax / 1.1 >= 10 ? (yMax / 1.1).toFixed(0) : (yMax / 1.1).toFixed(2)})</text>
      <rect x="60" y="${top}" width="${width - 80}" height="${panel}" fill="none" stroke="#999"/>
      <line x1="${warm}" y1="${top}" x2="${warm}" y2="${top + panel}" stroke="#ccc" stroke-dasharray="4"/>
      <text x="62" y="${top + panel - 4}" font-size="11" fill="#666">0</text>
      <polyline fill="none" stroke="#1f5fbf" stroke-width="1.5" points="${line}"/>`;
  });
  const height = series.length * (panel + 20) + 40;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
    <rect width="100%" height="100%" fill="white"/>${panels.join('')}
    <text x="60" y="${height - 8}" font-size="12">minutes (0–${xMax.toFixed(0)}; dashed: end of warm-up)</text></svg>`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.setContent(svg);
    await page.screenshot({ path: file });
  } finally {
    await browser.close();
  }
}
