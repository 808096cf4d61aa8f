import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import JSON5 from 'json5';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { brokerOfFile, withBroker } from '../helpers/broker-tests.ts';
import { whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey, siteKeyFile } from '../helpers/site-key.ts';

const broker = brokerOfFile();
// The examples read the site key from the environment; the hub processes inherit it.
process.env['PATCHBAY_SITE_KEY'] = readFileSync(siteKeyFile, 'utf8');

type Document = { connections: Record<string, Record<string, unknown>> };

/**
 * An example of flows/examples (or a document) on a free port and this spec's broker,
 * written to a folder of its own in `dir`: each hub has its own state folder beside it.
 */
async function flowFile(dir: string, name: string, document?: Document): Promise<string> {
  const source =
    document ?? (JSON5.parse(readFileSync(fileURLToPath(new URL(`../../flows/examples/${name}`, import.meta.url)), 'utf8')) as Document);
  for (const connection of Object.values(source.connections)) {
    if (connection['type'] === 'rest-api') Object.assign(connection, { port: 0, bindIp: '127.0.0.1' });
    if (connection['type'] === 'mqtt') connection['url'] = broker.url;
  }
  const path = join(dir, name.replace(/\.json5$/, ''), name);
  await mkdir(dirname(path));
  await writeFile(path, JSON.stringify(source));
  return path;
}

const connectionOn = async (hub: HubProcess, id: string) =>
  (
    (await (await fetch(`${hub.base}/connections`)).json()) as { id: string; status: string; code?: string; details?: { hub?: string } }[]
  ).find((c) => c.id === id);

const update = async (hub: HubProcess, address: string, value: string) => {
  const response = await fetch(`${hub.base}/update?parameter=${encodeURIComponent(address)}&value=${encodeURIComponent(value)}`, {
    headers: { accept: 'application/json' },
  });
  return { status: response.status, body: (await response.json()) as { ok?: boolean; code?: string } };
};

withBroker(
  `three hub processes on one broker: shared values and writes, a late joiner, concurrent writes, an owner killed and back (R-M5, R-M6)${whyNoBroker}`,
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-hubs-'));
    const controlFlow = await flowFile(dir, 'two-hubs-control.json5');
    let control = await runHub(t, controlFlow);
    const studio = await runHub(t, await flowFile(dir, 'two-hubs-studio.json5'));

    // A write made on the studio hub goes to the control hub, which runs the desk; the studio's rule follows it.
    t.deepEqual(await update(studio, 'desk/onair', 'on'), { status: 200, body: { ok: true } });
    t.is(await control.read('desk/onair'), 'true');
    await eventually(async () => (await studio.read('stage/light')) === 'true', 'the studio rule to follow the desk');
    await eventually(async () => (await control.read('stage/light')) === 'true', 'the stage light on the control hub');
    t.like(await connectionOn(studio, 'desk'), { status: 'ok', details: { hub: 'control' } });
    t.like(await connectionOn(control, 'stage'), { status: 'ok', details: { hub: 'studio' } });
    t.is((await update(studio, 'desk/fader/1', 'loud')).body.code, 'PB_CONVERSION');

    // A hub that joins later has the current values when it runs.
    t.is((await update(control, 'desk/scene', 'news')).status, 200);
    const late = await runHub(
      t,
      await flowFile(dir, 'late.json5', {
        connections: { api: { type: 'rest-api' }, broker: { type: 'mqtt', url: '', hub: { id: 'late', share: [], key: siteKey } } },
      }),
    );
    t.is(await late.read('desk/scene'), 'news');
    t.is(await late.read('stage/light'), 'true');

    // Writes on two hubs at once: every hub ends with the same value.
    await Promise.all(
      [studio, late].map((hub, h) => Promise.all(Array.from({ length: 100 }, (_, i) => update(hub, 'desk/fader/1', String(h * 1000 + i))))),
    );
    await eventually(async () => {
      const values = await Promise.all([control, studio, late].map((hub) => hub.read('desk/fader/1')));
      return values.every((value) => value === values[0]) && ['99', '1099'].includes(values[0]!);
    }, 'one fader value on every hub');

    // The owner is killed: its connection fails on the others, its values are unknown, writes are refused.
    control.child.kill('SIGKILL');
    await control.exited;
    for (const hub of [studio, late]) {
      await eventually(async () => (await connectionOn(hub, 'desk'))?.code === 'PB_OWNER_UNAVAILABLE', 'desk failed');
      t.is(await hub.read('desk/onair'), 'HTTP 503');
    }
    t.like(await update(studio, 'desk/onair', 'off'), { status: 503, body: { ok: false, code: 'PB_OWNER_UNAVAILABLE' } });

    // Back (with its kept values): the others show it again.
    control = await runHub(t, controlFlow);
    for (const hub of [studio, late]) {
      await eventually(async () => (await connectionOn(hub, 'desk'))?.status === 'ok', 'desk back');
      await eventually(async () => (await hub.read('desk/onair')) === 'true', 'the kept value back');
    }
  },
);
