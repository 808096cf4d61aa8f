/**
 * A redundancy group decided by its voters (R-AV1, R-AV2): two real hub processes and a
 * `patchbay witness` process voting over UDP, a real Mosquitto for roles and values, and a
 * TCP device that records which hub's connection sent each command. The broker killed, the
 * witness killed: the active hub drives on and answers writes. The active hub killed: the
 * other takes over.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { brokerOfFile, withBroker } from '../helpers/broker-tests.ts';
import { recordingDevice } from '../helpers/devices.ts';
import { canRunBrowser, openBrowser, whyNoBrowser } from '../helpers/browser.ts';
import { eventually } from '../helpers/eventually.ts';
import { freeUdpPorts } from '../helpers/ports.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { canRunBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { siteKeyFile } from '../helpers/site-key.ts';
import { startWitness } from '../helpers/witness-process.ts';

const broker = brokerOfFile();
test.beforeEach(async () => {
  if (!canRunBroker) return;
  await broker.kill();
  await broker.restart();
});

let groups = 0;

interface Group {
  readonly flow: string;
  readonly witnessPort: number;
  readonly group: string;
}

/** One flow file for both hubs, with the voters: the two hubs and the witness, each on a UDP port of 127.0.0.1. */
async function votedGroupFlow(devicePort: number): Promise<Group> {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-voted-'));
  const flow = join(dir, 'studio.json5');
  const group = `voted-${++groups}`;
  const [a, b, witness] = (await freeUdpPorts(3)) as [number, number, number];
  await writeFile(
    flow,
    JSON.stringify({
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        bus: {
          type: 'mqtt',
          url: broker.url,
          hub: {
            id: '${HUB}',
            group,
            members: ['a', 'b'],
            voters: { a: `127.0.0.1:${a}`, b: `127.0.0.1:${b}`, witness: `127.0.0.1:${witness}` },
            share: [],
            key: { file: siteKeyFile },
          },
        },
        desk: { type: 'dummy', parameters: ['title,S,morning', 'count,I,0'] },
        router: {
          type: 'tcp-client',
          host: '127.0.0.1',
          port: devicePort,
          parameters: ['dest/1,I'],
          receive: [],
          send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\n' }],
        },
      },
    }),
  );
  return { flow, witnessPort: witness, group };
}

const witnessOf = (t: ExecutionContext, { flow, witnessPort, group }: Group) =>
  startWitness(t, { group, listen: `127.0.0.1:${witnessPort}`, state: join(dirname(flow), 'witness'), keyFile: siteKeyFile });

const hubIn = (t: ExecutionContext, flow: string, id: string, env: Readonly<Record<string, string>> = {}) =>
  runHub(t, flow, { env: { ...env, HUB: id }, args: ['--state', join(dirname(flow), `state-${id}`)] });
const update = async (hub: HubProcess, address: string, value: string) => {
  const response = await fetch(`${hub.base}/update?parameter=${encodeURIComponent(address)}&value=${encodeURIComponent(value)}`, {
    headers: { accept: 'application/json' },
  });
  return { status: response.status, body: (await response.json()) as { ok?: boolean; code?: string } };
};
const roleOf = (hub: HubProcess) => hub.read('bus/_hub/role');

/** A device, a witness and two hubs: a active (the first member, when both start together), b standby; `envOf` adds to a hub's environment. */
async function votedPair(t: ExecutionContext, envOf: (id: 'a' | 'b') => Readonly<Record<string, string>> = () => ({})) {
  const device = await recordingDevice(t);
  const group = await votedGroupFlow(device.port);
  const witness = await witnessOf(t, group);
  const [a, b] = await Promise.all([hubIn(t, group.flow, 'a', envOf('a')), hubIn(t, group.flow, 'b', envOf('b'))]);
  await eventually(
    async () => (await roleOf(a)) === 'active' || (await roleOf(b)) === 'active',
    () => `a hub to take the lease: ${a.log()}`,
    15_000,
  );
  const [active, standby] = (await roleOf(a)) === 'active' ? [a, b] : [b, a];
  await eventually(async () => (await standby.read('bus/_hub/active')) !== '', 'the standby to know the active hub');
  t.like(await update(active, 'router/dest/1', '1'), { status: 200 });
  await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 1'), 'the device to hear the active hub');
  return { device, group, witness, active, standby };
}

