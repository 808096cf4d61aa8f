import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import JSON5 from 'json5';
import { brokerOfFile, withBroker } from '../helpers/broker-tests.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { formatMistakes, promtool, promtoolSays, whyNoPromtool } from '../helpers/metrics-format.ts';
import { whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKeyFile } from '../helpers/site-key.ts';

// What Prometheus reads of real hub processes: every patchbay_* series as promtool wants it.
// prom-client's own default series (nodejs_*) are its business: promtool lints three of them.

const broker = brokerOfFile();
const withPromtool = promtool ? test.serial : test.serial.skip;
const withBrokerAndPromtool = promtool ? withBroker : test.serial.skip;

/** A hub process with a bit of everything: state, a timer, a file output, rules, HTTP answers and a WebSocket-less scrape. */
async function busyHub(t: import('ava').ExecutionContext): Promise<HubProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-metrics-'));
  await writeFile(
    join(dir, 'flow.json5'),
    JSON.stringify({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        vars: { type: 'dummy', parameters: ['a,S', 'n,I', 'level,F,0.5'] },
        clock: { type: 'timer', pulses: [{ interval: 50 }] },
        out: { type: 'xml-file-output', filename: 'out.xml', template: '<a>$Text</a>' },
        off: { type: 'dummy', enabled: false, parameters: ['x,I'] },
      },
      rules: [{ source: 'vars/a', destinations: ['vars/n', 'out/Text'] }],
    }),
  );
  const hub = await runHub(t, join(dir, 'flow.json5'));
  for (const value of ['1', 'x']) await hub.write('vars/a', value);
  await hub.read('vars/nope');
  return hub;
}

const scrape = async (hub: HubProcess) => (await fetch(`${hub.base}/metrics`)).text();

test.serial(
  'the patchbay_* series of a running hub have help, a type, snake_case names in base units, _total on counters only, and no series twice',
  async (t) => {
    const text = await scrape(await busyHub(t));
    t.true(text.includes('patchbay_rule_writes_total'));
    t.deepEqual(formatMistakes(text), []);
  },
);

withPromtool(`promtool check metrics finds nothing to say of the patchbay_* series of a running hub${whyNoPromtool}`, async (t) => {
  const text = await scrape(await busyHub(t));
  t.deepEqual(promtoolSays(text), []);
});

withBrokerAndPromtool(
  `a hub showing another hub's connections serves them once, with their owner, and promtool finds nothing to say${whyNoBroker}${whyNoPromtool}`,
  async (t) => {
    process.env['PATCHBAY_SITE_KEY'] = readFileSync(siteKeyFile, 'utf8');
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-metrics-hubs-'));
    const hubs: HubProcess[] = [];
    for (const name of ['two-hubs-control.json5', 'two-hubs-studio.json5']) {
      const source = JSON5.parse(readFileSync(fileURLToPath(new URL(`../../flows/examples/${name}`, import.meta.url)), 'utf8')) as {
        connections: Record<string, Record<string, unknown>>;
      };
      for (const connection of Object.values(source.connections)) {
        if (connection['type'] === 'rest-api') Object.assign(connection, { port: 0, bindIp: '127.0.0.1' });
        if (connection['type'] === 'mqtt') connection['url'] = broker.url;
      }
      const folder = join(dir, name.replace(/\.json5$/, ''));
      await mkdir(folder);
      await writeFile(join(folder, name), JSON.stringify(source));
      hubs.push(await runHub(t, join(folder, name)));
    }
    const [control, studio] = hubs as [HubProcess, HubProcess];
    await eventually(async () => (await scrape(studio)).includes('connection="desk"'), 'the studio hub to show the desk');
    const shown = await scrape(studio);
    const own = await scrape(control);
    t.regex(shown, /^patchbay_connection_status\{[^}]*connection="desk"[^}]*owner="control"[^}]*\} /m);
    t.regex(own, /^patchbay_connection_status\{connection="desk",type="[^"]+",status="ok"\} 1$/m, 'its owner serves it without one');
    for (const text of [shown, own]) {
      t.deepEqual(formatMistakes(text), []);
      t.deepEqual(promtoolSays(text), []);
    }
  },
);
