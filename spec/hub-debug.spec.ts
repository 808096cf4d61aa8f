import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import WebSocket from 'ws';
import { eventually } from './helpers/eventually.ts';
import { capturedLog, param, startHub } from './helpers/hub.ts';

const flow = {
  connections: {
    studio: { type: 'dummy', debug: true, parameters: ['level,F', 'cue,T'] },
    desk: { type: 'dummy', parameters: ['fader,F', 'other,F'] },
  },
  rules: [{ source: 'studio/level', destinations: ['desk/fader'], description: 'follow' }],
};

test('debug: true on a connection logs each write with its origin and each rule hop that touches it; other connections stay quiet', async (t) => {
  const { log, lines } = capturedLog('info');
  const hub = await startHub(t, flow, { log });
  hub.graph.write('studio/level', '0.5', 'http');
  hub.graph.write('studio/level', 0.5, 'ws');
  hub.graph.write('studio/cue', null, 'ws');
  hub.graph.write('desk/other', 1, 'http');
  const debug = lines()
    .filter((l) => l.level === 20)
    .map((l) => `${l.connection ?? ''}: ${l.msg}`);
  t.deepEqual(debug, [
    'studio: studio/level = "0.5" by http',
    ': rule rules[0] "follow": studio/level → desk/fader: "0.5"',
    'studio: studio/level = "0.5" (unchanged) by ws',
    'studio: studio/cue fired by ws',
  ]);
});

test('--log-level debug logs every write, rule writes included, with their origins', async (t) => {
  const { log, lines } = capturedLog('debug');
  const hub = await startHub(t, flow, { log });
  param(hub, 'desk/other').set(2, 'flow meter');
  hub.graph.write('studio/level', 1, 'http');
  const debug = lines().filter((l) => l.level === 20 && l.msg.includes(' by '));
  t.deepEqual(
    debug.map((l) => `${l.connection}: ${l.msg}`),
    ['desk: desk/other = "2" by flow meter', 'studio: studio/level = "1" by http', 'desk: desk/fader = "1" by rule rules[0]'],
  );
});

test('debug lines show WebSocket clients joining and leaving, and files saved', async (t) => {
  const { log, lines } = capturedLog('info');
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-debug-'));
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', debug: true },
        np: { type: 'xml-file-output', debug: true, filename: 'now.xml', template: '<now>$Title</now>' },
      },
    },
    { log, dir },
  );
  const port = hub.connection('api')?.info.details?.['port'] as number;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?filter=np`);
  await new Promise((resolve) => ws.once('open', resolve));
  const messages = () =>
    lines()
      .filter((l) => l.level === 20)
      .map((l) => `${l.connection}: ${l.msg}`);
  await eventually(
    () => messages().some((m) => m.startsWith('api: WebSocket client 127.0.0.1 joined (filters np); 1 connected')),
    'the join',
  );
  ws.close();
  await eventually(
    () => messages().some((m) => /^api: WebSocket client 127\.0\.0\.1 left \(code \d+\); 0 connected$/.test(m)),
    'the leave',
  );
  param(hub, 'np/Title').set('News');
  await eventually(() => messages().includes(`np: saved ${join(dir, 'now.xml')}`), `the save (${messages().join(' | ')})`);
  t.pass();
});
