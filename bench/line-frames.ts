/**
 * Line protocols (R-N1, R-N2): frames per second a `tcp-client` connection parses into
 * parameters, from a device process sending `ROUTE <dst> <src>\r\n` as fast as it is read,
 * beside baselines in the same run that read the same device with plain `net`, split at CR LF
 * and match the same expression — RE2 (re2js, the hub's engine for every user expression)
 * and the built-in RegExp — storing each route in a Map.
 *
 *   node --import tsx bench/line-frames.ts [frames]
 *
 * Each side is the best of five runs taken in turns. Printed, not asserted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RE2JS } from 're2js';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';

const PATTERN = '^ROUTE (?P<dst>\\d+) (?P<src>\\d+)$';
const device = fileURLToPath(new URL('servers/line-device.ts', import.meta.url));

async function startDevice(frames: number): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', device, String(frames)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', () => reject(new Error('the device did not start')));
  });
  return { port, child };
}

/** The hub: a tcp-client connection whose receive entry sets dest/<dst>; `end` fires on END. */
async function hubFrames(frames: number): Promise<number> {
  const { port, child } = await startDevice(frames);
  const flow = validateFlow(
    {
      connections: {
        router: {
          type: 'tcp-client',
          host: '127.0.0.1',
          port,
          maxFramesPerSecond: 100_000_000,
          parameters: [...Array.from({ length: 16 }, (_, i) => `dest/${i + 1},I`), 'start,T', 'end,T'],
          receive: [
            { match: PATTERN, set: { 'dest/$dst': '$src' } },
            { match: '^START$', set: { start: '' } },
            { match: '^END$', set: { end: '' } },
          ],
        },
      },
    },
    `${process.cwd()}/bench.json5`,
  );
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  // Timed from the device's first frame to its last: the hub's start is not counted.
  let started = 0n;
  const ended = new Promise<void>((resolve) => {
    // The parameters exist once the hub started; the device sends on connect.
    const wait = setInterval(() => {
      const [start, end] = [hub.graph.get('router/start'), hub.graph.get('router/end')];
      if (!start || !end) return;
      clearInterval(wait);
      start.changes$.subscribe(() => (started = process.hrtime.bigint()));
      end.changes$.subscribe(() => resolve());
    }, 0);
  });
  await hub.start();
  await ended;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const matched = Number(hub.connection('router')?.info.details?.['matched']);
  await hub.stop();
  child.kill();
  if (matched !== frames + 2 || started === 0n) throw new Error(`the hub matched ${matched} frames of ${frames + 2}`);
  return frames / seconds;
}

/** Plain net + split + match, each route into a Map. */
async function rawFrames(frames: number, engine: 're2' | 'regexp'): Promise<number> {
  const { port, child } = await startDevice(frames);
  const re2 = RE2JS.compile(PATTERN);
  const regexp = /^ROUTE (?<dst>\d+) (?<src>\d+)$/;
  const routes = new Map<string, number>();
  let matched = 0;
  let started = 0n;
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let held = '';
    socket.on('data', (chunk: Buffer) => {
      const lines = (held + chunk.toString('utf8')).split('\r\n');
      held = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'START' || line === 'END') {
          if (line === 'START') started = process.hrtime.bigint();
          matched++;
          continue;
        }
        if (engine === 're2') {
          const matcher = re2.matcher(line);
          if (!matcher.find()) continue;
          routes.set(matcher.group('dst') ?? '', Number(matcher.group('src')));
        } else {
          const found = regexp.exec(line);
          if (!found) continue;
          routes.set(found.groups!['dst']!, Number(found.groups!['src']));
        }
        matched++;
      }
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  child.kill();
  if (matched !== frames + 2) throw new Error(`the baseline matched ${matched} frames of ${frames + 2}`);
  return frames / seconds;
}

export interface LineFramesResult {
  readonly frames: number;
  readonly hub: number;
  readonly re2: number;
  readonly regexp: number;
}

export async function measureLineFrames(frames: number): Promise<LineFramesResult> {
  const best = { hub: 0, re2: 0, regexp: 0 };
  for (let run = 0; run < 5; run++) {
    best.re2 = Math.max(best.re2, await rawFrames(frames, 're2'));
    best.hub = Math.max(best.hub, await hubFrames(frames));
    best.regexp = Math.max(best.regexp, await rawFrames(frames, 'regexp'));
  }
  return { frames, ...best };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const frames = Number(process.argv[2] ?? 200_000);
  const result = await measureLineFrames(frames);
  const f = (n: number) => Math.round(n).toLocaleString('en');
  console.log(
    `${f(frames)} frames: hub ${f(result.hub)}/s, net + split + RE2 ${f(result.re2)}/s (${(result.hub / result.re2).toFixed(2)}×), net + split + RegExp ${f(result.regexp)}/s (${(result.hub / result.regexp).toFixed(2)}×)`,
  );
}
