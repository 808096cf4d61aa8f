/**
 * A voted group on a network of its own (R-AV2, R-AV4): hubs a and b, the witness and the
 * broker each in a network namespace with an address of its own on one switch, and a device
 * on each hub's own link (never cut) that records which hub sent each command and when. A
 * client writes to both hubs ten times a second all along. The active hub unplugged from the
 * switch, cut from the broker only, cut from the standby only, and paused for 3 s: at no
 * instant do two hubs drive the device, the role moves only when the active hub has lost its
 * majority, and the time the device went without a command is reported.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../helpers/eventually.ts';
import { bin, type HubProcess, runHub } from '../helpers/hub-process.ts';
import { canRunBroker, startBroker, whyNoBroker } from '../helpers/mosquitto.ts';
import { canMakeNamespaces, makeNetwork, whyNoNamespaces } from '../helpers/namespaces.ts';
import { heardBetween, recordingRouter } from '../helpers/recording-router.ts';
import { siteKeyFile } from '../helpers/site-key.ts';
import { startWitness } from '../helpers/witness-process.ts';

const hubs = ['a', 'b'] as const;
type Hub = (typeof hubs)[number];
const VOTE_PORT = 17070;
const API_PORT = 17080;
const DEVICE_PORT = 4000;

/** Writes `router/dest/1` to both hubs ten times a second, a new value each time, until stopped; keeps every answer. */
function writeAllAlong(hubsByName: Record<Hub, HubProcess>) {
  const answers: { hub: Hub; value: number; status: number; at: number }[] = [];
  let value = 0;
  const timer = setInterval(() => {
    value += 1;
    const sent = value;
    for (const hub of hubs) {
      const at = performance.now();
      fetch(`${hubsByName[hub].base}/update?parameter=router/dest/1&value=${sent}`, { signal: AbortSignal.timeout(2000) }).then(
        (response) => answers.push({ hub, value: sent, status: response.status, at }),
        () => answers.push({ hub, value: sent, status: 0, at }),
      );
    }
  }, 100);
  return { answers, stop: () => clearInterval(timer) };
}

/** The drivers after the first, when the first is `hub` (it may have driven in the moment before a cut). */
const withoutLeading = (hub: Hub, drivers: readonly Hub[]) => (drivers[0] === hub ? drivers.slice(1) : drivers);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const test_ = canMakeNamespaces && canRunBroker ? test.serial : test.serial.skip;

