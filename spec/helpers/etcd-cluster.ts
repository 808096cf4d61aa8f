import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually.ts';
import { freePort } from './ports.ts';

const binary = '/usr/bin/etcd';
/** True where Debian's etcd is installed (CI installs `etcd-server`). */
export const canRunEtcd = existsSync(binary);
/** Appended to a spec's title: why it was skipped, when it was. */
export const whyNoEtcd = canRunEtcd ? '' : ' (skipped: /usr/bin/etcd is missing; apt-get install etcd-server)';

export interface EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly pid: number | undefined;
  kill(signal?: NodeJS.Signals): void;
  /** Starts it again after a kill, with its data: it rejoins the cluster. */
  restart(): void;
}

/** A three-member (or `size`) etcd cluster of the spec's own on loopback, each in a temporary folder. */
export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  readonly endpoints: readonly string[];
  /** Stops every member by its PID (SIGKILL) and removes the folders. Idempotent. */
  stop(): Promise<void>;
}

/** Where members run: by default on loopback, each on free ports; in a spec network, each at its member's address and namespace. */
export interface EtcdPlacement {
  /** Each member's address (ports 2379 and 2380 there). */
  readonly hosts: readonly string[];
  /** What runs a command in each member's namespace (`Network.run`). */
  readonly command: (member: number) => readonly string[];
}

export async function startEtcdCluster(size = 3, placement?: EtcdPlacement): Promise<EtcdCluster> {
  const folder = mkdtempSync(join(tmpdir(), 'patchbay-etcd-'));
  const ports = [];
  for (let i = 0; i < size; i++)
    ports.push(placement ? { client: 2379, peer: 2380 } : { client: await freePort(), peer: await freePort() });
  const host = (i: number) => placement?.hosts[i] ?? '127.0.0.1';
  const names = ports.map((_, i) => `m${i}`);
  const token = `spec-${ports[0]!.client}`;
  const initial = ports.map(({ peer }, i) => `${names[i]}=http://${host(i)}:${peer}`).join(',');
  const processes: ChildProcess[] = [];
  const members = ports.map(({ client, peer }, i): EtcdMember => {
    const name = names[i]!;
    const clientUrl = `http://${host(i)}:${client}`;
    const prefix = placement?.command(i) ?? [];
    // Started again after a kill, it finds its data folder and rejoins (the initial-cluster flags are then ignored).
    const start = () => {
      const child = spawn(
        prefix[0] ?? binary,
        [
          ...(prefix.length > 0 ? [...prefix.slice(1), binary] : []),
          ...['--name', name, '--data-dir', join(folder, name)],
          ...['--listen-client-urls', clientUrl, '--advertise-client-urls', clientUrl],
          ...['--listen-peer-urls', `http://${host(i)}:${peer}`, '--initial-advertise-peer-urls', `http://${host(i)}:${peer}`],
          ...['--initial-cluster', initial, '--initial-cluster-state', 'new', '--initial-cluster-token', token],
          ...['--log-level', 'error', '--logger', 'zap'],
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      child.stderr?.resume();
      processes.push(child);
      return child;
    };
    let child = start();
    return {
      name,
      clientUrl,
      get pid() {
        return child.pid;
      },
      kill: (signal = 'SIGKILL') => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      },
      restart: () => {
        if (child.exitCode !== null || child.signalCode !== null) child = start();
      },
    };
  });
  const endpoints = members.map((member) => member.clientUrl);
  let stopped = false;
  const cluster: EtcdCluster = {
    members,
    endpoints,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all(
        processes.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGCONT');
              child.kill('SIGKILL');
            }),
        ),
      );
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    // Healthy once a quorum elected a leader: every member answers a linearizable read.
    await eventually(
      async () => {
        for (const url of endpoints) {
          const response = await fetch(`${url}/v3/kv/range`, {
            method: 'POST',
            body: JSON.stringify({ key: 'eA==' }),
            signal: AbortSignal.timeout(1000),
          }).catch(() => undefined);
          if (!response?.ok) return false;
        }
        return true;
      },
      'a three-member etcd cluster to elect its leader',
      60_000,
    );
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
