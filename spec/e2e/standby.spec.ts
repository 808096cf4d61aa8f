/**
 * A redundancy group of real hub processes on a real Mosquitto (R-B1–R-B5): the active hub
 * killed, paused and asked to hand over, with a TCP device that records which connection —
 * which hub — sent each command.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { brokerOfFile, withBroker } from '../helpers/broker-tests.ts';
import { recordingDevice } from '../helpers/devices.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { canRunBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKey } from '../helpers/site-key.ts';

const broker = brokerOfFile();
// Each spec on an empty broker: what the hubs of the one before left retained (their claims
// of the same connection ids, by the same hub ids) is another site's business.
test.beforeEach(async () => {
  if (!canRunBroker) return;
  await broker.kill();
  await broker.restart();
});

let groups = 0;

/** One flow file for every hub of the group: the hub's id comes from the environment. */
async function groupFlow(
  devicePort: number,
  { failover = 'auto', tokens }: { failover?: 'auto' | 'manual'; tokens?: readonly Record<string, unknown>[] } = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-group-'));
  const path = join(dir, 'studio.json5');
  // A group of its own for each spec: the broker keeps the roles of the groups before.
  const group = `studio-${++groups}`;
  const flow = {
    connections: {
      api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', ...(tokens ? { tokens } : {}) },
      bus: { type: 'mqtt', url: broker.url, hub: { id: '${HUB}', group, failover, share: [], key: siteKey } },
      desk: { type: 'dummy', parameters: ['title,S,morning', 'count,I,0', 'fired,S,'] },
      // Serves OSCQuery from the hub's graph, but talks to a desk: the active hub's alone.
      mixer: {
        type: 'osc',
        port: 0,
        bindIp: '127.0.0.1',
        addresses: [{ id: 'fader', address: '/ch/01/mix/fader', type: 'F' }],
        oscQuery: { port: 0, bindIp: '127.0.0.1', expose: ['desk/#'] },
      },
      // A steady stream of commands: every 100 ms the device's tally flips.
      clock: { type: 'timer', timers: [{ duration: 3000 }], pulses: [{ interval: 100 }] },
      router: {
        type: 'tcp-client',
        host: '127.0.0.1',
        port: devicePort,
        parameters: ['dest/1,I', 'tally,B'],
        receive: [],
        send: [
          { parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\n' },
          { parameter: 'tally', frame: 'TALLY $VALUE\n' },
        ],
      },
    },
    rules: [
      { source: 'clock/timer/1/trigger', destinations: ['desk/fired'], pipe: [{ set: 'timer fired' }] },
      { source: 'clock/pulse/1', destinations: ['router/tally'], pipe: [{ toggle: true }] },
    ],
  };
  await writeFile(path, JSON.stringify(flow));
  return path;
}

/** A hub of the group, with a state folder of its own (as on a machine of its own). */
const hubIn = (t: ExecutionContext, flow: string, id: string) =>
  runHub(t, flow, { env: { HUB: id }, args: ['--state', join(dirname(flow), `state-${id}`)] });
const json = async <T>(hub: HubProcess, path: string, init?: RequestInit): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${hub.base}${path}`, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  return { status: response.status, body: (await response.json()) as T };
};
const update = (hub: HubProcess, address: string, value: string) =>
  json<{ ok?: boolean; code?: string }>(hub, `/update?parameter=${encodeURIComponent(address)}&value=${encodeURIComponent(value)}`);
const roleOf = (hub: HubProcess) => hub.read('bus/_hub/role');

/** When the timer fired, as the hub's WebSocket stream tells it (a fire mirrored from another hub too). */
async function timerFiresOn(t: ExecutionContext, hub: HubProcess): Promise<number[]> {
  const fires: number[] = [];
  const stream = new WebSocket(`ws://127.0.0.1:${hub.port}/ws`);
  t.teardown(() => stream.close());
  stream.on('message', (data) => {
    for (const event of [JSON.parse(String(data))].flat() as { p: string }[])
      if (event.p === 'clock/timer/1/trigger') fires.push(performance.now());
  });
  await new Promise((resolve) => stream.once('open', resolve));
  return fires;
}

