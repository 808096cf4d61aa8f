/**
 * A group on etcd on a network of its own (R-EG3, R-EG5), for the fault spec and
 * `npm run bench:faults`: hubs a, b and c, three etcd members and the broker each in a
 * network namespace on one switch, and a device on each hub's own link (never cut) that
 * records which hub sent each command, with the command's fencing token (`$TOKEN`) and when.
 * A client writes to every hub twenty times a second while asked (a takeover is timed to the
 * next command the device hears: the cadence is part of the figure). The checker says what the
 * device log shows: commands of a lower token after one of a higher, and writes answered 200
 * the device never heard.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EtcdCluster, startEtcdCluster } from './etcd-cluster.ts';
import { eventually } from './eventually.ts';
import { bin, type HubProcess, runHub } from './hub-process.ts';
import { startBroker } from './mosquitto.ts';
import { makeNetwork, type Network, type Teardowns } from './namespaces.ts';
import { type Heard as RecordedCommand, recordingRouter } from './recording-router.ts';
import { siteKeyFile } from './site-key.ts';

export const hubIds = ['a', 'b', 'c'] as const;
export type Hub = (typeof hubIds)[number];
export const etcdIds = ['e0', 'e1', 'e2'] as const;
const API_PORT = 17080;
const DEVICE_PORT = 4000;
export const LEASE_MS = 2000;

export type Heard = RecordedCommand<Hub>;

export interface Answer {
  readonly hub: Hub;
  readonly value: number;
  readonly status: number;
  readonly at: number;
}

export interface EtcdSite {
  readonly network: Network;
  readonly cluster: EtcdCluster;
  /** Each hub's process now (a hub started again replaces its entry). */
  readonly hub: Record<Hub, HubProcess>;
  /** Every command the device heard, in the order it heard them. */
  readonly heard: Heard[];
  /** Hubs killed and not started again. */
  readonly gone: Set<Hub>;
  /** The one hub that says it is active, or undefined when none or more than one do. */
  activeNow(): Promise<Hub | undefined>;
  roleOf(id: Hub): Promise<string>;
  /** Starts a killed hub again, with its state folder. */
  restart(id: Hub): Promise<void>;
  /** The member etcd's members name their leader now. */
  etcdLeader(): Promise<number | undefined>;
  /** Writes to every hub twenty times a second from now until stopped; every answer is kept. */
  writeAllAlong(): { readonly answers: Answer[]; stop(): void };
}

/** libfaketime (Debian's faketime): a hub's clocks, wall and monotonic, run at a rate of their own. */
const faketime = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
export const canSkewClocks = existsSync(faketime);

export interface EtcdSiteOptions {
  /**
   * The rate of each named hub's clocks against the machine's: 0.95 runs 5 % slow. A slow
   * driver believes its lease longer than it is; the hub's drift margin (a tenth of the lease)
   * is what keeps it from driving past etcd's end of it. Needs libfaketime (`canSkewClocks`).
   */
  readonly clockRates?: Partial<Record<Hub, number>>;
}

export async function startEtcdSite(t: Teardowns, options: EtcdSiteOptions = {}): Promise<EtcdSite> {
  const network = makeNetwork(t, [...hubIds, ...etcdIds, 'broker'], hubIds);
  const heard = await recordingRouter(t, network, hubIds, DEVICE_PORT);
  const broker = await startBroker({ host: network.address('broker'), port: 1883, command: network.run('broker') });
  t.teardown(() => broker.stop());
  const cluster = await startEtcdCluster(3, {
    hosts: etcdIds.map((member) => network.address(member)),
    command: (i) => network.run(etcdIds[i]!),
  });
  t.teardown(() => cluster.stop());
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-etcd-site-'));
  const flow = join(dir, 'studio.json5');
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
            members: [...hubIds],
            coordinator: { etcd: { endpoints: cluster.endpoints, leaseMs: LEASE_MS } },
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
          send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE T$TOKEN\n' }],
        },
      },
    }),
  );
  const start = (id: Hub) =>
    runHub(t, flow, {
      command: [...network.run(id), process.execPath, bin],
      args: ['--state', join(dir, `state-${id}`)],
      env: { HUB: id, API_IP: network.deviceLink(id).hub, DEVICE_IP: network.deviceLink(id).here, ...clockOf(id) },
    });
  const clockOf = (id: Hub): Record<string, string> => {
    const rate = options.clockRates?.[id];
    return rate === undefined || !canSkewClocks ? {} : { LD_PRELOAD: faketime, FAKETIME: `+0 x${rate}`, FAKETIME_NO_CACHE: '1' };
  };
  const started = await Promise.all(hubIds.map(start));
  const hub = Object.fromEntries(hubIds.map((id, i) => [id, started[i]!])) as Record<Hub, HubProcess>;
  const gone = new Set<Hub>();
  const roleOf = (id: Hub) => (gone.has(id) ? Promise.resolve('gone') : hub[id].read('bus/_hub/role').catch(() => 'unreachable'));
  const activeNow = async () => {
    const roles = await Promise.all(hubIds.map(roleOf));
    const active = hubIds.filter((_, i) => roles[i] === 'active');
    return active.length === 1 ? active[0] : undefined;
  };
  await eventually(async () => (await activeNow()) !== undefined, 'a hub to win the election', 60_000);
  return {
    network,
    cluster,
    hub,
    heard,
    gone,
    activeNow,
    roleOf,
    async restart(id) {
      hub[id] = await start(id);
      gone.delete(id);
    },
    async etcdLeader() {
      const leads = await Promise.all(
        cluster.members.map(async (member) => {
          const response = await fetch(`${member.clientUrl}/v3/maintenance/status`, {
            method: 'POST',
            body: '{}',
            signal: AbortSignal.timeout(1000),
          }).catch(() => undefined);
          const answer = (await response?.json().catch(() => undefined)) as
            | { header?: { member_id?: string }; leader?: string }
            | undefined;
          return answer?.leader !== undefined && answer.header?.member_id === answer.leader;
        }),
      );
      const at = leads.indexOf(true);
      return at < 0 ? undefined : at;
    },
    writeAllAlong() {
      const answers: Answer[] = [];
      let value = 0;
      const timer = setInterval(() => {
        for (const id of hubIds) {
          if (gone.has(id)) continue;
          value += 1;
          const sent = value;
          const at = performance.now();
          fetch(`${hub[id].base}/update?parameter=router/dest/1&value=${sent}`, { signal: AbortSignal.timeout(2000) }).then(
            (response) => answers.push({ hub: id, value: sent, status: response.status, at }),
            () => answers.push({ hub: id, value: sent, status: 0, at }),
          );
        }
      }, 50);
      return { answers, stop: () => clearInterval(timer) };
    },
  };
}

/** The checker: commands heard after one of a higher token, and writes answered 200 that the device never heard. */
export function checkDeviceLog(heard: readonly Heard[], answers: readonly Answer[]) {
  let highest = 0;
  const outOfOrder = heard.filter((h) => {
    const lower = h.token < highest;
    highest = Math.max(highest, h.token);
    return lower;
  });
  const values = new Set(heard.map((h) => h.value));
  const lost = answers.filter((answer) => answer.status === 200 && !values.has(answer.value));
  return { outOfOrder, lost };
}