/** Writes `router/dest/1` on the active hub every 250 ms for `ms`: each answer, and how long the device took to hear it. */
async function driveFor(hub: HubProcess, device: Awaited<ReturnType<typeof recordingDevice>>, from: number, ms: number) {
  const results: { value: number; status: number; code?: string; heardAfter: number | undefined }[] = [];
  const end = performance.now() + ms;
  for (let value = from; performance.now() < end; value++) {
    const sentAt = performance.now();
    const { status, body } = await update(hub, 'router/dest/1', String(value));
    let heardAfter: number | undefined;
    await eventually(() => device.lines.some((l) => l.line === `ROUTE 1 ${value}`), 'the device', 1000).then(
      () => (heardAfter = performance.now() - sentAt),
      () => undefined,
    );
    results.push({ value, status, ...(body.code ? { code: body.code } : {}), heardAfter });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return results;
}

withBroker(
  `the broker killed under a voted pair: the active hub drives on and answers writes; back, the standby has the values (R-AV1)${whyNoBroker}`,
  async (t) => {
    const { device, active, standby } = await votedPair(t);
    const connection = device.lines.find((l) => l.line === 'ROUTE 1 1')?.connection;

    await broker.kill('SIGKILL');
    const duringOutage = await driveFor(active, device, 100, 5000);
    t.true(duringOutage.length >= 10, `${duringOutage.length} writes during the outage`);
    t.deepEqual(
      duringOutage.filter((r) => r.status !== 200 || r.heardAfter === undefined),
      [],
      'every write answered 200 and on the device within a second, without the broker',
    );
    t.like(await update(active, 'desk/title', 'written without the broker'), { status: 200 });
    t.is(await roleOf(active), 'active', 'the roles stay');
    t.is(await roleOf(standby), 'standby');
    t.true(
      device.lines.every((l) => l.connection === connection),
      'one hub drove the device all along',
    );

    await broker.restart();
    await eventually(
      async () => (await standby.read('desk/title')) === 'written without the broker',
      'the standby to have what changed meanwhile',
      20_000,
    );
    t.is(await roleOf(active), 'active');
    t.is(await roleOf(standby), 'standby');
  },
);

withBroker(
  `a write the broker never acknowledged because it went (hung, then killed) is answered as the outage's writes are: 200, and the standby has it once the broker is back (R-AV1)${whyNoBroker}`,
  async (t) => {
    const { active, standby } = await votedPair(t);
    t.like(await update(active, 'desk/title', 'before'), { status: 200 });
    await eventually(async () => (await standby.read('desk/title')) === 'before', 'the standby to have the value');
    // Hung: the write goes out and no acknowledgement comes; then gone, its connections closed.
    broker.pause();
    const answer = update(active, 'desk/title', 'as the broker went');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await broker.kill('SIGKILL');
    const { status, body } = await answer;
    t.is(status, 200, JSON.stringify(body));
    t.is(await roleOf(active), 'active');
    await broker.restart();
    await eventually(
      async () => (await standby.read('desk/title')) === 'as the broker went',
      'the standby to have the write once the broker is back',
      20_000,
    );
  },
);

withBroker(
  `the witness killed: the active hub drives on; the witness back and the active hub killed: the other takes over (R-AV2)${whyNoBroker}`,
  async (t) => {
    const { device, group, witness, active, standby } = await votedPair(t);
    witness.child.kill('SIGKILL');
    const withoutWitness = await driveFor(active, device, 200, 3000);
    t.deepEqual(
      withoutWitness.filter((r) => r.status !== 200 || r.heardAfter === undefined),
      [],
      'every write answered and driven without the witness',
    );
    t.is(await roleOf(active), 'active');
    // What Grafana reads: the witness not reached; the standby reached, granting the lease.
    const standbyId = (await standby.read('bus/_hub/active')) === 'a' ? 'b' : 'a';
    const metrics = await (await fetch(`${active.base}/metrics`)).text();
    t.regex(metrics, /^patchbay_group_voter_reached\{[^}]*voter="witness"[^}]*\} 0$/m);
    t.regex(metrics, /^patchbay_group_voter_granted\{[^}]*voter="witness"[^}]*\} 0$/m, 'a voter not heard grants nothing');
    t.regex(metrics, new RegExp(`^patchbay_group_voter_granted\\{[^}]*voter="${standbyId}"[^}]*\\} 1$`, 'm'));
    t.is(await active.read('bus/_hub/voters'), ['a', 'b'].sort().join(' '), 'the voters it reaches, as a parameter');
    // And what the operator sees: the console's role bar strikes out the witness.
    if (canRunBrowser) {
      const browser = await openBrowser(t);
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      page.setDefaultTimeout(60_000);
      await page.goto(`${active.base}/console/`);
      await page.locator('[data-testid=voters] .voter.unreached', { hasText: 'witness' }).waitFor();
      t.is(await page.locator('[data-testid=voters] .voter.reached').count(), 2);
      // A folder to look at it in (PATCHBAY_SCREENSHOTS, as for the console's other specs).
      const shots = process.env['PATCHBAY_SCREENSHOTS'];
      if (shots) await page.screenshot({ path: join(shots, 'console-voters.png') });
    } else t.log(`the console not looked at${whyNoBrowser}`);

    // The witness back, the active hub killed: the standby takes over with the witness's vote.
    await witnessOf(t, group);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const killedAt = performance.now();
    active.child.kill('SIGKILL');
    await eventually(
      async () => (await roleOf(standby)) === 'active',
      () => `the standby to take over: ${standby.log()}`,
      8000,
    );
    const takeover = performance.now() - killedAt;
    t.log(`takeover after SIGKILL with voters: ${Math.round(takeover)} ms`);
    t.true(takeover < 5000, `took over in ${Math.round(takeover)} ms`);
    t.like(await update(standby, 'router/dest/1', '999'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 999'), 'the device to hear the new active hub');
  },
);