/** A device, and a group of two hubs: a active (the first of a new group takes the lease), b its standby. */
async function activeAndStandby(t: ExecutionContext) {
  const device = await recordingDevice(t);
  const flow = await groupFlow(device.port);
  const a = await hubIn(t, flow, 'a');
  await eventually(async () => (await roleOf(a)) === 'active', 'the first hub to take the lease');
  const b = await hubIn(t, flow, 'b');
  await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'the standby to know the active hub');
  return { device, flow, a, b };
}

withBroker(
  `a standby takes over within 5 s of the active hub's SIGKILL, with every answered write and the running timer, and drives the device alone (R-B1, R-B2, R-B3, R-B4)${whyNoBroker}`,
  async (t) => {
    const device = await recordingDevice(t);
    const flow = await groupFlow(device.port);
    const a = await hubIn(t, flow, 'a');
    await eventually(
      async () => (await roleOf(a)) === 'active',
      () => `the first hub to take the lease of a new group: ${a.log()}`,
    );
    const b = await hubIn(t, flow, 'b');
    await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'the standby to know the active hub');
    t.is(await roleOf(b), 'standby');
    // The epoch of the first claim (1, or more where a starved hub lost its lease and took it again).
    const first = Number(await a.read('bus/_hub/epoch'));
    t.true(first >= 1);

    // The standby serves reads and forwards writes; it is ready, and says it is standby.
    const ready = await json<{ ok: boolean; role: string }>(b, '/readyz');
    t.like(ready, { status: 200, body: { ok: true, role: 'standby' } });
    const listed = await json<{ id: string; status: string; details?: { hub?: string } }[]>(b, '/connections');
    t.like(
      listed.body.find((c) => c.id === 'desk'),
      { status: 'ok', details: { hub: 'a' } },
      "the standby shows the active hub's connections",
    );
    t.like(
      listed.body.find((c) => c.id === 'mixer'),
      { status: 'ok', details: { hub: 'a' } },
      'an osc connection is the active hub’s alone, though it serves OSCQuery from the hub (its sends would be refused on a standby)',
    );
    t.like(await update(b, 'desk/title', 'evening'), { status: 200, body: { ok: true } });
    t.is(await a.read('desk/title'), 'evening');
    t.like(await update(a, 'router/dest/1', '5'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 5'), 'the device to hear the active hub');

    // A steady write load on the active hub; SIGKILL in the middle of it.
    let answered = 0;
    let stop = false;
    const load = (async () => {
      for (let n = 1; !stop; n++) {
        const result = await update(a, 'desk/count', String(n)).catch(() => undefined);
        if (result?.status === 200) answered = n;
        else break;
      }
    })();
    await eventually(() => answered >= 50, 'fifty writes answered');
    // A timer started on the active hub fires once, at its deadline, on the hub that takes over (R-B4).
    const fires = await timerFiresOn(t, b);
    const started = performance.now();
    t.like(await update(a, 'clock/timer/1/start', '3000'), { status: 200 });
    const killedAt = performance.now();
    a.child.kill('SIGKILL');
    stop = true;
    await load;
    await eventually(async () => (await roleOf(b)) === 'active', 'the standby to take over', 5000);
    const takeover = performance.now() - killedAt;
    t.log(`takeover after SIGKILL: ${Math.round(takeover)} ms`);
    t.true(takeover < 5000, `took over in ${Math.round(takeover)} ms`);
    t.true(Number(await b.read('bus/_hub/epoch')) > first, 'a later epoch');
    const count = Number(await b.read('desk/count'));
    t.true(
      count === answered || count === answered + 1,
      `every answered write is on the new active hub (${count}, last answered ${answered})`,
    );
    t.is(await b.read('desk/title'), 'evening');
    t.is(await b.read('desk/fired'), '', 'the timer has not fired before its deadline');
    await eventually(async () => (await b.read('desk/fired')) === 'timer fired', 'the timer to fire on the new active hub', 6000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.is(fires.length, 1, 'the timer fired once');
    t.true(fires[0]! >= started + 3000 - 100, `it fired at its deadline, ${Math.round(fires[0]! - started)} ms after it was started`);

    // The new active hub drives the device: on its own connection, and nothing after from the old one.
    await eventually(() => device.sockets.length === 2, 'the new active hub to connect to the device');
    t.like(await update(b, 'router/dest/1', '6'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 6'), 'the device to hear the new active hub');
    const firstOfNew = device.lines.findIndex((l) => l.connection === 2);
    t.false(
      device.lines.slice(firstOfNew).some((l) => l.connection === 1),
      'no command from the old hub after the first of the new one',
    );
    t.false(
      device.lines.some((l) => l.line === 'ROUTE 1 5' && l.connection === 2),
      'the value the old hub had sent is not sent again (R-G3)',
    );

    // The killed hub comes back as a standby; the role does not move back.
    const back = await hubIn(t, flow, 'a');
    await eventually(async () => (await back.read('bus/_hub/active')) === 'b', 'the returning hub to see the active one');
    t.is(await roleOf(back), 'standby');
    t.is(await roleOf(b), 'active');
    t.is(await back.read('desk/count'), String(count));
  },
);

withBroker(
  `an active hub cut off from the broker (paused) loses its lease before the standby drives the device; back, it sends nothing and joins as standby (R-B3)${whyNoBroker}`,
  async (t) => {
    const { device, a, b } = await activeAndStandby(t);
    t.like(await update(a, 'router/dest/1', '5'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 5'), 'the device to hear the active hub');

    // Paused, the hub neither renews its lease nor answers the broker's keep-alive: it is cut off.
    const pausedAt = performance.now();
    a.child.kill('SIGSTOP');
    t.teardown(() => void a.child.kill('SIGCONT'));
    // A write that reaches it while it is paused is read once it runs again.
    const late = update(a, 'router/dest/1', '9');
    await eventually(async () => (await roleOf(b)) === 'active', 'the standby to take over', 5000);
    t.log(`takeover after SIGSTOP: ${Math.round(performance.now() - pausedAt)} ms`);
    t.like(await update(b, 'router/dest/1', '6'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 6' && l.connection === 2), 'the device to hear the new active hub');

    a.child.kill('SIGCONT');
    const answer = await late;
    t.log(`the write the paused hub found on waking: ${answer.status} ${JSON.stringify(answer.body)}`);
    await eventually(
      async () => (await roleOf(a)) === 'standby' && (await a.read('bus/_hub/active')) === 'b',
      'the paused hub to join as standby',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.false(
      device.lines.some((l) => l.line === 'ROUTE 1 9' && l.connection === 1),
      'the paused hub never sent the write it found on waking (refused, or forwarded to the active hub)',
    );
    const firstOfNew = device.lines.findIndex((l) => l.connection === 2);
    t.deepEqual(
      device.lines.slice(firstOfNew).filter((l) => l.connection !== 2),
      [],
      'nothing from the old hub after the first command of the new one',
    );
    t.is(await roleOf(b), 'active');
  },
);

withBroker(
  `with failover "manual" a standby waits for an operator's POST /failover (an admin token), and a returning hub joins as standby (R-B5)${whyNoBroker}`,
  async (t) => {
    const device = await recordingDevice(t);
    const tokens = [
      { name: 'ops', token: 'ops-secret-token', read: ['#'], admin: true },
      { name: 'panel', token: 'panel-secret-token', read: ['#'], write: ['desk/#'] },
    ];
    const flow = await groupFlow(device.port, { failover: 'manual', tokens });
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const read = async (hub: HubProcess, address: string) =>
      (await fetch(`${hub.base}/parameters/${address}`, as('ops-secret-token'))).text();
    const failover = (hub: HubProcess, token: string) =>
      json<{ ok?: boolean; code?: string; message?: string }>(hub, '/failover', { method: 'POST', ...as(token) });

    // A new group has no active hub to wait for: its first hub takes the lease.
    const a = await hubIn(t, flow, 'a');
    await eventually(async () => (await read(a, 'bus/_hub/role')) === 'active', 'the first hub of a new group to take the lease');
    const b = await hubIn(t, flow, 'b');
    await eventually(async () => (await read(b, 'bus/_hub/active')) === 'a', 'the standby to know the active hub');
    t.like(await failover(a, 'ops-secret-token'), { status: 409, body: { code: 'PB_ALREADY_ACTIVE' } });
    t.like(await failover(b, 'panel-secret-token'), { status: 403, body: { code: 'PB_FORBIDDEN' } }, 'a token without admin may not');
    t.like(await json(b, '/failover', { method: 'POST' }), { status: 401 });

    // The active hub dies: the standby waits, and says why.
    a.child.kill('SIGKILL');
    await eventually(async () => (await read(b, 'bus/_hub/active')) === '', 'the standby to see the active hub gone');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    t.is(await read(b, 'bus/_hub/role'), 'standby', 'no takeover without an operator');
    const listed = (await (await fetch(`${b.base}/connections`, as('ops-secret-token'))).json()) as {
      id: string;
      details?: { redundancy?: { waiting?: string } };
    }[];
    t.regex(listed.find((c) => c.id === 'bus')?.details?.redundancy?.waiting ?? '', /operator/);
    t.true(
      b.messages().some((m) => /failover is manual/.test(m)),
      'the log says the group waits for an operator',
    );

    // The operator confirms: the standby takes over.
    const confirmed = await failover(b, 'ops-secret-token');
    t.like(confirmed, { status: 200, body: { ok: true } });
    await eventually(async () => (await read(b, 'bus/_hub/role')) === 'active', 'the standby to take over once asked', 5000);
    const taken = Number(await read(b, 'bus/_hub/epoch'));
    t.true(taken >= 2, 'a later epoch');

    // The killed hub comes back as a standby, and stays one: the role never moves back by itself.
    const back = await hubIn(t, flow, 'a');
    await eventually(async () => (await read(back, 'bus/_hub/active')) === 'b', 'the returning hub to see the active one');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.is(await read(back, 'bus/_hub/role'), 'standby');
    t.is(await read(b, 'bus/_hub/role'), 'active');

    // A planned move: the operator asks the standby; the active hub stands down before the standby drives the device.
    const moved = await failover(back, 'ops-secret-token');
    t.like(moved, { status: 200 });
    await eventually(
      async () => (await read(back, 'bus/_hub/role')) === 'active' && (await read(b, 'bus/_hub/role')) === 'standby',
      'the roles to swap',
    );
    t.true(Number(await read(back, 'bus/_hub/epoch')) > taken, 'a later epoch again');
    await eventually(() => device.sockets.length === 3, 'the new active hub to connect to the device');
    const lastOfB = device.lines.findLastIndex((l) => l.connection === 2);
    const firstOfBack = device.lines.findIndex((l) => l.connection === 3);
    t.true(firstOfBack === -1 || lastOfB < firstOfBack, 'the device never hears the two hubs interleaved');
  },
);

withBroker(
  `the broker restarted while a standby takes over: one hub ends active, the epoch still grows (R-B2, R-B3)${whyNoBroker}`,
  async (t) => {
    const { device, flow, a, b } = await activeAndStandby(t);
    const before = Number(await a.read('bus/_hub/epoch'));

    a.child.kill('SIGKILL');
    await broker.kill();
    await broker.restart();
    await eventually(async () => (await roleOf(b)) === 'active', 'the standby to take over once the broker is back', 15_000);
    t.true(
      Number(await b.read('bus/_hub/epoch')) > before,
      'the epoch grew, though the broker forgot every retained role (it keeps nothing)',
    );
    const back = await hubIn(t, flow, 'a');
    await eventually(async () => (await back.read('bus/_hub/active')) === 'b', 'the returning hub to see the active one');
    t.is(await roleOf(back), 'standby');
    await eventually(() => device.lines.some((l) => l.connection === device.sockets.length), 'the device to hear the new active hub');
    const firstOfNew = device.lines.findIndex((l) => l.connection === device.sockets.length);
    t.deepEqual(
      device.lines.slice(firstOfNew).filter((l) => l.connection !== device.sockets.length),
      [],
      'nothing from an older connection after the first command of the new active hub',
    );
  },
);

withBroker(`the example standby-pair.json5: one file, two hubs; only the active one talks to the router${whyNoBroker}`, async (t) => {
  const device = await recordingDevice(t);
  const example = fileURLToPath(new URL('../../flows/examples/standby-pair.json5', import.meta.url));
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-pair-'));
  const env = (id: string) => ({
    HUB_ID: id,
    PORT: '0',
    MQTT_URL: broker.url,
    ROUTER_PORT: String(device.port),
    PATCHBAY_SITE_KEY: readFileSync(siteKey.file, 'utf8').trim(),
  });
  const a = await runHub(t, example, { env: env('a'), args: ['--state', join(dir, 'a')] });
  await eventually(async () => (await roleOf(a)) === 'active', 'hub a to take the lease');
  const b = await runHub(t, example, { env: env('b'), args: ['--state', join(dir, 'b')] });
  await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'hub b to show hub a as active');
  await eventually(async () => (await b.read('desk/onair')) === 'false', "hub b to show hub a's desk");
  t.like(await update(b, 'desk/onair', 'on'), { status: 200 });
  t.is(await a.read('desk/onair'), 'true');
  await eventually(() => device.lines.length >= 2, 'the router to be polled');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.deepEqual([...new Set(device.lines.map((l) => l.connection))], [1], 'one connection to the router: the active hub');
});

withBroker(
  `an active hub stopped (SIGTERM) hands over at once: the standby goes on from its last values and its running timer, fired once (R-B2, R-B4)${whyNoBroker}`,
  async (t) => {
    const { a, b } = await activeAndStandby(t);
    t.like(await update(a, 'desk/title', 'the last one'), { status: 200 });
    t.like(await update(a, 'clock/timer/1/start', '2500'), { status: 200 });
    const fires = await timerFiresOn(t, b);
    const stoppedAt = performance.now();
    a.child.kill('SIGTERM');
    await eventually(async () => (await roleOf(b)) === 'active', 'the standby to take over', 5000);
    const takeover = performance.now() - stoppedAt;
    t.log(`takeover after SIGTERM: ${Math.round(takeover)} ms`);
    t.is(await b.read('desk/title'), 'the last one', "the stopped hub's last value is carried on");
    await a.exited;
    t.is(
      a.messages().filter((m) => m.startsWith('claims the lease')).length,
      1,
      'a stopping hub claims nothing (its one claim is the one that made it active)',
    );
    await eventually(async () => (await b.read('desk/fired')) === 'timer fired', 'the timer to fire on the new active hub', 6000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    t.is(fires.length, 1, 'the timer fired once');
  },
);

withBroker(
  `an active hub that stands down without the broker keeps showing what it ran: reads answer its last values, writes 503 PB_NOT_ACTIVE, /connections says why (R-AV1)${whyNoBroker}`,
  async (t) => {
    const { a, b } = await activeAndStandby(t);
    t.like(await update(a, 'desk/title', 'before the outage'), { status: 200 });
    await eventually(async () => (await b.read('desk/title')) === 'before the outage', 'the standby to have the value');
    await broker.kill('SIGKILL');
    await eventually(async () => (await roleOf(a)) === 'standby', 'the active hub to stand down without the broker', 10_000);
    t.is(await a.read('desk/title'), 'before the outage', 'its last value, not a 404');
    t.is(await b.read('desk/title'), 'before the outage', "the standby's mirror, stale but there");
    const refused = await update(a, 'desk/title', 'during the outage');
    t.is(refused.status, 503);
    t.is(refused.body.code, 'PB_NOT_ACTIVE');
    const { body: listed } = await json<{ id: string; status: string; code?: string; reason: string }[]>(a, '/connections');
    t.like(
      listed.find((c) => c.id === 'desk'),
      { status: 'degraded', code: 'PB_NOT_ACTIVE' },
      'the connection says it is shown as the hub last had it',
    );
    await broker.restart();
    await eventually(
      async () => [await roleOf(a), await roleOf(b)].filter((role) => role === 'active').length === 1,
      'one active hub once the broker is back',
      15_000,
    );
    const [active, standby] = (await roleOf(a)) === 'active' ? [a, b] : [b, a];
    t.is(await active.read('desk/title'), 'before the outage', 'the active hub goes on from the last value');
    t.like(await update(standby, 'desk/title', 'after the outage'), { status: 200 }, "the standby's write reaches the active hub");
    await eventually(async () => (await standby.read('desk/title')) === 'after the outage', 'the standby to show the new value');
  },
);

withBroker(`the broker restarted under a live pair: afterwards one hub is active, never two (R-B3)${whyNoBroker}`, async (t) => {
  const { device, a, b } = await activeAndStandby(t);
  // Stopped as its service manager stops it: the hubs hear each other's last will first.
  await broker.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await broker.restart();
  await eventually(
    async () => [await roleOf(a), await roleOf(b)].filter((role) => role === 'active').length === 1,
    'one active hub once the broker is back',
    15_000,
  );
  // Long enough for a second claim to win a second epoch, as it once did.
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const roles = [await roleOf(a), await roleOf(b)];
    t.is(roles.filter((role) => role === 'active').length, 1, `one active hub (${roles.join(', ')})`);
  }
  const active = (await roleOf(a)) === 'active' ? a : b;
  t.like(await update(active, 'router/dest/1', '8'), { status: 200 });
  await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 8'), 'the device to hear the active hub');
  const last = device.sockets.length;
  const sent = device.lines.length;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.deepEqual(
    device.lines.slice(sent).filter((l) => l.connection !== last),
    [],
    'the device hears one hub only',
  );
});

withBroker(
  `a role record that is not signed by its hub — a forged claim of a later epoch, a hub that is none — changes no role (R-B3)${whyNoBroker}`,
  async (t) => {
    const { a, b } = await activeAndStandby(t);
    const epoch = await a.read('bus/_hub/epoch');
    const rogue = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => rogue.end(true));
    const forged = JSON.stringify({ group: `studio-${groups}`, role: 'active', epoch: 99 });
    for (const hub of ['b', 'evil'])
      await rogue.publishAsync(`patchbay/$hub/${hub}/role`, forged, {
        qos: 1,
        retain: true,
        properties: { userProperties: { hub, n: '1.1.1', sig: 'AAAA' } },
      });
    await rogue.publishAsync('patchbay/$lease/b', '', { qos: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    t.is(await roleOf(a), 'active', 'the active hub did not stand down for a forged claim');
    t.is(await roleOf(b), 'standby');
    t.is(await a.read('bus/_hub/epoch'), epoch);
    t.is(await b.read('bus/_hub/active'), 'a');
  },
);

withBroker(
  `with failover "manual", an active hub that only lost its lease by a pause of its own (no other hub claimed it) takes it back when it runs again: a starved CPU does not take the studio off air (R-B5)${whyNoBroker}`,
  async (t) => {
    const device = await recordingDevice(t);
    const flow = await groupFlow(device.port, { failover: 'manual' });
    const a = await hubIn(t, flow, 'a');
    await eventually(async () => (await roleOf(a)) === 'active', 'the first hub to take the lease');
    const b = await hubIn(t, flow, 'b');
    await eventually(async () => (await b.read('bus/_hub/active')) === 'a', 'the standby to know the active hub');
    const epoch = Number(await a.read('bus/_hub/epoch'));

    // Paused for two seconds, twice its lease: it runs out, and in a manual group the standby waits.
    a.child.kill('SIGSTOP');
    t.teardown(() => void a.child.kill('SIGCONT'));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    a.child.kill('SIGCONT');
    await eventually(() => a.messages().some((m) => /its lease ran out/.test(m)), 'the paused hub to see its lease ran out');
    await eventually(async () => (await roleOf(a)) === 'active', 'the hub to take its own lease back', 10_000);
    t.true(Number(await a.read('bus/_hub/epoch')) > epoch, 'with the next epoch');
    t.is(await roleOf(b), 'standby', 'the standby did not take over: failover is manual');
    t.like(await update(a, 'router/dest/1', '7'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 7'), 'the device to hear the hub again');
  },
);