test_(
  `the active hub unplugged, cut from the broker, cut from the standby, paused: never two drivers, the role moves only with the majority (R-AV2, R-AV4)${whyNoNamespaces || whyNoBroker}`,
  async (t) => {
    t.timeout(300_000);
    const network = makeNetwork(t, ['a', 'b', 'witness', 'broker'], hubs);
    const heard = await recordingRouter(t, network, hubs, DEVICE_PORT);
    const broker = await startBroker({ host: network.address('broker'), port: 1883, command: network.run('broker') });
    t.teardown(() => broker.stop());
    const dir = await mkdtemp(join(tmpdir(), 'patchbay-partitions-'));
    const flow = join(dir, 'studio.json5');
    const voter = (member: string) => `${network.address(member)}:${VOTE_PORT}`;
    await writeFile(
      flow,
      JSON.stringify({
        connections: {
          api: { type: 'rest-api', port: API_PORT, bindIp: '${API_IP}' },
          bus: {
            type: 'mqtt',
            url: broker.url,
            hub: {
              id: '${HUB}',
              group: 'onair',
              members: ['a', 'b'],
              voters: { a: voter('a'), b: voter('b'), witness: voter('witness') },
              share: [],
              key: { file: siteKeyFile },
            },
          },
          router: {
            type: 'tcp-client',
            host: '${DEVICE_IP}',
            port: DEVICE_PORT,
            parameters: ['dest/1,I'],
            receive: [],
            send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\n' }],
          },
        },
      }),
    );
    await startWitness(t, {
      group: 'onair',
      listen: voter('witness'),
      state: join(dir, 'witness'),
      keyFile: siteKeyFile,
      command: network.run('witness'),
    });
    const started = await Promise.all(
      hubs.map((hub) =>
        runHub(t, flow, {
          command: [...network.run(hub), process.execPath, bin],
          args: ['--state', join(dir, `state-${hub}`)],
          env: { HUB: hub, API_IP: network.deviceLink(hub).hub, DEVICE_IP: network.deviceLink(hub).here },
        }),
      ),
    );
    const hub: Record<Hub, HubProcess> = { a: started[0]!, b: started[1]! };
    const roleOf = (id: Hub) => hub[id].read('bus/_hub/role');
    const other = (id: Hub): Hub => (id === 'a' ? 'b' : 'a');
    await eventually(async () => (await roleOf('a')) === 'active' || (await roleOf('b')) === 'active', 'a hub to take the lease', 30_000);
    let active: Hub = (await roleOf('a')) === 'active' ? 'a' : 'b';
    await eventually(async () => (await roleOf(other(active))) === 'standby', 'the other hub to stand by', 30_000);

    const writer = writeAllAlong(hub);
    t.teardown(() => writer.stop());
    await eventually(() => heard.some((h) => h.hub === active), 'the device to hear the active hub', 10_000);

    /** Runs `cut` for `ms`, then `mend`, and waits for the group to settle: what the device heard meanwhile. */
    const phase = async (name: string, cut: () => void, mend: () => void, ms: number) => {
      const from = performance.now();
      cut();
      await pause(ms);
      mend();
      await pause(3000);
      const seen = heardBetween(heard, from, performance.now());
      t.log(
        `${name}: the device heard ${seen.drivers.join(' then ')} (${seen.count} commands); longest without a command ${seen.longestWait} ms`,
      );
      return seen;
    };
    /** Every write to `id` answered 200 between two instants, and the device heard each within a second. */
    const everyWriteDriven = (id: Hub, from: number, to: number) =>
      writer.answers
        .filter((answer) => answer.hub === id && answer.at >= from && answer.at < to)
        .filter((answer) => answer.status !== 200 || !heard.some((h) => h.value === answer.value && h.at - answer.at < 1000));

    // 1. The active hub's cable out of the switch: it loses its majority, stops driving, and the other takes over.
    const unplugged = active;
    const one = await phase(
      `${unplugged} unplugged for 6 s`,
      () => network.unplug(unplugged),
      () => network.plugIn(unplugged),
      6000,
    );
    t.deepEqual(withoutLeading(unplugged, one.drivers), [other(unplugged)], 'the other hub drove, and the unplugged one never after it');
    await eventually(async () => (await roleOf(unplugged)) === 'standby', 'the unplugged hub, back, to stand by', 20_000);
    t.is(await roleOf(other(unplugged)), 'active');
    active = other(unplugged);

    // 2. The active hub cut from the broker only: it keeps the witness's vote and the standby's; nothing changes.
    let from = performance.now();
    const two = await phase(
      `${active} cut from the broker for 5 s`,
      () => network.cut(active, 'broker'),
      () => network.mend(active, 'broker'),
      5000,
    );
    t.deepEqual(two.drivers, [active], 'only the active hub drove');
    t.deepEqual(everyWriteDriven(active, from, performance.now() - 1000), [], 'every write to the active hub answered and driven');
    t.true(two.longestWait < 1000, `the device waited ${two.longestWait} ms at most`);
    t.is(await roleOf(active), 'active');

    // 3. The active hub cut from the standby only: the witness names it to the standby, which does not claim.
    from = performance.now();
    const three = await phase(
      `${active} cut from ${other(active)} for 5 s`,
      () => network.cut(active, other(active)),
      () => network.mend(active, other(active)),
      5000,
    );
    t.deepEqual(three.drivers, [active], 'only the active hub drove');
    t.deepEqual(everyWriteDriven(active, from, performance.now() - 1000), [], 'every write to the active hub answered and driven');
    t.true(three.longestWait < 1000, `the device waited ${three.longestWait} ms at most`);
    t.is(await roleOf(active), 'active');
    t.is(await roleOf(other(active)), 'standby');

    // 4. The active hub paused for 3 s: the other takes over, and the paused hub, awake, does not drive (R-B3).
    const paused = active;
    const four = await phase(
      `${paused} paused for 3 s`,
      () => hub[paused].child.kill('SIGSTOP'),
      () => hub[paused].child.kill('SIGCONT'),
      3000,
    );
    t.deepEqual(withoutLeading(paused, four.drivers), [other(paused)], 'the other hub drove, and the paused one never after it, awake too');
    await eventually(async () => (await roleOf(paused)) === 'standby', 'the paused hub to stand by', 20_000);
    writer.stop();
  },
);