withBroker(
  `POST /failover on the standby of a voted pair moves the role at once and the old hub drives no more; a SIGTERM of the active hub hands over within a second (R-B5, R-AV2)${whyNoBroker}`,
  async (t) => {
    const { device, active, standby } = await votedPair(t);
    const epoch = Number(await active.read('bus/_hub/epoch'));
    const asked = await fetch(`${standby.base}/failover`, { method: 'POST', headers: { accept: 'application/json' } });
    t.is(asked.status, 200);
    const askedAt = performance.now();
    await eventually(
      async () => (await roleOf(standby)) === 'active',
      () => `the standby to take over: ${standby.log()}`,
      5000,
    );
    t.log(`failover with voters: active ${Math.round(performance.now() - askedAt)} ms after the request`);
    await eventually(async () => (await roleOf(active)) === 'standby', 'the old active hub to stand by');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.is(await roleOf(standby), 'active', 'the role stays moved: the old hub did not take it back');
    t.is(Number(await standby.read('bus/_hub/epoch')), epoch + 1, 'one epoch more');
    t.is(await active.read('bus/_hub/active'), await standby.read('bus/_hub/active'), 'both name the new active hub');
    t.like(await update(standby, 'router/dest/1', '600'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 600'), 'the device to hear the new active hub');
    const newConnection = device.lines.find((l) => l.line === 'ROUTE 1 600')?.connection;
    // The old hub shows the new one's router, once its description came through the broker, and forwards to it.
    let forwarded: Awaited<ReturnType<typeof update>> | undefined;
    await eventually(
      async () => (forwarded = await update(active, 'router/dest/1', '601')).status === 200,
      () => `the old hub to forward: ${JSON.stringify(forwarded)}`,
      5000,
    );
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 601'), 'a forwarded write to reach the device');
    t.true(
      device.lines.filter((l) => l.line === 'ROUTE 1 600' || l.line === 'ROUTE 1 601').every((l) => l.connection === newConnection),
      'only the new active hub drove the device',
    );

    const stoppedAt = performance.now();
    standby.child.kill('SIGTERM');
    await eventually(async () => (await roleOf(active)) === 'active', 'the other hub to take over from a stop', 5000);
    const handover = performance.now() - stoppedAt;
    t.log(`handover after SIGTERM with voters: ${Math.round(handover)} ms`);
    t.true(handover < 1000, `handed over in ${Math.round(handover)} ms`);
  },
);

/** libfaketime (Debian's faketime): a process's wall clock set from a file, its monotonic clock left alone. */
const faketime = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const canJumpClocks = existsSync(faketime);
const withClocks = canRunBroker && canJumpClocks ? test.serial : test.serial.skip;
const whyNoClocks = whyNoBroker || (canJumpClocks ? '' : ' (skipped: libfaketime is missing; apt-get install faketime)');

withClocks(
  `wall clocks that jump an hour ahead or back change nothing: the roles stay, every write is driven, and the other still takes over within 5 s of a kill (R-AV2)${whyNoClocks}`,
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-clocks-'));
    const clockOf = (id: string) => join(dir, `clock-${id}`);
    await Promise.all(['a', 'b'].map((id) => writeFile(clockOf(id), '+0\n')));
    const { device, active, standby } = await votedPair(t, (id) => ({
      LD_PRELOAD: faketime,
      FAKETIME_TIMESTAMP_FILE: clockOf(id),
      FAKETIME_CACHE_DURATION: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    }));
    const activeId = (await standby.read('bus/_hub/active')) as 'a' | 'b';
    const standbyId = activeId === 'a' ? 'b' : 'a';
    const jump = async (id: string, offset: string, value: number) => {
      await writeFile(clockOf(id), `${offset}\n`);
      const driven = await driveFor(active, device, value, 3000);
      t.deepEqual(
        driven.filter((r) => r.status !== 200 || r.heardAfter === undefined),
        [],
        `every write answered and driven with hub ${id}'s clock at ${offset}`,
      );
      t.is(await roleOf(active), 'active', `the roles stay with hub ${id}'s clock at ${offset}`);
      t.is(await roleOf(standby), 'standby');
    };
    await jump(activeId, '+1h', 300);
    await jump(activeId, '-1h', 400);
    await jump(standbyId, '-2h', 500);
    t.regex(await standby.read('bus/_hub/epoch'), /^\d+$/);

    const killedAt = performance.now();
    active.child.kill('SIGKILL');
    await eventually(async () => (await roleOf(standby)) === 'active', 'the standby, its clock two hours behind, to take over', 8000);
    const takeover = performance.now() - killedAt;
    t.log(`takeover with the standby's wall clock two hours behind: ${Math.round(takeover)} ms`);
    t.true(takeover < 5000, `took over in ${Math.round(takeover)} ms`);
    t.like(await update(standby, 'router/dest/1', '999'), { status: 200 });
    await eventually(() => device.lines.some((l) => l.line === 'ROUTE 1 999'), 'the device to hear the new active hub');
  },
);
